package gitstore

import (
	"bytes"
	"unicode/utf8"

	"github.com/lore-agents/lore/markdown"
)

// headingSet is markdown.HeadingTexts (the definition of V(C)) with a fast
// path for the plain files learnings.md almost always is: when no line can
// start a construct that changes what a column-0 "## " line means (code
// fences, HTML blocks, block quotes, setext underlines, indented or tabbed
// headings, carriage returns), every column-0 "## " line after the preamble
// is an entry heading. Anything else goes to goldmark. FuzzHeadingSet
// checks that both agree. intern shares the title strings between versions.
func headingSet(data []byte, intern map[string]string) map[string]bool {
	if bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\r') >= 0 || !utf8.Valid(data) {
		return markdown.HeadingTexts(data)
	}
	set := make(map[string]bool, bytes.Count(data, []byte("\n## ")))
	line := 0
	for at := 0; at < len(data); {
		line++
		end := bytes.IndexByte(data[at:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		l := data[at:end]
		at = end + 1
		if len(l) == 0 {
			continue
		}
		if l[0] == '#' {
			if len(l) > 3 && l[1] == '#' && (l[2] == ' ' || l[2] == '\t') && line > markdown.PreambleLines {
				// "## #" is an empty heading in CommonMark (a closing
				// sequence only): no entry, as goldmark reads it.
				if t := bytes.TrimSpace(l[2:]); len(t) > 0 && len(bytes.Trim(t, "#")) > 0 {
					s, ok := intern[string(t)]
					if !ok {
						s = string(t)
						intern[s] = s
					}
					set[s] = true
				}
			}
			continue
		}
		if !plainLine(l) {
			return markdown.HeadingTexts(data)
		}
	}
	return set
}

// plainLine reports whether a line that does not start with '#' leaves the
// meaning of column-0 "## " lines alone.
func plainLine(l []byte) bool {
	i := 0
	for i < len(l) && i < 4 && l[i] == ' ' {
		i++
	}
	if i == len(l) {
		return true
	}
	rest := l[i:]
	switch c := rest[0]; {
	case c == '\t' || c == '<' || c == '>':
		return false
	case c == '#' && i < 4:
		return false
	case bytes.HasPrefix(rest, []byte("```")) || bytes.HasPrefix(rest, []byte("~~~")):
		return false
	case (c == '-' || c == '=') && len(bytes.Trim(rest, "-= \t")) == 0:
		return false
	}
	return true
}
