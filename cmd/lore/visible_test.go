package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/testrepo"
)

// hiding are the forms of terminal control text an item can carry: an ESC
// conceal, an OSC 8 link, a carriage return, backspaces, an 8-bit CSI.
const hiding = "safe \x1b[8mhidden\x1b[0m \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ over\rwrite era\b\bse \u009b31mred"

// yamlEscapes writes the control characters of hiding as a YAML double-
// quoted string's escapes.
var yamlEscapes = strings.NewReplacer("\x1b", `\e`, "\r", `\r`, "\b", `\b`, "\u009b", `\u009b`, "\\", `\\`)

// raw reports a byte a terminal would act on in printed text (the colour
// is off in these tests, so lore itself writes none).
func raw(s string) bool { return strings.ContainsAny(s, "\x1b\r\b\u009b") }

// TestPrintersShowControlsInert: show, list, review and match print an item's
// control characters as visible symbols, never raw (docs/design.md, What
// a reviewer cannot see).
func TestPrintersShowControlsInert(t *testing.T) {
	data := "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V1\nkind: lesson\ntitle: \"" + yamlEscapes.Replace(hiding) + "\"\nstatus: active\nowner: \"a\\rb\"\n---\n## Fix\n" + hiding + "\n"
	it, err := markdown.Parse("x.md", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var show bytes.Buffer
	printShow(&Globals{Stdout: &show}, app.ShowResult{Item: it, Extra: []app.Field{{Key: "owner", Value: "a\rb"}}})

	s := testrepo.NewStore(t)
	if err := os.MkdirAll(s.Path(".lore/lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Path(".lore/lessons"), "x.md"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	var list, stderr bytes.Buffer
	if err := (&ListCmd{}).Run(&Globals{Stdout: &list, Stderr: &stderr}, s); err != nil {
		t.Fatal(err)
	}

	var review bytes.Buffer
	printDraft(&Globals{Stdout: &review}, 0, 1, app.Draft{Path: "x.md", Title: hiding, Mistake: hiding, Fix: hiding, Evidence: []string{hiding}})

	// match lists the item among those never delivered, with its title.
	var matched bytes.Buffer
	if err := (&MatchCmd{Tool: "Bash", Command: "pytest -x", All: true}).Run(&Globals{Stdout: &matched, Stderr: &matched, Dir: s.Root}, s); err != nil {
		t.Fatal(err)
	}

	for name, out := range map[string]string{"show": show.String(), "list": list.String(), "review": review.String(), "match": matched.String()} {
		if raw(out) || !strings.Contains(out, "␛[8mhidden") || !strings.Contains(out, "over␍write") {
			t.Errorf("%s printed:\n%q", name, out)
		}
	}
}
