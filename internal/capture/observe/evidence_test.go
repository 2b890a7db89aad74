package observe

import (
	"strings"
	"testing"
)

// TestRepoEvidence: lore observe --evidence never commits a home or
// absolute path: one under the repository becomes repo-relative, one
// outside it is refused with the evidence named.
func TestRepoEvidence(t *testing.T) {
	root, home := "/home/ann/src/app", "/home/ann"
	got, err := RepoEvidence(root, home, []string{"~/src/app/docs/notes.md:3", "seen in /home/ann/src/app/Makefile", "session 1f2e (abc123)"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/notes.md:3", "seen in Makefile", "session 1f2e (abc123)"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("evidence %d = %q, want %q", i, got[i], want[i])
		}
	}
	for _, ev := range []string{"~/notes.md:3", "/etc/hosts", "see /home/ann/src/application/x.md"} {
		if _, err := RepoEvidence(root, home, []string{ev}); err == nil || !strings.Contains(err.Error(), "outside the repository") || !strings.Contains(err.Error(), ev) {
			t.Errorf("evidence %q: err %v, want a refusal naming it", ev, err)
		}
	}
}
