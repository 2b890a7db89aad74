package agent

import (
	"encoding/json"
	"flag"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
)

var update = flag.Bool("update", false, "rewrite hooks/hooks.json from what lore init registers")

// TestPluginHooks keeps the Claude Code plugin (.claude-plugin/plugin.json
// and hooks/hooks.json at the repository root) in step with what
// `lore init --agent claude` registers; -update rewrites hooks.json.
func TestPluginHooks(t *testing.T) {
	var manifest struct{ Name, Version, Description string }
	data, err := os.ReadFile("../../../.claude-plugin/plugin.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`).MatchString(manifest.Name) || manifest.Description == "" {
		t.Errorf("plugin.json: name %q must be kebab-case, with a description", manifest.Name)
	}
	want, err := Named("claude").Merge(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("../../../hooks/hooks.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("../../../hooks/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("hooks/hooks.json differs from what lore init --agent claude registers (go test ./internal/integrate/agent -update):\n%s", got)
	}
	if reg, err := Named("claude").Status(got); err != nil || reg.State != Current {
		t.Errorf("hooks/hooks.json: %+v %v", reg, err)
	}
}

// TestPluginFiles keeps the plugin's /lore-* commands (commands/) and
// sub-agents (agents/) equal to what lore init --agent claude installs
// (-update rewrites them); agents/ may add the plugin's own sub-agents,
// each with a name and a description.
func TestPluginFiles(t *testing.T) {
	want := map[string]string{}
	for _, f := range ClaudeCommands {
		want["commands/"+path.Base(f.Path)] = f.Content
	}
	for name, data := range consolidate.AgentFiles() {
		want["agents/"+name] = string(data)
	}
	for rel, content := range want {
		p := filepath.Join("..", "..", "..", filepath.FromSlash(rel))
		if *update {
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Errorf("%s differs from what lore init --agent claude installs (go test ./internal/integrate/agent -update): %v", rel, err)
		}
	}
	for _, dir := range []string{"commands", "agents"} {
		entries, err := os.ReadDir(filepath.Join("..", "..", "..", dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			rel := dir + "/" + e.Name()
			if _, ok := want[rel]; ok {
				continue
			}
			data, _ := os.ReadFile(filepath.Join("..", "..", "..", dir, e.Name()))
			if dir == "commands" || !regexp.MustCompile(`(?s)^---\nname: [a-z-]+\ndescription: .+\n---\n`).Match(data) {
				t.Errorf("%s: not one lore installs, nor a sub-agent with name and description", rel)
			}
		}
	}
}
