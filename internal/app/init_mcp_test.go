package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// lore init --agent cursor,copilot registers lore mcp in each project
// file; --uninstall takes it out again; --mcp beside the hooks of
// claude writes .mcp.json; --mcp alone is a usage error.
func TestInitMCP(t *testing.T) {
	s := testrepo.NewStore(t)
	if _, err := Init(s, InitOptions{Agents: []string{"cursor,copilot"}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".cursor/mcp.json", ".vscode/mcp.json"} {
		data, err := os.ReadFile(filepath.Join(s.Root, f))
		if err != nil || !strings.Contains(string(data), `"mcp"`) {
			t.Errorf("%s: %v\n%s", f, err, data)
		}
	}
	if _, err := Init(s, InitOptions{Agents: []string{"cursor", "copilot"}, Uninstall: true}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".cursor", ".vscode"} {
		if _, err := os.Stat(filepath.Join(s.Root, f)); err == nil {
			t.Errorf("%s left after --uninstall", f)
		}
	}
	if _, err := Init(s, InitOptions{Agents: []string{"claude"}, MCP: true}); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(s.Root, ".mcp.json")); err != nil || !strings.Contains(string(data), `"lore"`) {
		t.Errorf(".mcp.json: %v %s", err, data)
	}
	var in *InputError
	if _, err := Init(s, InitOptions{MCP: true}); !errors.As(err, &in) {
		t.Errorf("--mcp without --agent: %v", err)
	}
}
