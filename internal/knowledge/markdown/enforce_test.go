package markdown

import (
	"strings"
	"testing"
)

// TestEnforceValues: once is valid at any priority for an item with a
// command, path or content target, and an error naming the file, line and
// key without one; deny stays critical-only; none is no enforcement; any
// other value names the valid ones.
func TestEnforceValues(t *testing.T) {
	for _, tc := range []struct {
		priority, enforce, triggers string
		want                        string // in the error; "" for valid
	}{
		{"low", "once", "  commands: ['\\bpytest\\b']\n", ""},
		{"medium", "once", "  paths: ['**/conftest.py']\n", ""},
		{"high", "once", "  tools: [Edit]\n  content: ['datetime\\.utcnow\\(']\n", ""},
		{"critical", "once", "  commands: ['^git push']\n", ""},
		{"medium", "none", "  tools: [Bash]\n", ""},
		{"critical", "deny", "  commands: ['^git push']\n", ""},
		{"medium", "once", "  tools: [Bash]\n  keywords: [release]\n", "once holds the first call that matches a target"},
		{"high", "deny", "  commands: ['^git push']\n", "deny is for critical items only (priority is high)"},
		{"high", "always", "  commands: ['^git push']\n", `"always": want once, deny or none`},
	} {
		src := "---\nid: 01JENFRCE00000000000000000\nkind: lesson\ntitle: t\nstatus: active\npriority: " + tc.priority +
			"\nenforce: " + tc.enforce + "\ntriggers:\n" + tc.triggers + "---\n\n## Fix\nDo it right.\n"
		it, err := Parse(".lore/lessons/t.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		errs := Validate(it)
		if tc.want == "" {
			if len(errs) != 0 {
				t.Errorf("%s %s: %v", tc.priority, tc.enforce, errs)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Path != ".lore/lessons/t.md" || errs[0].Line != 7 || errs[0].Key != "enforce" || !strings.Contains(errs[0].Msg, tc.want) {
			t.Errorf("%s %s %q: %v, want one error at .lore/lessons/t.md:7 on enforce about %q", tc.priority, tc.enforce, tc.triggers, errs, tc.want)
		}
	}
}
