package learn

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/fuzzlimit"
	"github.com/lore-agents/lore/internal/inject/signals"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

func TestExtract(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // kind|text
	}{
		{"learnings section bullets", "## Learnings\n- one two three\n* four five six\n1. seven eight nine\n",
			[]string{"|one two three", "|four five six", "|seven eight nine"}},
		{"continuation and sub-bullets joined", "### Lessons learned\n- first line\n  goes on\n  - detail here\n- next one here\n",
			[]string{"|first line goes on detail here", "|next one here"}},
		{"section ends at a heading of the same level", "## Takeaways\n- kept as learning\n## Plan\n- not a learning\n",
			[]string{"|kept as learning"}},
		{"deeper heading stays inside", "## Learnings\n### Build\n- nested section item\n",
			[]string{"|nested section item"}},
		{"kinds from headings", "## Pitfalls\n- a pitfall here\n## Decisions\n- a decision here\n## What went well\n- a win here\n",
			[]string{"pitfall|a pitfall here", "decision|a decision here", "|a win here"}},
		{"tagged lines anywhere", "Intro.\n\nLesson: tagged lesson text\n- **Pitfall:** bold pitfall text\nTIL: til text here\nDecision: use sqlite\n",
			[]string{"|tagged lesson text", "pitfall|bold pitfall text", "|til text here", "decision|use sqlite"}},
		{"tag inside a section overrides the kind", "## Learnings\n- Pitfall: the tagged one\n",
			[]string{"pitfall|the tagged one"}},
		{"code blocks skipped", "## Learnings\n```\n- not this\nLesson: nor this\n```\n- but this one\n",
			[]string{"|but this one"}},
		{"checkboxes stripped", "## Learnings\n- [x] done thing learned\n", []string{"|done thing learned"}},
		{"paragraph ends an item", "## Learnings\n- item text\n\nA paragraph that is not an item.\n", []string{"|item text"}},
		{"nothing", "# Phase 7\n\nNothing to report.\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range Extract("n.md", []byte(tc.in)) {
				got = append(got, l.Kind+"|"+l.Text)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("Extract:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
	ls := Extract("notes/p.md", []byte("x\n\n## Learnings\n- one two three\n"))
	if len(ls) != 1 || ls[0].Source != "notes/p.md:4" {
		t.Errorf("source: %+v", ls)
	}
}

func TestValidate(t *testing.T) {
	existing, _ := markdown.ParseLearnings("l.md", markdown.AppendEntry(nil, "Old lesson about caching", "body line here"))
	in := []Learning{
		{Text: ""}, {Text: "N/A"}, {Text: "two words"}, {Text: "three words here"},
		{Text: "Three  words here."}, {Text: "old lesson about caching"}, {Text: "Body line here!"},
		{Text: "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 rotates weekly"},
	}
	kept, skipped, err := Validate(in, existing)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0].Text != "three words here" || !strings.Contains(kept[1].Text, "[REDACTED:") {
		t.Errorf("kept %+v", kept)
	}
	var reasons []string
	for _, s := range skipped {
		reasons = append(reasons, s.Reason)
	}
	want := "empty,fewer than 3 words,fewer than 3 words,duplicate,duplicate,duplicate"
	if strings.Join(reasons, ",") != want {
		t.Errorf("reasons %v, want %s", reasons, want)
	}
}

func TestTitle(t *testing.T) {
	for in, want := range map[string]string{
		"Short one.": "Short one",
		"A first sentence that is long enough. And a second one.": "A first sentence that is long enough",
		"Tiny. Then more text":      "Tiny. Then more text",
		strings.Repeat("word ", 30): strings.TrimSpace(strings.Repeat("word ", 18)) + "…",
	} {
		if got := Title(in); got != want {
			t.Errorf("Title(%q) = %q, want %q", in, got, want)
		}
	}
}

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const lpath = ".lore/learnings.md"

func TestCaptureOncePerKey(t *testing.T) {
	s := testrepo.NewStore(t)
	src := []Source{{"p.md", []byte("## Learnings\n- alpha beta gamma\n- delta epsilon zeta\n")}}
	res, err := Capture(s, lpath, "phase-1", src, false, now, nil)
	if err != nil || res.Status != Captured || len(res.Added) != 2 {
		t.Fatalf("first: %+v, %v", res, err)
	}
	first := read(t, s, lpath)
	res, err = Capture(s, lpath, "phase-1", src, false, now, nil)
	if err != nil || res.Status != Already || res.When != "2026-03-01T12:00:00Z" {
		t.Fatalf("second: %+v, %v", res, err)
	}
	if read(t, s, lpath) != first {
		t.Error("second run changed learnings.md")
	}
	src2 := []Source{{"p.md", []byte("## Learnings\n- eta theta iota\n")}}
	res, err = Capture(s, lpath, "phase-1", src2, true, now, nil)
	if err != nil || res.Status != Recaptured || res.Removed != 2 || len(res.Added) != 1 {
		t.Fatalf("force: %+v, %v", res, err)
	}
	got := read(t, s, lpath)
	if strings.Contains(got, "alpha") || strings.Count(got, marker("phase-1")) != 1 {
		t.Errorf("after --force:\n%s", got)
	}
	evs, _ := ReadEvents(s.Path(lorepath.Events))
	if len(evs) != 2 || !evs[1].Force {
		t.Errorf("events %+v", evs)
	}
	if _, err := Capture(s, lpath, "phase-2", []Source{{"e.md", []byte("nothing\n")}}, false, now, nil); err != ErrNothing {
		t.Errorf("empty notes: %v", err)
	}
}

// TestCaptureKilled replays the states a kill can leave: each write is
// atomic, so a kill leaves either the old or the new version of each file,
// written in order learnings.md then events.jsonl.
func TestCaptureKilled(t *testing.T) {
	src := []Source{{"p.md", []byte("## Learnings\n- alpha beta gamma\n- delta epsilon zeta\n")}}
	for _, force := range []bool{false, true} {
		s := testrepo.NewStore(t)
		if force {
			if _, err := Capture(s, lpath, "k", []Source{{"o.md", []byte("Lesson: an older lesson here\n")}}, false, now, nil); err != nil {
				t.Fatal(err)
			}
		}
		oldEvents := read(t, s, lorepath.Events)
		if _, err := Capture(s, lpath, "k", src, force, now, nil); err != nil {
			t.Fatal(err)
		}
		done := read(t, s, lpath)
		// Killed after learnings.md, before the event: roll the log back.
		write(t, s, lorepath.Events, oldEvents)
		res, err := Capture(s, lpath, "k", src, false, now, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := Healed
		if force {
			want = Already // the old record stands; the new entries are in place
		}
		if res.Status != want {
			t.Errorf("force=%v: re-run status %v, want %v", force, res.Status, want)
		}
		if read(t, s, lpath) != done {
			t.Errorf("force=%v: re-run changed learnings.md", force)
		}
		if force {
			// Re-running the --force itself replaces the entries again: no duplicates.
			if _, err := Capture(s, lpath, "k", src, true, now, nil); err != nil {
				t.Fatal(err)
			}
			if read(t, s, lpath) != done {
				t.Errorf("re-run of --force:\n%s\nwant\n%s", read(t, s, lpath), done)
			}
		}
		if n := strings.Count(read(t, s, lpath), "alpha beta gamma"); n != 1 {
			t.Errorf("force=%v: %d copies", force, n)
		}
		res, _ = Capture(s, lpath, "k", src, false, now, nil)
		if res.Status != Already {
			t.Errorf("force=%v: third run %v", force, res.Status)
		}
	}
}

func read(t *testing.T, s *gitstore.Store, rel string) string {
	t.Helper()
	b, err := os.ReadFile(s.Path(rel))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

func write(t *testing.T, s *gitstore.Store, rel, data string) {
	t.Helper()
	if err := os.WriteFile(s.Path(rel), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte("## Learnings\n- a b c\n  d\n```\n- x\n"))
	f.Add([]byte("Lesson: **bold** text\r\n## Decisions\n1. one\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ls []Learning
		fuzzlimit.Run(t, func() { ls = Extract("f.md", data) })
		for _, l := range ls {
			if strings.ContainsAny(l.Text, "\n") {
				t.Fatalf("multi-line learning %q", l.Text)
			}
		}
	})
}

func TestSignals(t *testing.T) {
	if Signals("k", nil, now) != nil {
		t.Error("signals for nothing captured")
	}
	kept := []Learning{{Text: "plain lesson text here"}, {Text: "a pitfall to avoid here", Kind: markdown.KindPitfall}}
	sigs := Signals("phase-2", kept, now)
	if len(sigs) != 2 || sigs[0].Type != "FEEDBACK" || sigs[0].Strength != 0.5 || sigs[0].HalfLife != 6*time.Hour ||
		sigs[1].Type != "REDIRECT" || sigs[1].Strength != 0.9 || sigs[1].HalfLife != 24*time.Hour ||
		sigs[1].Text != "phase-2: avoid: a pitfall to avoid here" || sigs[0].Source != "learn:phase-2" {
		t.Fatalf("Signals: %+v", sigs)
	}
	var many []Learning
	for i := 0; i < 40; i++ {
		many = append(many, Learning{Text: fmt.Sprintf("lesson number %d with some words", i)})
	}
	s := Signals("k", many, now)[0]
	if n := len([]rune(s.Text)); n > 500 || !strings.HasSuffix(s.Text, "…") {
		t.Errorf("long summary: %d characters: %q", n, s.Text)
	}
	for _, x := range append(sigs, s) {
		if err := signals.Validate(x); err != nil {
			t.Errorf("emitted signal invalid: %v", err)
		}
	}
}
