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
		var l []byte
		l, at = nextLine(data, at)
		if len(l) == 0 {
			continue
		}
		if l[0] == '#' {
			if t := entryTitle(l, line); t != nil {
				set[internTitle(intern, t)] = true
			}
			continue
		}
		if !plainLine(l) {
			return markdown.HeadingTexts(data)
		}
	}
	return set
}

// nextLine is the line of data at at (without its newline) and where the
// next one starts.
func nextLine(data []byte, at int) ([]byte, int) {
	end := bytes.IndexByte(data[at:], '\n')
	if end < 0 {
		return data[at:], len(data) + 1
	}
	return data[at : at+end], at + end + 1
}

// entryTitle is the title of a column-0 "## " line after the preamble
// (nil for none). "## #" is an empty heading in CommonMark (a closing
// sequence only): no entry, as goldmark reads it.
func entryTitle(l []byte, line int) []byte {
	if len(l) <= 3 || l[1] != '#' || l[2] != ' ' && l[2] != '\t' || line <= markdown.PreambleLines {
		return nil
	}
	if t := bytes.TrimSpace(l[2:]); len(t) > 0 && len(bytes.Trim(t, "#")) > 0 {
		return t
	}
	return nil
}

// internTitle is t as a string shared between versions.
func internTitle(intern map[string]string, t []byte) string {
	s, ok := intern[string(t)]
	if !ok {
		s = string(t)
		intern[s] = s
	}
	return s
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
	return !opensBlock(l[i:], i < 4)
}

// opensBlock reports whether rest, a line's text after its indent (short:
// under four spaces), can start a construct that changes what a column-0
// "## " line means: a tab, an HTML block or block quote, a heading, a code
// fence, a setext underline.
func opensBlock(rest []byte, short bool) bool {
	switch c := rest[0]; {
	case c == '\t' || c == '<' || c == '>':
		return true
	case c == '#' && short:
		return true
	case bytes.HasPrefix(rest, []byte("```")) || bytes.HasPrefix(rest, []byte("~~~")):
		return true
	case c == '-' || c == '=':
		return len(bytes.Trim(rest, "-= \t")) == 0
	}
	return false
}
