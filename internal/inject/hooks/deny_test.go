package hooks

import (
	"strings"
	"testing"
)

// TestDenyIgnoresQuotedMentions: through the hook, a commit message or a
// heredoc that mentions a force push is not blocked (the lesson is still
// injected); the push itself is.
func TestDenyIgnoresQuotedMentions(t *testing.T) {
	root := repo(t, testItems)
	for cmd, deny := range map[string]bool{
		`git commit -m "docs: never git push origin main --force"`:            false,
		"git commit -F- <<'EOF'\nwhy git push origin main --force hurts\nEOF": false,
		`git add -A && git push origin main --force # "quoted" later`:         true,
	} {
		out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), cmd))
		if got := strings.Contains(out, `"permissionDecision":"deny"`); got != deny {
			t.Errorf("%q: deny=%v, want %v\n%s", cmd, got, deny, out)
		}
		if !strings.Contains(out, "Force push rewrites shared history") {
			t.Errorf("%q: the lesson is not injected\n%s", cmd, out)
		}
	}
}
