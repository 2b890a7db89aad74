package markdown

import (
	"bytes"
	"strings"
)

// The fast path for the plain files learnings.md almost always is: when no
// line can start a construct that changes what a column-0 "## " line means
// (code fences, HTML blocks, block quotes, setext underlines, indented or
// tabbed headings, carriage returns), every column-0 "## " line after the
// preamble is an entry heading, as goldmark would find it, without paying
// for goldmark. gitstore's FuzzHeadingSet and FuzzParseLearnings check that
// both agree.

// NextLine is the line of data at at (without its newline) and where the
// next one starts.
func NextLine(data []byte, at int) ([]byte, int) {
	end := bytes.IndexByte(data[at:], '\n')
	if end < 0 {
		return data[at:], len(data) + 1
	}
	return data[at : at+end], at + end + 1
}

// EntryTitle is the title of a column-0 "## " line after the preamble
// (nil for none). "## #" is an empty heading in CommonMark (a closing
// sequence only): no entry, as goldmark reads it.
func EntryTitle(l []byte, line int) []byte {
	if len(l) <= 3 || l[1] != '#' || l[2] != ' ' && l[2] != '\t' || line <= PreambleLines {
		return nil
	}
	if t := bytes.TrimSpace(l[2:]); len(t) > 0 && len(bytes.Trim(t, "#")) > 0 {
		return t
	}
	return nil
}

// AmbiguousHeading reports whether l is a "## " line whose text Unicode
// spaces pad: CommonMark trims only spaces and tabs, Go's TrimSpace more,
// so goldmark decides whether it is a heading.
func AmbiguousHeading(l []byte) bool {
	if len(l) < 3 || l[1] != '#' || l[2] != ' ' && l[2] != '\t' {
		return false
	}
	return len(bytes.TrimSpace(l[2:])) != len(bytes.Trim(l[2:], " \t"))
}

// PlainLine reports whether a line that does not start with '#' leaves the
// meaning of column-0 "## " lines alone.
func PlainLine(l []byte) bool {
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

// plainEntries is ParseLearnings' entries of a plain file; ok is false when
// the file is not plain (goldmark decides then).
func plainEntries(data []byte) (entries []Entry, ok bool) {
	if bytes.IndexByte(data, '\r') >= 0 {
		return nil, false
	}
	line := 0
	for at := 0; at < len(data); {
		line++
		start := at
		var l []byte
		l, at = NextLine(data, at)
		switch {
		case len(l) == 0:
		case l[0] == '#':
			if AmbiguousHeading(l) {
				return nil, false
			}
			if EntryTitle(l, line) != nil {
				entries = append(entries, Entry{Title: headingText(l), Line: line, Start: start})
			}
		case !PlainLine(l):
			return nil, false
		}
	}
	for i := range entries {
		e := &entries[i]
		e.End = len(data)
		if i+1 < len(entries) {
			e.End = entries[i+1].Start
		}
		bodyStart := min(e.Start+lineLen(data[e.Start:]), e.End)
		e.Body = strings.TrimSpace(string(data[bodyStart:e.End]))
		e.Kind = entryKind(e.Body)
	}
	return entries, true
}
