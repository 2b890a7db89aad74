package compile

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/textcut"
)

// MaxItemBytes caps one item's injection text (and inject.budgetBytes caps
// it further when smaller).
const MaxItemBytes = 2048

// maxFixBytes caps a deny reason and a SessionStart fix.
const maxFixBytes = 600

// Render returns an item's injection text, by its form (docs/design.md,
// Injection text): an explicit Injection section wins; a checklist is
// its list as "- [ ]" items under its title; a pattern When/Do/Why; a
// warning Risk/Mitigation; a requirement Constraint/Verify; otherwise the
// kind's own sections (lesson Mistake/Fix and its Checklist, pitfall
// Issue/Avoid, decision Decision). The last line names the file it came
// from. The text is at most limit bytes: what is too long loses its
// situation (Mistake, Issue, When, Risk) first, never the fix or the
// checklist, which are what the agent must do (docs/design.md, Prevention
// before the call); only then is the end cut.
func Render(it *markdown.Item, file string, limit int) string {
	it = unmarked(it)
	src := "Source: " + Sanitize(file) + "\n"
	room := limit - len(src)
	text, sit := render(it, -1)
	text = Sanitize(text)
	if over := len(text) - room; over > 0 && sit > 0 {
		text, _ = render(it, max(sit-over-len(shortened), 0))
		text = Sanitize(text)
	}
	return capText(text, room, file) + src
}

// shortened ends a situation cut to make room for the fix.
const shortened = " …(shortened)"

// render renders the item's text by its form, its situation (the section
// shortened first) cut to keep bytes (keep < 0: whole); sit is the
// situation's length before the cut (0: the form shows none).
func render(it *markdown.Item, keep int) (text string, sit int) {
	var b strings.Builder
	b.Grow(len(it.Body()) + len(it.Title) + 64) // the text is the body's, less its headings: grown once
	line := func(label, text string) {
		if text = strings.TrimSpace(text); text != "" {
			for _, s := range []string{label, ": ", text, "\n"} {
				b.WriteString(s)
			}
		}
	}
	situation := func(label, text string) {
		text = Sanitize(strings.TrimSpace(text))
		if sit = len(text); keep >= 0 && sit > keep {
			text = textcut.Cut(text, keep+len(shortened), shortened)
		}
		line(label, text)
	}
	heading := func(label string) {
		for _, s := range []string{"### ", label, ": ", it.Title} {
			b.WriteString(s)
		}
		if it.Ref != "" {
			b.WriteString(" (" + it.Ref + ")")
		}
		b.WriteString("\n")
	}
	when := first(it, "When", "Mistake", "Issue", "Context")
	action := first(it, "Do", "Fix", "Avoid", "Decision")
	rationale := first(it, "Why", "Impact", "Consequences")
	switch inj := it.Section("Injection"); {
	case inj != "":
		heading(kindLabel(it.Kind))
		b.WriteString(inj + "\n")
	case it.Form == "checklist" && len(checklist(it)) > 0:
		heading("Checklist")
		writeChecklist(&b, checklist(it))
	case it.Form == "pattern":
		heading("Pattern")
		situation("When", when)
		line("Do", action)
		line("Why", rationale)
	case it.Form == "warning":
		heading("Warning")
		situation("Risk", first(it, "Risk", "Mistake", "Issue", "Context"))
		line("Mitigation", first(it, "Mitigation", "Fix", "Avoid", "Decision"))
	case it.Form == "requirement":
		heading("Requirement")
		line("Constraint", first(it, "Constraint", "Fix", "Avoid", "Decision"))
		line("Verify", first(it, "Verify", "Validation"))
	default:
		heading(kindLabel(it.Kind))
		switch it.Kind {
		case markdown.KindPitfall:
			situation("Issue", it.Section("Issue"))
			line("Avoid", it.Section("Avoid"))
		case markdown.KindDecision:
			line("Decision", it.Section("Decision"))
		default:
			situation("Mistake", it.Section("Mistake"))
			line("Fix", it.Section("Fix"))
			if list := it.Section("Checklist"); list != "" {
				b.WriteString("Checklist:\n")
				writeChecklistText(&b, list)
			}
		}
	}
	return b.String(), sit
}

