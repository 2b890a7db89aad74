package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/integrate/interop"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
)

// TestStatusLine: the status bar's line names each part that needs a
// command, and leaves out the parts with nothing to do.
func TestStatusLine(t *testing.T) {
	r := &app.StatusReport{Active: 1, Learnings: &app.LearningsStatus{Lines: 4, ConsolidationDue: true}}
	if got, want := statusLine(r), "lore: 1 active · learnings 4 lines (consolidate)"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	r = &app.StatusReport{Active: 3, Drafts: []string{"a", "b"}, Skills: []string{"Bash"}}
	if got, want := statusLine(r), "lore: 3 active · 2 drafts · aggregate 1"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	// A project whose lessons live in its organisation's store.
	r = &app.StatusReport{Stores: []app.StoreFiles{{Name: "acme", Scope: "org", Files: 9900, Copy: true}, {Name: "platform", Scope: "org"}}}
	if got, want := statusLine(r), "lore: 0 active · acme 9900 files · platform not synced"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}

// TestPrintStatusStores: a project with no items of its own whose
// organisation's store holds them does not read as empty, and a source
// with no copy here says how to get one.
func TestPrintStatusStores(t *testing.T) {
	var b bytes.Buffer
	printStatus(&b, &app.StatusReport{Stores: []app.StoreFiles{
		{Name: "acme", Scope: "org", Files: 9900, Commit: "0123456789abcdef0123456789abcdef01234567", Copy: true},
		{Name: "platform", Scope: "org"},
		{Name: "user", Scope: "user", Files: 1, Copy: true},
	}})
	want := "no items in this repository yet: lore add, or lore scan\n" +
		"acme (org): 9900 item files at 0123456789ab: lore list shows them\n" +
		"platform (org): no copy here, its items reach no agent: lore sync\n" +
		"user: 1 item file: lore list shows them\n"
	if got := b.String(); got != want {
		t.Errorf("status:\n%s\nwant:\n%s", got, want)
	}
}

// TestShowColor: the title and headings are bold only when the terminal
// decision (Globals.Color) says so.
func TestShowColor(t *testing.T) {
	it, err := markdown.Parse("x.md", []byte("---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V1\nkind: lesson\ntitle: Run pytest quietly\nstatus: active\n---\n## Fix\nUse -q.\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		printShow(&Globals{Stdout: &b, Color: color}, app.ShowResult{Item: it})
		bold := strings.Contains(b.String(), "\x1b[1mRun pytest quietly\x1b[0m") && strings.Contains(b.String(), "\x1b[1m## Fix\x1b[0m")
		if bold != color || !strings.Contains(b.String(), "Use -q.") {
			t.Errorf("color %v: printed\n%s", color, b.String())
		}
	}
}

// TestPrintImport: an import's report names each created draft with its
// delivery, quotes the title of what it could not carry, and ends with the
// figures (the data comes from interop's real imports, whose tests check
// the same notes and counts).
func TestPrintImport(t *testing.T) {
	r := app.Imported{
		Plan: interop.Plan{Source: "devflow", Notes: []interop.Note{{From: ".devflow/decisions/decisions-ledger.jsonl:27",
			Title: "Migrations must leave a clean house — delete all legacy artifacts, not just move new-path files", Msg: "ADR-002 was retired in Devflow: not imported"}}},
		Result: interop.Result{Created: []interop.Created{
			{Path: ".lore/lessons/streamlit-repo-overview.md", Key: "cursor:.cursor/rules/overview.mdc", Delivery: compile.SessionStart},
			{Path: ".lore/lessons/typescript-test-guide.md", Key: "cursor:.cursor/rules/typescript_tests.mdc", Delivery: compile.BeforeCall},
		}},
	}
	var out bytes.Buffer
	printImport(&out, r, false)
	for _, line := range []string{
		"created .lore/lessons/streamlit-repo-overview.md (cursor:.cursor/rules/overview.mdc): at session start\n",
		"created .lore/lessons/typescript-test-guide.md (cursor:.cursor/rules/typescript_tests.mdc): before a matching call\n",
		"- .devflow/decisions/decisions-ledger.jsonl:27: \"Migrations must leave a clean house — delete all legacy artifacts, not just move new-path files\": ADR-002 was retired in Devflow: not imported\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("report has no %q:\n%s", line, out.String())
		}
	}
	if want := "devflow: 2 draft(s) created, 0 already in the store; review them with `lore review`\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("report does not end with %q:\n%s", want, out.String())
	}
}

// TestPrintExport: --check names each file out of date and the command
// that brings it up to date.
func TestPrintExport(t *testing.T) {
	const target = "windsurf"
	e := app.Exported{Export: interop.Export{Items: 4, Changes: []interop.Change{{Path: ".windsurf/rules/lore-gone.md"}, {Path: ".windsurf/rules/lore-a.md", Data: []byte("x")}}}}
	var out bytes.Buffer
	printExport(&out, target, e, true)
	if !strings.Contains(out.String(), "out of date: .windsurf/rules/lore-gone.md\n") ||
		!strings.HasSuffix(out.String(), target+": 4 active item(s), out of date: run `lore export "+target+"`\n") {
		t.Errorf("report:\n%s", out.String())
	}
	out.Reset()
	printExport(&out, target, e, false)
	if want := "removed .windsurf/rules/lore-gone.md\nwrote .windsurf/rules/lore-a.md\nwindsurf: 4 active item(s), 2 file(s) changed\n"; out.String() != want {
		t.Errorf("report %q, want %q", out.String(), want)
	}
}

// TestPrintAges: the ages report gives the figures, the entries oldest
// first, and says when a shallow clone cut the history short.
func TestPrintAges(t *testing.T) {
	rep := &app.Ages{Report: &ages.Report{Lines: 12, Shallow: true, Entries: []ages.Entry{
		{Title: "Young", Age: 1, Added: "2026-01-19", Commit: "0123456789abcdef"},
		{Title: "Old", Age: 9, Added: "2026-01-02"},
	}}, Freshness: 7}
	var b bytes.Buffer
	if err := printAges(&b, rep); err != nil {
		t.Fatal(err)
	}
	want := "# Learning Ages Report\n\n**File lines:** 12\n**Last consolidation:** unknown (no prior consolidation detected)\n" +
		"**Total entries:** 2\n**Entries ≥7 active days:** 1\n**Note:** shallow clone: ages count only the history that is present\n" +
		"\n## Old\n- Age: 9 active days\n- Added: 2026-01-02\n- Uncommitted\n\n## Young\n- Age: 1 active days\n- Added: 2026-01-19\n"
	if b.String() != want {
		t.Errorf("report\n%s\nwant\n%s", b.String(), want)
	}
}

// Ready observations lore render leaves alone (a scan drafted them, or
// they were rejected) are not announced as work to do.
func TestPrintObservationStatus(t *testing.T) {
	var b bytes.Buffer
	printObservationStatus(&b, &app.ObservationStatus{ByStatus: map[string]int{"observing": 4, "ready": 4}, Ready: []string{"pytest hangs"}})
	want := "\nobservations: 4 observing, 4 ready\n3 of the ready are already drafted or rejected: nothing to render\n" +
		"1 observation(s) ready to render: lore render\n  pytest hangs\n"
	if got := b.String(); got != want {
		t.Errorf("status:\n%q\nwant:\n%q", got, want)
	}
}
