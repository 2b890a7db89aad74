package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each client's file gets lore's server under its key, the user's servers
// and bytes kept; an uninstall gives the file back byte for byte, and
// removes a file lore created.
func TestMCPMergeRoundTrip(t *testing.T) {
	for _, c := range MCPClients {
		if c.Path == "" {
			continue
		}
		for _, old := range []string{
			"",
			"{}\n",
			"{\n    \"" + c.Key + "\": {\n        \"other\": {\"command\": \"x\"}\n    },\n    \"keep\": true\n}\n",
			"{\r\n\t\"theme\": \"dark\"\r\n}\r\n",
		} {
			root := t.TempDir()
			path := filepath.Join(root, filepath.FromSlash(c.Path))
			if old != "" {
				os.MkdirAll(filepath.Dir(path), 0o755)
				os.WriteFile(path, []byte(old), 0o644)
			}
			if _, err := c.Install(root); err != nil {
				t.Fatalf("%s %q: %v", c.Name, old, err)
			}
			again, _ := c.Install(root) // idempotent
			if len(again) != 0 {
				t.Errorf("%s: a second install did %v", c.Name, again)
			}
			data, _ := os.ReadFile(path)
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%s: %v\n%s", c.Name, err, data)
			}
			servers, _ := doc[c.Key].(map[string]any)
			lore, _ := json.Marshal(servers["lore"])
			if !strings.Contains(string(lore), `"mcp"`) || !strings.Contains(string(lore), `"command":"lore"`) {
				t.Errorf("%s %q: no lore server in\n%s", c.Name, old, data)
			}
			if strings.Contains(old, "other") && servers["other"] == nil {
				t.Errorf("%s: the user's server is gone:\n%s", c.Name, data)
			}
			if _, err := c.Uninstall(root); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(path)
			if old == "" {
				if err == nil {
					t.Errorf("%s: lore's own file left behind:\n%s", c.Name, after)
				}
				if _, err := os.Stat(filepath.Dir(path)); err == nil && filepath.Dir(path) != root {
					t.Errorf("%s: lore's folder left behind", c.Name)
				}
				continue
			}
			if string(after) != old {
				t.Errorf("%s: uninstall left\n%q\nwant\n%q", c.Name, after, old)
			}
		}
	}
}

// Windsurf reads MCP servers only from a user file: lore writes its rule
// in the project and prints the server entry, naming this folder.
func TestMCPManual(t *testing.T) {
	root := t.TempDir()
	c := MCPNamed("windsurf")
	steps, err := c.Install(root)
	if err != nil || len(steps) != 2 || steps[0].Path != ".windsurf/rules/lore.md" ||
		!strings.Contains(steps[1].Why, "mcp_config.json") || !strings.Contains(steps[1].Why, `"-C","`+root+`","mcp"`) {
		t.Errorf("windsurf: %v %v", steps, err)
	}
	data, err := os.ReadFile(filepath.Join(root, ".windsurf", "rules", "lore.md"))
	if err != nil || !strings.Contains(string(data), "trigger: always_on") || !strings.Contains(string(data), "lore_check") {
		t.Errorf("rule: %v\n%s", err, data)
	}
	if _, err := c.Uninstall(root); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("left after uninstall: %v", entries)
	}
}

func TestMCPBadFile(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".cursor"), 0o755)
	bad := "{\n  \"mcpServers\": [1]\n}\n"
	os.WriteFile(filepath.Join(root, ".cursor", "mcp.json"), []byte(bad), 0o644)
	if _, err := MCPNamed("cursor").Install(root); err == nil || !strings.Contains(err.Error(), ".cursor/mcp.json:2") {
		t.Errorf("error %v, want one naming the file and line", err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".cursor", "mcp.json")); string(data) != bad {
		t.Errorf("the bad file was changed")
	}
}
