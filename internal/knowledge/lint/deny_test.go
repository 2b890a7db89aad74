package lint

import (
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

func denyItem(t *testing.T, triggers string) *markdown.Item {
	t.Helper()
	it, err := markdown.Parse("x.md", []byte("---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: pitfall\nref: PF-0001\ntitle: t\nstatus: active\npriority: critical\nenforce: deny\n"+triggers+"---\n## Avoid\nDon't.\n"))
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestDenyNeedsASpecificTarget(t *testing.T) {
	for _, tc := range []struct {
		triggers string
		want     string // in the message; "" for none
	}{
		{"triggers:\n  tools: [Bash]\n  commands: ['.']\n", `"." does not require any text`},
		{"triggers:\n  commands: ['.*']\n", "does not require any text"},
		{"triggers:\n  commands: ['^\\w']\n", "does not require any text"},
		{"triggers:\n  commands: ['\\S+']\n", "does not require any text"},
		{"triggers:\n  commands: ['(?i)x']\n", "does not require any text"},
		{"triggers:\n  commands: ['^(git|rm)?\\s*\\w+']\n", "does not require any text"},
		{"triggers:\n  commands: ['^(ls|cd|git|go|make|npm|python|pytest|cargo|docker|cat)']\n", "ordinary commands"},
		{"triggers:\n  commands: ['^git push', '.']\n", `"." does not`},
		{"triggers:\n  paths: ['**']\n", "matches almost any path"},
		{"triggers:\n  paths: ['**/*.*']\n", "matches almost any path"},
		{"triggers:\n  tools: [Bash]\n", "set triggers.commands, triggers.paths or triggers.content"},
		{"triggers:\n  tools: [Edit, Write]\n  content: ['\\w+\\(']\n", "names no code"},
		{"triggers:\n  tools: [Edit, Write]\n  content: ['\\bdatetime\\.utcnow\\(']\n", ""},
		{"triggers:\n  commands: ['^git push.*--force']\n", ""},
		{"triggers:\n  commands: ['\\brm\\s+-rf\\s+/']\n", ""},
		{"triggers:\n  commands: ['(?i)^terraform (apply|destroy)']\n", ""},
		{"triggers:\n  commands: ['\\bpytest\\b']\n", ""},
		{"triggers:\n  paths: ['**/.env', 'secrets/**']\n", ""},
	} {
		fs := checkDeny(denyItem(t, tc.triggers))
		if tc.want == "" {
			if len(fs) != 0 {
				t.Errorf("%q: %v", tc.triggers, fs)
			}
			continue
		}
		if len(fs) != 1 || !strings.Contains(fs[0].Msg, tc.want) || fs[0].Line == 0 || fs[0].Key == "" || fs[0].Severity != Error {
			t.Errorf("%q: got %v, want one error about %q", tc.triggers, fs, tc.want)
		}
	}
}

// TestDenyCorpusIsOrdinary guards the rule's corpus: a typical specific
// deny matches none of it.
func TestDenyCorpusIsOrdinary(t *testing.T) {
	for _, pat := range []string{`^git push\b.*--force`, `\brm\s+-rf\b`, `^DROP TABLE`, `\bnpm publish\b`} {
		if msg := broadCommand(pat); msg != "" {
			t.Errorf("%s: %s", pat, msg)
		}
	}
	if n := len(ordinaryCommands); n < 40 {
		t.Fatalf("only %d ordinary commands", n)
	}
}

// TestOnceNeedsASpecificTarget: a once item holds a call too (the first
// of each context), so a target that matches almost anything is an error
// as for deny, at any priority; its missing target is markdown.Validate's.
func TestOnceNeedsASpecificTarget(t *testing.T) {
	parse := func(triggers string) *markdown.Item {
		it, err := markdown.Parse("x.md", []byte("---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: t\nstatus: active\npriority: medium\nenforce: once\n"+triggers+"---\n## Fix\nDo.\n"))
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	fs := checkDeny(parse("triggers:\n  commands: ['.*']\n"))
	if len(fs) != 1 || !strings.HasPrefix(fs[0].Msg, "once needs a specific target") || fs[0].Key != "triggers.commands" || fs[0].Line != 9 {
		t.Errorf("once with '.*': %+v", fs)
	}
	if fs := checkDeny(parse("triggers:\n  commands: ['\\bpytest\\b']\n")); len(fs) != 0 {
		t.Errorf("once with a specific target: %+v", fs)
	}
	if fs := checkDeny(parse("triggers:\n  tools: [Bash]\n")); len(fs) != 0 {
		t.Errorf("once without a target is reported twice: %+v", fs)
	}
}
