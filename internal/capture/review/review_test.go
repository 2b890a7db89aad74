package review

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

func cand(title, mistake string, pri int) scan.Candidate {
	return scan.Candidate{Tier: 1, Signal: scan.SignalLessonTag, Session: "s1", File: "/t/s1.jsonl", Line: 7,
		Title: title, Tool: "Bash", Trigger: "PYTEST_ADDOPTS=-x pytest -v", Mistake: mistake, Fix: "use TERM=dumb",
		Tags: []string{"tool:pytest"}, Confidence: 0.85, Priority: pri, Hash: scan.ContentHash("Bash", "pytest -v", mistake, "use TERM=dumb"),
		Sessions: []string{"s1"}, Occurrences: 1, Evidence: []scan.Evidence{{Line: 7, Text: "assistant: #lesson ..."}},
		Extra: []scan.Field{{Key: "why", Value: "rich output waits for a TTY"}}}
}

var now = time.Date(2026, 3, 28, 14, 0, 0, 0, time.UTC)

// TestWriteDraftsAndDedup: drafts are valid items with provenance; a
// second run with the same candidates writes nothing; maxCandidates
// keeps the highest priorities.
func TestWriteDraftsAndDedup(t *testing.T) {
	s := testrepo.NewStore(t)
	cands := []scan.Candidate{cand("pytest hangs", "hangs without a TTY", 3), cand("make races", "parallel make races", 8), cand("third", "x", 1)}
	known, err := Known(s)
	if err != nil {
		t.Fatal(err)
	}
	sel, fresh := Select(cands, known, 2)
	if len(sel) != 2 || fresh != 3 || sel[0].Title != "make races" || sel[1].Title != "pytest hangs" {
		t.Fatalf("select: %+v", sel)
	}
	w, err := Write(s, sel, now)
	if err != nil || len(w) != 2 {
		t.Fatalf("write: %v %v", w, err)
	}
	it, err := s.LoadFile(w[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	if errs := markdown.Validate(it); len(errs) > 0 {
		t.Fatalf("draft does not validate: %v\n%s", errs, it.Raw())
	}
	if it.Status != "draft" || it.Source == nil || it.Source.Type != "scan" || it.Source.Occurrences != 1 ||
		strings.Join(it.Source.Sessions, ",") != "s1" || SourceHash(it) != sel[1].Hash {
		t.Fatalf("provenance: %+v %+v", it, it.Source)
	}
	if it.Section("Mistake") != "hangs without a TTY" || it.Section("Why") != "rich output waits for a TTY" ||
		!strings.Contains(it.Section("Evidence"), "s1.jsonl:7") {
		t.Fatalf("body:\n%s", it.Body())
	}
	if strings.Join(it.Triggers.Commands, ",") != `\bpytest\b` || strings.Join(it.Triggers.Tools, ",") != "Bash" {
		t.Fatalf("triggers %+v", it.Triggers)
	}
	known, _ = Known(s)
	if again, _ := Select(cands, known, 50); len(again) != 1 || again[0].Title != "third" {
		t.Fatalf("dedup against the store: %+v", again)
	}
	// Same title, different content: a second file, never an overwrite.
	other := cand("pytest hangs", "another mistake", 5)
	w2, err := Write(s, []scan.Candidate{other}, now)
	if err != nil || w2[0].Path != ".lore/lessons/pytest-hangs-2.md" {
		t.Fatalf("second file: %+v %v", w2, err)
	}
}

// TestPromoteArchiveReject: promote changes only the status and updated
// lines; reject removes the draft and remembers its hash.
func TestPromoteArchiveReject(t *testing.T) {
	s := testrepo.NewStore(t)
	w, err := Write(s, []scan.Candidate{cand("a", "ma", 5), cand("b", "mb", 5)}, now)
	if err != nil {
		t.Fatal(err)
	}
	drafts, err := Drafts(s)
	if err != nil || len(drafts) != 2 {
		t.Fatalf("drafts: %v %v", drafts, err)
	}
	before := string(drafts[0].Raw())
	active, err := SetStatus(s, drafts[0].Path, "active", Refinement{}, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	afterBytes, _ := os.ReadFile(s.Path(drafts[0].Path))
	after := string(afterBytes)
	changed := 0
	bl, al := strings.Split(before, "\n"), strings.Split(after, "\n")
	if len(bl) != len(al) {
		t.Fatalf("line count changed:\n%s", after)
	}
	for i := range bl {
		if bl[i] != al[i] {
			changed++
			if !strings.HasPrefix(al[i], "status: active") && !strings.HasPrefix(al[i], "updated: ") {
				t.Errorf("unexpected change: %q -> %q", bl[i], al[i])
			}
		}
	}
	if changed != 2 {
		t.Fatalf("%d lines changed, want 2", changed)
	}
	if err := Reject(s, active); err == nil {
		t.Fatal("rejecting an active item must fail")
	}
	// Listed as a draft, promoted since: the file decides, and it stays.
	if err := Reject(s, drafts[0]); err == nil || !exists(s, drafts[0].Path) {
		t.Fatalf("rejecting a draft promoted since it was listed: %v", err)
	}
	it, _ := s.LoadFile(w[1].Path)
	if err := Reject(s, it); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Path(w[1].Path)); !os.IsNotExist(err) {
		t.Fatal("rejected draft still there")
	}
	rej, _ := Rejected(s)
	known, _ := Known(s)
	if !rej[w[1].Hash] || func() bool { s, _ := Select([]scan.Candidate{cand("b", "mb", 5)}, known, 50); return len(s) != 0 }() {
		t.Fatal("rejected candidate would be proposed again")
	}
}

// TestPitfallDraft: a block with kind: pitfall becomes a numbered pitfall
// draft with Issue and Avoid sections.
func TestPitfallDraft(t *testing.T) {
	s := testrepo.NewStore(t)
	c := cand("Shared cache corrupts builds", "two builds share one cache", 7)
	c.Kind = markdown.KindPitfall
	w, err := Write(s, []scan.Candidate{c, func() scan.Candidate { c2 := c; c2.Title = "second"; return c2 }()}, now)
	if err != nil {
		t.Fatal(err)
	}
	if w[0].Path != ".lore/pitfalls/PF-0001-shared-cache-corrupts-builds.md" || w[1].Path != ".lore/pitfalls/PF-0002-second.md" {
		t.Fatalf("paths %s, %s", w[0].Path, w[1].Path)
	}
	it, err := s.LoadFile(w[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if errs := markdown.Validate(it); len(errs) > 0 || it.Ref != "PF-0001" || it.Section("Issue") == "" || it.Section("Avoid") == "" {
		t.Fatalf("pitfall: %v\n%s", errs, it.Raw())
	}
}

func TestCommandRegexNarrowsToTheSubcommand(t *testing.T) {
	for trigger, want := range map[string]string{
		"git push 2>&1":            `\bgit\s+push\b`,
		"FOO=1 npm run build":      `\bnpm\s+run\b`,
		"pytest -x tests/":         `\bpytest\b`,
		"python manage.py migrate": `\bpython\b`,
		"/usr/bin/make test":       `\bmake\s+test\b`,
		"'quoted thing'":           ``,
	} {
		if got := commandRegex(scan.Candidate{Tool: "Bash", Trigger: trigger}); got != want {
			t.Errorf("commandRegex(%q) = %q, want %q", trigger, got, want)
		}
	}
}

// A draft's command regex that also matches its own fix gets the fix as
// an unless, so a hold never holds the fix; a fix the failing call holds
// too is no unless (it would veto the mistake).
func TestDraftTriggersSpareTheFix(t *testing.T) {
	for _, tc := range []struct {
		trigger, fix string
		unless       []string
	}{
		{"make serve", "Run `make serve-bg` instead: it returns at once.", []string{`make serve-bg`}},
		{"docker compose up", "Detach:\n```\ndocker compose up -d\n```\n", []string{`docker compose up -d`}},
		{"pytest -x tests/", "Run `pytest` with `--timeout=60`, e.g. `pytest --timeout=60 tests/`.", []string{`pytest --timeout=60 tests/`}},
		{"pytest -x tests/", "Prefix it: `pytest -x`.", nil},
		{"npm ci", "Use `npm install` instead.", nil},
	} {
		tr := draftTriggers(scan.Candidate{Tool: "Bash", Trigger: tc.trigger, Fix: tc.fix, Signal: scan.SignalHang})
		if !slices.Equal(tr.Unless, tc.unless) {
			t.Errorf("%q, fix %q: unless %q, want %q", tc.trigger, tc.fix, tr.Unless, tc.unless)
		}
		for _, u := range tr.Unless { // the fix is spared, the mistake is not
			re := regexp.MustCompile(u)
			if re.MatchString(tc.trigger) {
				t.Errorf("%q: unless %q vetoes the mistake", tc.trigger, u)
			}
		}
	}
}

// Rejections an older lore kept in the cache move to .lore/rejected on
// first use, so deleting the cache afterwards loses none.
func TestRejectedMovesFromCache(t *testing.T) {
	s := testrepo.NewStore(t)
	if err := os.MkdirAll(s.CacheDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.CacheDir(), "scan-rejected"), []byte("00aa11bb22cc33dd old title\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	known, err := Known(s)
	if err != nil || !known["00aa11bb22cc33dd"] {
		t.Fatalf("known %v %v", known, err)
	}
	if err := os.RemoveAll(s.CacheDir()); err != nil {
		t.Fatal(err)
	}
	rej, err := Rejected(s)
	if err != nil || !rej["00aa11bb22cc33dd"] {
		t.Fatalf("after deleting the cache: %v %v", rej, err)
	}
	data, _ := os.ReadFile(s.Path(".gitattributes"))
	if !strings.Contains(string(data), "/.lore/rejected merge=union") {
		t.Fatalf(".gitattributes: %q", data)
	}
}

// An item with neither Mistake nor Fix does not make every candidate
// without them known.
func TestKnownIgnoresEmptySections(t *testing.T) {
	r := testrepo.New(t)
	r.Write(".lore/lessons/notes.md", "---\nid: 01J0000000000000000000000A\nkind: lesson\ntitle: Notes\nstatus: active\n---\n## Notes\nsomething\n")
	s := r.Store()
	if items, errs := s.Load(); len(items) != 1 || len(errs) > 0 {
		t.Fatalf("load: %d items, %v", len(items), errs)
	}
	known, err := Known(s)
	if err != nil {
		t.Fatal(err)
	}
	if known[scan.ContentHash("", "", "", "")] {
		t.Fatal("the empty hash is known")
	}
}

func exists(s *gitstore.Store, rel string) bool {
	_, err := os.Lstat(s.Path(rel))
	return err == nil
}
