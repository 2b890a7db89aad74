package mcpserver

import (
	"os"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// TestMain keeps the developer's machine out of the tests: see
// testrepo.Hermetic.
func TestMain(m *testing.M) { os.Exit(testrepo.Hermetic(m.Run)) }
