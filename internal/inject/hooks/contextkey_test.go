package hooks

import (
	"path/filepath"
	"testing"
)

// TestContextKeyIsStable pins the names of a context's files: a changed
// name loses the dedup state of every running session (their lessons show
// once more) until the sweep removes the old files a week later, so it
// changes only on purpose.
func TestContextKeyIsStable(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	base := stateDir()
	for _, c := range []struct {
		id, agent, want string
	}{
		{"abc-123", "", "d8e7b1339ddd9706"},
		{"abc-123", "agent-1", "2701cf501df17e53"},
	} {
		s := openSession(c.id, c.agent)
		if want := filepath.Join(base, c.want); s.self != want {
			t.Errorf("session %q, agent %q: files %s, want %s", c.id, c.agent, s.self, want)
		}
		if main := filepath.Join(base, "d8e7b1339ddd9706"); s.main != main {
			t.Errorf("session %q, agent %q: main thread's files %s, want %s", c.id, c.agent, s.main, main)
		}
	}
}
