package markdown

import "bytes"

// quickSections finds the H2 sections of data[from:] as goldmark does,
// in bodies made only of what an item's body usually holds: paragraphs,
// lists, quotes, ATX headings at the start of a line and code fences
// there. It reports false for anything that could hide a heading from a
// line scan or make one (HTML blocks, setext underlines, indented
// headings and fences, tabs in the indent, CRs), which goldmark then
// reads.
//
// A "## " at the start of a line outside a fence is always a top-level
// H2: no container holds an unindented line but a paragraph's lazy
// continuation, and a heading is never one. goldmark took a sixth of a
// cold build's CPU (docs/design.md, Incremental build) to find them;
// TestBlockParserFindsTheSameSections and FuzzSections hold this to it.
func quickSections(data []byte, from int) ([]Section, bool) {
	var secs []Section
	var fence []byte // the open fence's run of ` or ~, nil outside one
	line := lineAt(data, from)
	for start := from; start < len(data); line++ {
		l := data[start:]
		next := len(data)
		if i := bytes.IndexByte(l, '\n'); i >= 0 {
			l, next = l[:i], start+i+1
		}
		indent := len(l) - len(bytes.TrimLeft(l, " "))
		switch {
		case bytes.IndexByte(l, '\r') >= 0 || bytes.IndexByte(l[:min(len(l), 4)], '\t') >= 0:
			return nil, false
		case fence != nil:
			if indent < 4 && closesFence(l[indent:], fence) {
				fence = nil
			}
		case indent >= 4:
			// code, or a list item's text: never a top-level heading
		case bytes.HasPrefix(l[indent:], []byte("```")) || bytes.HasPrefix(l[indent:], []byte("~~~")):
			if fence = opensFence(l); fence == nil {
				return nil, false
			}
		case bytes.HasPrefix(l[indent:], []byte("#")):
			h, ok := isH2(l, indent)
			if !ok {
				return nil, false
			}
			if h {
				secs = append(secs, Section{Title: headingText(l), Line: line, Start: start})
			}
		case len(l) > indent && (l[indent] == '<' || isUnderline(l[indent:])):
			return nil, false // an HTML block, or a setext heading's underline
		}
		start = next
	}
	fillSections(data, secs)
	return secs, true
}

// opensFence returns the run of backticks or tildes an unindented fence
// line opens with, or nil when the line is not one goldmark surely reads
// as a fence: indented, or a backtick in a backtick fence's info string.
func opensFence(l []byte) []byte {
	if l[0] == ' ' {
		return nil
	}
	n := len(l) - len(bytes.TrimLeft(l, string(l[:1])))
	if l[0] == '`' && bytes.IndexByte(l[n:], '`') >= 0 {
		return nil
	}
	return l[:n]
}

// closesFence says the line, less its indent, closes the fence: a run of
// the same character at least as long, then only spaces.
func closesFence(l, fence []byte) bool {
	n := len(l) - len(bytes.TrimLeft(l, string(fence[:1])))
	return n >= len(fence) && len(bytes.Trim(l[n:], " \t")) == 0
}

// isH2 says whether a line starting with # is an H2 heading, and reports
// false when goldmark might read it otherwise: indented, a tab or a
// control character after the marks, or no title.
func isH2(l []byte, indent int) (h2, ok bool) {
	rest := bytes.TrimLeft(l[indent:], "#")
	if len(rest) > 0 && rest[0] > ' ' {
		return false, true // "#lesson": text, not a heading
	}
	if indent > 0 || len(rest) > 0 && rest[0] != ' ' || bytes.IndexByte(rest, '\t') >= 0 || len(bytes.Trim(rest, " #")) == 0 {
		return false, false
	}
	return len(l)-len(rest) == 2, true
}

// isUnderline says a line could underline a setext heading: only = or
// only -, then blanks.
func isUnderline(l []byte) bool {
	t := bytes.TrimRight(l, " \t")
	return len(t) > 0 && (t[0] == '=' || t[0] == '-') && len(bytes.TrimLeft(t, string(t[:1]))) == 0
}
