// Package learn records the learnings of one build phase or run into
// learnings.md exactly once per key (docs/design.md, Phase learnings and
// signals): it extracts the lessons a phase summary states, validates and
// redacts them, appends one entry per learning, and marks the key in the event
// log.
package learn

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Learning is one lesson stated in a phase's notes.
type Learning struct {
	Text   string // one line, whitespace collapsed
	Kind   string // "", markdown.KindPitfall or markdown.KindDecision: where consolidation routes it
	Source string // file:line it came from
}

var (
	heading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`) })
	item    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^( ?)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$`)
	})
	// A line stating one lesson anywhere: "Lesson: ...", "- **Pitfall:** ...".
	tagged = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?(learning|lesson(?: learned)?|takeaway|pitfall|gotcha|decision|til)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+)$`)
	})
	fence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^ {0,3}(```|~~~)") })
)

// sectionKind says whether a heading opens a section of learnings and
// which kind its items are.
func sectionKind(title string) (kind string, ok bool) {
	t := strings.ToLower(title)
	switch {
	case strings.Contains(t, "decision"):
		return markdown.KindDecision, true
	case containsAny(t, "pitfall", "gotcha", "mistake", "went wrong", "what didn't", "what did not", "didn't work", "did not work", "avoid"):
		return markdown.KindPitfall, true
	case containsAny(t, "learning", "lesson", "takeaway", "what worked", "went well", "insight", "til"):
		return "", true
	}
	return "", false
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func tagKind(tag string) string {
	switch strings.ToLower(tag) {
	case "pitfall", "gotcha":
		return markdown.KindPitfall
	case "decision":
		return markdown.KindDecision
	}
	return ""
}

// Extract returns the learnings a Markdown note states: each list item
// under a heading about learnings, lessons, takeaways, what worked or went
// wrong, pitfalls or decisions (continuation lines joined), and each line
// tagged "Lesson:", "Learning:", "Pitfall:", "Decision:", "TIL:" anywhere
// else. Code blocks are skipped. Validation happens in Validate.
func Extract(path string, data []byte) []Learning {
	x := &extractor{}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i, line := range lines {
		x.line(fmt.Sprintf("%s:%d", path, i+1), line)
	}
	x.flush()
	return x.out
}

// extractor reads a note line by line.
type extractor struct {
	out       []Learning
	cur       *Learning // the list item being read
	inSection int       // level of the open learnings heading, 0 when none
	kind      string    // the open section's kind
	inFence   string    // the open code fence's marker
}

func (x *extractor) flush() {
	if x.cur != nil {
		x.cur.Text = oneLine(x.cur.Text)
		x.out = append(x.out, *x.cur)
		x.cur = nil
	}
}

// line reads one line (src is its file:line).
func (x *extractor) line(src, line string) {
	if m := fence().FindStringSubmatch(line); m != nil {
		x.flush()
		switch {
		case x.inFence == "":
			x.inFence = m[1]
		case x.inFence == m[1]:
			x.inFence = ""
		}
		return
	}
	if x.inFence != "" {
		return
	}
	if m := heading().FindStringSubmatch(line); m != nil {
		x.heading(len(m[1]), m[2])
		return
	}
	if x.inSection > 0 && x.sectionLine(src, line) {
		return
	}
	if t := tagged().FindStringSubmatch(line); t != nil {
		x.out = append(x.out, Learning{Text: oneLine(t[2]), Kind: tagKind(t[1]), Source: src})
	}
}

// heading closes the open learnings section at its level or above, and
// opens one when the heading is about learnings.
func (x *extractor) heading(level int, title string) {
	x.flush()
	if x.inSection > 0 && level <= x.inSection {
		x.inSection = 0
	}
	if x.inSection == 0 {
		if k, ok := sectionKind(title); ok {
			x.inSection, x.kind = level, k
		}
	}
}

// sectionLine reads a line of a learnings section: a list item starts a
// learning, an indented line continues it, a blank line ends it. It
// reports whether the line is done with (false: read it as a tagged line
// too).
func (x *extractor) sectionLine(src, line string) bool {
	if m := item().FindStringSubmatch(line); m != nil {
		x.flush()
		x.cur = &Learning{Text: m[2], Kind: x.kind, Source: src}
		if t := tagged().FindStringSubmatch(line); t != nil {
			x.cur.Text, x.cur.Kind = t[2], tagKind(t[1])
			if x.cur.Kind == "" {
				x.cur.Kind = x.kind
			}
		}
		return true
	}
	if strings.TrimSpace(line) == "" {
		x.flush()
		return true
	}
	if x.cur != nil && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
		x.cur.Text += " " + strings.TrimSpace(stripItem(line))
		return true
	}
	x.flush()
	return false
}

// stripItem removes a nested list marker: a sub-bullet continues its parent.
func stripItem(line string) string {
	t := strings.TrimLeft(line, " \t")
	for _, p := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(t, p) {
			return t[len(p):]
		}
	}
	return t
}

func oneLine(s string) string {
	s = strings.TrimSpace(strings.Join(strings.Fields(s), " "))
	for _, w := range []string{"**", "__"} {
		if strings.HasSuffix(s, w) && strings.Count(s, w)%2 == 1 {
			s = strings.TrimSpace(strings.TrimSuffix(s, w))
		}
	}
	return s
}
