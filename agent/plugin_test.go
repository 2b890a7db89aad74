package agent

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// TestPluginHooks keeps the Claude Code plugin (.claude-plugin/plugin.json
// and hooks/hooks.json at the repository root) in step with what
// `lore init --agent claude` registers.
func TestPluginHooks(t *testing.T) {
	var manifest struct{ Name, Version, Description string }
	data, err := os.ReadFile("../.claude-plugin/plugin.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`).MatchString(manifest.Name) || manifest.Description == "" {
		t.Errorf("plugin.json: name %q must be kebab-case, with a description", manifest.Name)
	}
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	data, err = os.ReadFile("../hooks/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Hooks) != len(ClaudeEvents) {
		t.Errorf("hooks.json has %d events, lore init registers %d", len(file.Hooks), len(ClaudeEvents))
	}
	for _, e := range ClaudeEvents {
		groups := file.Hooks[e.Event]
		if len(groups) != 1 || len(groups[0].Hooks) != 1 || groups[0].Hooks[0].Command != "lore-hook claude "+e.Event || groups[0].Hooks[0].Type != "command" {
			t.Errorf("hooks.json %s: %+v", e.Event, groups)
		}
	}
}
