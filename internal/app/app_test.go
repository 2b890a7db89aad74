package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

// newStore is an initialized store in a throwaway git repository.
func newStore(t testing.TB) *gitstore.Store {
	t.Helper()
	s := testrepo.New(t).Store()
	if _, err := Init(s, InitOptions{}); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInitCreatesTheLayoutOnce(t *testing.T) {
	s := newStore(t)
	if data, err := s.ReadFile(".lore/learnings.md"); err != nil || markdown.CountLines(data) != markdown.PreambleLines {
		t.Fatalf("learnings.md: %d lines, %v; want the %d-line preamble", markdown.CountLines(data), err, markdown.PreambleLines)
	}
	r, err := Init(s, InitOptions{})
	if err != nil || len(r.Created) != 0 || !r.Unchanged {
		t.Fatalf("second Init = %+v, %v; want nothing created", r, err)
	}
}

func TestInitOptionsNeedingAnAgentAreInputErrors(t *testing.T) {
	s := newStore(t)
	for _, o := range []InitOptions{{Guards: "closed"}, {Uninstall: true}, {Agents: []string{"claude,nosuch"}}} {
		var usage *InputError
		if _, err := Init(s, o); !errors.As(err, &usage) {
			t.Errorf("Init(%+v) = %v, want an InputError", o, err)
		}
	}
}

func TestAddComposesDefaultsAndSections(t *testing.T) {
	s := newStore(t)
	r, err := Add(s, AddOptions{Spec: markdown.Spec{Kind: markdown.KindDecision, Title: "Use SQLite", Priority: "high", Confidence: 1},
		Sections: map[string]string{"Context": "One process.", "Consequences": "No server."}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Item.Status != "accepted" || r.Item.Ref != "ADR-0001" || r.Path != ".lore/decisions/ADR-0001-use-sqlite.md" {
		t.Fatalf("Add = %s status %q ref %q", r.Path, r.Item.Status, r.Item.Ref)
	}
	data, _ := s.ReadFile(r.Path)
	if c, d := strings.Index(string(data), "## Context"), strings.Index(string(data), "## Consequences"); c < 0 || d < c ||
		strings.Contains(string(data), "## Decision") {
		t.Fatalf("sections: want Context then Consequences, no empty Decision:\n%s", data)
	}
}

// The editor may choose another number: it is kept when free.
func TestAddKeepsTheRefChosenInTheEditor(t *testing.T) {
	s := newStore(t)
	edit := func(draft []byte) ([]byte, error) {
		return []byte(strings.Replace(string(draft), "ref: PF-0001", "ref: PF-0007", 1)), nil
	}
	r, err := Add(s, AddOptions{Spec: markdown.Spec{Kind: markdown.KindPitfall, Title: "Edited", Priority: "medium", Confidence: 1}, Edit: edit})
	if err != nil {
		t.Fatal(err)
	}
	if r.Item.Ref != "PF-0007" || filepath.Base(r.Path) != "PF-0007-edited.md" {
		t.Fatalf("Add with an edited ref = %s (%s), want PF-0007", r.Path, r.Item.Ref)
	}
	failing := func([]byte) ([]byte, error) { return nil, errors.New("editor failed") }
	if _, err := Add(s, AddOptions{Spec: markdown.Spec{Kind: markdown.KindPitfall, Title: "X", Priority: "medium"}, Edit: failing}); err == nil {
		t.Fatal("Add went on after the editor failed")
	}
}

func TestAddLearningAppendsOnceAndRoutes(t *testing.T) {
	s := newStore(t)
	o := AddOptions{Spec: markdown.Spec{Kind: KindLearning, Title: "  Retry the flaky step  "}, BodyFrom: strings.NewReader("It passes the second time.\n"), As: "pitfall"}
	r, err := Add(s, o)
	if err != nil || r.Title != "Retry the flaky step" || r.Path != ".lore/learnings.md" {
		t.Fatalf("Add learning = %+v, %v", r, err)
	}
	data, _ := s.ReadFile(r.Path)
	if !strings.HasSuffix(string(data), "## Retry the flaky step\nkind: pitfall\nIt passes the second time.\n") {
		t.Fatalf("learnings.md ends:\n%s", data)
	}
	o.BodyFrom = strings.NewReader("again")
	if _, err := Add(s, o); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("a second entry with the title: %v", err)
	}
	var usage *InputError
	if _, err := Add(s, AddOptions{Spec: markdown.Spec{Kind: KindLearning, Title: "two\nlines"}}); !errors.As(err, &usage) {
		t.Fatalf("a two-line title: %v, want an InputError", err)
	}
}

// A rename never overwrites a file that appeared meanwhile; the fixes
// already written are reported.
func TestApplyFixesStopsBeforeOverwriting(t *testing.T) {
	s := newStore(t)
	if err := s.WriteFile(".lore/lessons/taken.md", []byte("someone else's\n")); err != nil {
		t.Fatal(err)
	}
	plan := []lint.Change{
		{Path: ".lore/lessons/a.md", Data: []byte("a\n"), What: []string{"rewrote a"}},
		{Path: ".lore/lessons/taken.md", From: ".lore/lessons/a.md", Data: []byte("b\n"), What: []string{"renamed a"}},
	}
	fixed, err := applyFixes(s, plan)
	if !errors.Is(err, fs.ErrExist) || len(fixed) != 1 || fixed[0].Path != ".lore/lessons/a.md" {
		t.Fatalf("applyFixes = %+v, %v; want the first fix and fs.ErrExist", fixed, err)
	}
	if data, _ := s.ReadFile(".lore/lessons/taken.md"); string(data) != "someone else's\n" {
		t.Fatalf("taken.md was overwritten: %q", data)
	}
}

func TestLintFixRenumbersADuplicateRef(t *testing.T) {
	s := newStore(t)
	for _, title := range []string{"First", "Second"} {
		if _, err := Add(s, AddOptions{Spec: markdown.Spec{Kind: markdown.KindPitfall, Title: title, Priority: "medium"},
			Sections: map[string]string{"Issue": title + " issue."}}); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := s.ReadFile(".lore/pitfalls/PF-0002-second.md")
	dup := strings.Replace(string(data), "ref: PF-0002", "ref: PF-0001", 1)
	if err := s.WriteFile(".lore/pitfalls/PF-0001-second.md", []byte(dup)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(s.Path(".lore/pitfalls/PF-0002-second.md")); err != nil {
		t.Fatal(err)
	}
	if r, err := Lint(s, LintOptions{}); err != nil || !r.Failed(false) {
		t.Fatalf("Lint over a duplicate ref = %+v, %v; want an error finding", r, err)
	}
	r, err := Lint(s, LintOptions{Fix: true})
	if err != nil || r.Failed(true) || len(r.Fixed) != 1 || r.Fixed[0].From != ".lore/pitfalls/PF-0001-second.md" {
		t.Fatalf("Lint --fix = %+v, %v; want one rename and a clean store", r, err)
	}
}

func TestBuiltNotesAndProblems(t *testing.T) {
	merr := &markdown.Error{Path: "x.md", Line: 3, Key: "title", Msg: "missing"}
	b := Built{Skipped: []error{errors.New("y.md: unreadable")}, Report: compile.Report{Inactive: 2,
		Excluded: []compile.Excluded{{Path: "x.md", Errors: []*markdown.Error{merr}}, {Path: "z.md", Unsafe: true, Errors: []*markdown.Error{merr}}}}}
	if got, want := strings.Join(b.Notes(), ", "), "1 excluded for errors, 1 left out for safety (see lore lint), 2 not injectable by status"; got != want {
		t.Errorf("Notes = %q, want %q", got, want)
	}
	got := b.Problems()
	if len(got) != 3 || got[0] != "skipped y.md: unreadable" || !strings.HasPrefix(got[1], "excluded ") ||
		!strings.HasPrefix(got[2], "left out for safety, never injected: ") {
		t.Errorf("Problems = %q", got)
	}
}

func TestForToolKeepsWhatIsNotAboutTheTool(t *testing.T) {
	rs := []match.Result{{ID: "a", Reasons: []string{"x", "not injected: tool Read is not in triggers.tools"}}, {ID: "b", Reasons: []string{"not injected: below threshold"}}}
	if got := forTool(rs); len(got) != 1 || got[0].ID != "b" {
		t.Fatalf("forTool = %+v", got)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"/usr/local/bin/lore": "/usr/local/bin/lore", "/My Tools/lore": "'/My Tools/lore'", "/a'b": `'/a'\''b'`} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}
