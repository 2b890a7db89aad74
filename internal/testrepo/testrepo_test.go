package testrepo_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// A commit carries the fixed identity and the given dates; a clone has it.
func TestCommitAndClone(t *testing.T) {
	r := testrepo.New(t)
	r.Write("a/b.txt", "one\n")
	head := r.Commit("2026-01-05T23:30:00+09:00", "first")
	got := strings.TrimSpace(r.Git("log", "-1", "--format=%an <%ae> %aI %cI %s", "main"))
	if want := "Lore Test <test@example.com> 2026-01-05T23:30:00+09:00 2026-01-05T23:30:00+09:00 first"; got != want {
		t.Fatalf("log = %q, want %q", got, want)
	}
	c := r.Clone(filepath.Join(t.TempDir(), "clone"))
	if c.Read("a/b.txt") != "one\n" || strings.TrimSpace(c.Git("rev-parse", "HEAD")) != head {
		t.Fatalf("the clone has not the commit %s", head)
	}
	if _, err := r.Try(nil, "rev-parse", "--verify", "nosuch"); err == nil {
		t.Fatal("Try hides git's failure")
	}
}

// NewStore opens the store on a repository with an empty .lore/.
func TestNewStore(t *testing.T) {
	s := testrepo.NewStore(t)
	if !s.Initialized() {
		t.Fatalf("store at %s has no .lore/", s.Root)
	}
}