// writeChecklistText writes a Checklist section, its list entries as
// "- [ ]" items.
func writeChecklistText(b *strings.Builder, list string) {
	for _, l := range strings.Split(list, "\n") {
		if e, ok := listEntry(l); ok {
			b.WriteString("- [ ] " + e + "\n")
		} else if l = strings.TrimSpace(l); l != "" {
			b.WriteString(l + "\n")
		}
	}
}

func writeChecklist(b *strings.Builder, entries []string) {
	for _, c := range entries {
		b.WriteString("- [ ] " + c + "\n")
	}
}

// FixText is what an item tells the agent to do instead: the deny reason
// and the SessionStart line of a critical item.
func FixText(it *markdown.Item) string {
	it = unmarked(it)
	s := first(it, "Fix", "Avoid", "Decision", "Do", "Mitigation", "Constraint", "Injection")
	if s == "" {
		s = it.Title
	}
	return capText(Sanitize(s), maxFixBytes, "")
}

func kindLabel(kind string) string {
	switch kind {
	case markdown.KindPitfall:
		return "Pitfall"
	case markdown.KindDecision:
		return "Decision"
	}
	return "Lesson"
}

func first(it *markdown.Item, sections ...string) string {
	for _, s := range sections {
		if c := it.Section(s); c != "" {
			return c
		}
	}
	return ""
}

// checklist returns the list entries of the Checklist section, or of the
// first action section that holds a list.
func checklist(it *markdown.Item) []string {
	for _, s := range []string{"Checklist", "Fix", "Avoid", "Decision", "Do"} {
		var out []string
		for _, l := range strings.Split(it.Section(s), "\n") {
			if e, ok := listEntry(l); ok {
				out = append(out, e)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

func listEntry(l string) (string, bool) {
	l = strings.TrimSpace(l)
	for _, p := range []string{"- [ ] ", "- [x] ", "- [X] ", "* [ ] ", "- ", "* ", "+ "} {
		if strings.HasPrefix(l, p) {
			return strings.TrimSpace(l[len(p):]), true
		}
	}
	if i := strings.IndexAny(l, ".)"); i > 0 && i < 4 && strings.Trim(l[:i], "0123456789") == "" && strings.HasPrefix(l[i+1:], " ") {
		return strings.TrimSpace(l[i+1:]), true
	}
	return "", false
}

// unmarked is a view of it whose title and sections carry none of the
// HTML comments and client tags lint.Unmarked takes out: what a rendered
// pull request hides never reaches an agent (docs/design.md, What a
// reviewer cannot see). Sections are cleaned whole, before any cut.
func unmarked(it *markdown.Item) *markdown.Item {
	if !bytes.ContainsRune(it.Raw(), '<') { // no comment, no tag: most items
		return it
	}
	v := *it
	v.Title = lint.Unmarked(it.Title)
	v.Sections = make([]markdown.Section, len(it.Sections))
	for i, sec := range it.Sections {
		sec.Content = strings.TrimSpace(lint.Unmarked(sec.Content))
		v.Sections[i] = sec
	}
	return &v
}

// Sanitize removes invisible and bidirectional-control characters (format
// characters, variation selectors, controls other than newline and tab):
// injected text comes from the repository, possibly an unreviewed branch,
// and must read the same to the agent as to a reviewer.
func Sanitize(s string) string {
	if printableASCII(s) { // most text: nothing to remove, a tenth of a build at 10,000 items
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == utf8.RuneError, unicode.Is(unicode.Cc, r), unicode.Is(unicode.Cf, r),
			unicode.Is(unicode.Variation_Selector, r), unicode.Is(unicode.Co, r):
			return -1
		}
		return r
	}, s)
}

// printableASCII says s has only printable ASCII, newlines and tabs.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c == 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

// capText keeps s within max bytes, cutting at a line (or rune) boundary and
// saying where the rest is.
func capText(s string, max int, file string) string {
	note := "\n…(truncated)\n"
	if file != "" {
		note = "\n…(truncated; see " + file + ")\n"
	}
	return textcut.Cut(s, max, note)
}
