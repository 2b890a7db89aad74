package markdown

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// A draft written before every item went through Spec (flow-style
// triggers and sessions) reads exactly as the block style Spec writes now:
// drafts already in users' repositories stay valid.
func TestSpecComposeReadsAsOldFlowStyle(t *testing.T) {
	old := "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: pytest hangs\nstatus: draft\npriority: 5\nconfidence: 0.85\n" +
		"triggers:\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\ntags:\n  - tool:pytest\n" +
		"source:\n  type: scan\n  sessions: [s1, s2]\n  occurrences: 2\n  signal: lesson-tag\n  hash: cd799831e749459e\n" +
		"created: \"2026-03-01T09:00:00Z\"\nupdated: \"2026-03-01T09:00:00Z\"\n---\n\n## Fix\nrun it with -p no:faulthandler\n"
	spec := Spec{Kind: KindLesson, Title: "pytest hangs", Status: "draft", Priority: "5", Confidence: 0.85,
		Triggers: Triggers{Tools: []string{"Bash"}, Commands: []string{`\bpytest\b`}}, Tags: []string{"tool:pytest"},
		Source: &Source{Type: "scan", Sessions: []string{"s1", "s2"}, Occurrences: 2, Signal: "lesson-tag", Hash: "cd799831e749459e"},
		Body:   "## Fix\nrun it with -p no:faulthandler\n"}
	data, err := spec.Compose("01JQXYZ8K2M4N6P8Q0R2S4T6V8", "", time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"triggers:\n  tools:\n    - Bash\n", "  sessions:\n    - s1\n    - s2\n  occurrences: 2\n  signal: lesson-tag\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("composed item lacks the block-style %q:\n%s", want, data)
		}
	}
	a, err := Parse("a.md", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("a.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Problems)+len(b.Problems) > 0 {
		t.Fatalf("problems: old %v, new %v", a.Problems, b.Problems)
	}
	if !reflect.DeepEqual(a.Triggers, b.Triggers) || !reflect.DeepEqual(a.Source, b.Source) || !reflect.DeepEqual(a.Tags, b.Tags) ||
		a.Priority != b.Priority || a.Confidence != b.Confidence || string(a.Body()) != string(b.Body()) {
		t.Errorf("old style reads as\n%+v %+v\nnew style as\n%+v %+v", a.Triggers, *a.Source, b.Triggers, *b.Source)
	}
}
