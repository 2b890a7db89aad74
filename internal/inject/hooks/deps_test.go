package hooks

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeanDeps keeps the hook binary free of the packages whose start-up
// cost every tool call would pay (docs/design.md, Performance and quality
// bars).
func TestLeanDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/lore-agents/lore/cmd/lore-hook").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/go-git/", "github.com/yuin/goldmark", "github.com/alecthomas/kong",
			"gopkg.in/yaml", "github.com/adrg/frontmatter", "github.com/lore-agents/lore/internal/store/gitstore",
			"github.com/lore-agents/lore/internal/knowledge/markdown", "github.com/lore-agents/lore/internal/capture/scan",
			"github.com/lore-agents/lore/internal/knowledge/redact", "github.com/BurntSushi/toml", "github.com/modelcontextprotocol/",
			"crypto/"} { // crypto/sha256 and the like link the FIPS 140 module and its initialisation
			if strings.HasPrefix(dep, banned) {
				t.Errorf("lore-hook links %s", dep)
			}
		}
	}
	if !strings.Contains(string(out), "github.com/lore-agents/lore/internal/inject/hooks") {
		t.Errorf("go list -deps did not list hooks:\n%s", out)
	}
}
