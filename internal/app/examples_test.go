package app

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/capture/review"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// TestReviewKeyRefusesDisagreeingExamples: review's promote key refuses
// a draft whose examples its triggers disagree with (ErrRefused: the
// review goes on) and leaves the file as it was.
func TestReviewKeyRefusesDisagreeingExamples(t *testing.T) {
	s := newStore(t)
	doc := "---\nid: 01J0000000000000000000000E\nkind: lesson\ntitle: make needs -j\nstatus: draft\npriority: high\n" +
		"triggers:\n  tools: [Bash]\n  commands: ['\\bmake\\b']\nexamples:\n  quiet: ['Bash: cmake ..', 'Bash: make -j8']\n---\n\n## Fix\nRun make -j.\n"
	rel := ".lore/lessons/make.md"
	if err := os.WriteFile(s.Path(rel), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReview(s)
	if err != nil || len(r.Drafts) != 1 {
		t.Fatalf("%v %+v", err, r)
	}
	if !strings.Contains(r.Drafts[0].OnPromote, "`Bash: make -j8` should leave this item quiet") {
		t.Errorf("on promote: %q", r.Drafts[0].OnPromote)
	}
	if _, err := r.Promote(0); !errors.Is(err, review.ErrRefused) || !strings.Contains(err.Error(), rel+": its examples disagree") {
		t.Errorf("promote: %v", err)
	}
	if got, _ := os.ReadFile(s.Path(rel)); string(got) != doc {
		t.Errorf("a refused promotion changed the file:\n%s", got)
	}
}

// TestAddRefusesDisagreeingExamples: lore add checks the examples before
// the item is written, and a malformed one is the caller's mistake.
func TestAddRefusesDisagreeingExamples(t *testing.T) {
	s := newStore(t)
	o := AddOptions{Spec: markdown.Spec{Kind: markdown.KindLesson, Title: "make needs -j", Priority: "high",
		Triggers: markdown.Triggers{Tools: []string{"Bash"}, Commands: []string{`\bmake\b`}}},
		Sections: map[string]string{"Fix": "Run make -j."}, ExampleFire: []string{"Bash: cmake .."}}
	_, err := Add(s, o)
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "`Bash: cmake ..` should fire this item and does not") {
		t.Errorf("add: %v", err)
	}
	if files, _ := s.ItemFiles(); len(files) != 0 {
		t.Errorf("written: %v", files)
	}
	o.ExampleFire = []string{"make -j"}
	if _, err := Add(s, o); !errors.As(err, &in) || !strings.Contains(err.Error(), "--example-fire") {
		t.Errorf("a malformed example: %v", err)
	}
	o.ExampleFire = []string{"Bash: make -j8"}
	a, err := Add(s, o)
	if err != nil || len(a.Item.Examples.Fire) != 1 {
		t.Errorf("add: %v %+v", err, a.Item)
	}
}

// What no build would compile is refused before anything is written,
// named as lore list names the file: a deny without a specific target
// (a safety finding), and in the user's store a lookbehind.
func TestAddRefusesWhatNoBuildCompiles(t *testing.T) {
	hermetic(t)
	s := newStore(t)
	deny := AddOptions{Spec: markdown.Spec{Kind: markdown.KindLesson, Title: "guard all", Priority: "critical", Enforce: "deny",
		Triggers: markdown.Triggers{Tools: []string{"Bash"}, Commands: []string{`.*`}}}, Sections: map[string]string{"Fix": "x"}}
	bad := AddOptions{Spec: markdown.Spec{Kind: markdown.KindLesson, Title: "bad re", Scope: "user",
		Triggers: markdown.Triggers{Tools: []string{"Bash"}, Commands: []string{`(?<=a)b`}}}, Sections: map[string]string{"Fix": "x"}}
	for _, tc := range []struct {
		o    AddOptions
		want string
	}{{deny, ".lore/lessons/guard-all.md:"}, {bad, "user:lessons/bad-re.md:"}} {
		_, err := Add(s, tc.o)
		var in *InputError
		if !errors.As(err, &in) || !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), ": triggers.commands: ") {
			t.Errorf("add %q: %v", tc.o.Spec.Title, err)
		}
	}
	if l, err := List(s, ListOptions{}); err != nil || len(l.Items) != 0 {
		t.Errorf("written: %+v, %v", l.Items, err)
	}
}
