package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsDraft(t *testing.T) {
	dir := t.TempDir()
	for doc, want := range map[string]bool{
		"---\nid: x\nstatus: draft\n---\nbody\n":                          true,
		"\ufeff---\r\nstatus: 'proposed' # from a scan\r\n---\r\n":        true,
		"---\nstatus: \"draft\"\ntitle: t\n---\n":                         true,
		"---\nstatus: active\n---\n":                                      false,
		"---\nstatus: draft\nstatus: active\n---\n":                       false, // two keys: not a draft for sure
		"---\ntitle: t\n  status: draft\n---\n":                           false, // nested
		"---\nstatus: draft\n":                                            false, // no end of frontmatter
		"status: draft\n":                                                 false,
		"---\nstatus: draft\n" + strings.Repeat("x: y\n", 1000) + "---\n": false, // past what is read
	} {
		p := filepath.Join(dir, "x.md")
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := isDraft(p); got != want {
			t.Errorf("%q: %v, want %v", doc, got, want)
		}
	}
}

const draftDoc = "---\nid: 01JDRAFT00000000000000000A\nkind: lesson\ntitle: d\nstatus: %s\ntriggers:\n  commands: ['\\bpytest\\b']\n---\n\n## Fix\nx\n"

// A draft landing in a kind folder mid-session (drafts off) leaves the
// manifest exact for a tool call: the call answers from it at once and
// starts the rebuild; an added active item still makes the call wait.
func TestAddedDraftDoesNotHoldTheCall(t *testing.T) {
	for _, status := range []string{"draft", "active"} {
		t.Run(status, func(t *testing.T) {
			root := repo(t, testItems)
			runs := fakeLore(t)
			t.Setenv("LORE_HOOK_DEADLINE", Deadline.String())
			if err := os.WriteFile(filepath.Join(root, ".lore/lessons/new.md"), []byte(strings.Replace(draftDoc, "%s", status, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), "pytest"))
			if !strings.Contains(out, "Bare pytest") {
				t.Errorf("the lesson was not injected: %s", out)
			}
			log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
			if got := strings.Contains(string(log), "only drafts were added"); got != (status == "draft") {
				t.Errorf("answered without waiting: %v\n%s", got, log)
			}
			if got := waitFile(runs, func(data []byte) bool { return len(data) > 0 }); string(got) != "build --quiet fd=3\n" {
				t.Errorf("lore runs: %q", got)
			}
		})
	}
}
