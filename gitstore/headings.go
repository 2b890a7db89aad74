package gitstore

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/lore-agents/lore/markdown"
)

// headingSet is markdown.HeadingTexts (the definition of V(C)) with a fast
// path for the plain files learnings.md almost always is: when no line can
// start a construct that changes what a column-0 "## " line means (code
// fences, HTML blocks, setext underlines, indented or tabbed headings,
// carriage returns), every column-0 "## " line after the preamble is an
// entry heading. Anything else goes to goldmark. FuzzHeadingSet checks that
// both agree.
func headingSet(data []byte) map[string]bool {
	if !plainLearnings(data) {
		return markdown.HeadingTexts(data)
	}
	set := map[string]bool{}
	line := 1
	for at := 0; at < len(data); line++ {
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		if l := data[at:end]; line > markdown.PreambleLines && len(l) > 3 && l[0] == '#' && l[1] == '#' && (l[2] == ' ' || l[2] == '\t') {
			if t := strings.TrimSpace(string(l[2:])); t != "" {
				set[t] = true
			}
		}
		at = end + 1
	}
	return set
}

// plainLearnings reports whether the fast path of headingSet is exact: no
// line opens a fence, an HTML block or a block quote, underlines a setext
// heading, or indents a heading by one to three spaces or a tab.
func plainLearnings(data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\r') >= 0 || !utf8.Valid(data) {
		return false
	}
	for at := 0; at < len(data); {
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		l := data[at:end]
		at = end + 1
		i := 0
		for i < len(l) && i < 4 && l[i] == ' ' {
			i++
		}
		if i == len(l) {
			continue
		}
		rest := l[i:]
		switch c := rest[0]; {
		case c == '\t' || c == '<' || c == '>':
			return false
		case c == '#' && i > 0 && i < 4:
			return false
		case bytes.HasPrefix(rest, []byte("```")) || bytes.HasPrefix(rest, []byte("~~~")):
			return false
		case (c == '-' || c == '=') && len(bytes.Trim(rest, "-= \t")) == 0:
			return false
		}
	}
	return true
}
