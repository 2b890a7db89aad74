package agent

import (
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"testing"
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
