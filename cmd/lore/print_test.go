package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
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
		printShow(&b, app.ShowResult{Item: it}, color)
		bold := strings.Contains(b.String(), "\x1b[1mRun pytest quietly\x1b[0m") && strings.Contains(b.String(), "\x1b[1m## Fix\x1b[0m")
		if bold != color || !strings.Contains(b.String(), "Use -q.") {
			t.Errorf("color %v: printed\n%s", color, b.String())
		}
	}
}
