package redact

import (
	"regexp"
	"slices"
	"strings"
)

// A heuristic runs on the lines that hold one of its literals, found
// where keywordHits' one pass over the lower-cased text says they begin:
// searching every line for every literal of every heuristic was the
// largest share of a cold build's safety check (docs/design.md,
// Incremental build). The lines visited, and in what order, are those the
// per-line reading (lineSpans) visits, so the spans are the same.

// lineRanges are the [start, end) byte ranges of the lines of s the
// heuristics read: up to each newline, and the rest after the last one.
func lineRanges(s string) [][2]int {
	out := make([][2]int, 0, strings.Count(s, "\n")+1)
	for ls := 0; ls < len(s); {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		out = append(out, [2]int{ls, le})
		ls = le + 1
	}
	return out
}

// hitSpans is lineSpans for a text whose lower-case form lower is as long
// as s, so a byte offset means the same in both; at are where the
// heuristic's literals of two bytes or more begin in lower (keywordHits).
func (h *heuristic) hitSpans(out []Span, re *regexp.Regexp, s, lower string, at []int, lines [][2]int) []Span {
	if h.literal == nil { // the .env pattern: every line is read by envLine
		for _, l := range lines {
			if envLine(s[l[0]:l[1]]) {
				out = append(out, h.spans(re, s, l[0], l[1])...)
			}
		}
		return out
	}
	for _, w := range h.literal {
		if len(w) == 1 { // = or ", which keywordHits leaves out
			at = append(at, bytePositions(lower, w[0])...)
			slices.Sort(at)
		}
	}
	check := lineChecks[h.kind]
	for _, li := range h.linesAt(at, lower, lines) {
		if l := lines[li]; check == nil || check(s[l[0]:l[1]]) {
			out = append(out, h.spans(re, s, l[0], l[1])...)
		}
	}
	return out
}

// lineChecks are, for a heuristic whose literal occurs on many lines its
// pattern cannot match, a test of the line each of its matches passes,
// read off the pattern (as envLine is for the .env one): twilio's ac
// occurs in much prose (each, back, package).
var lineChecks = map[string]func(line string) bool{
	// `\bAC[0-9a-f]{32}\b`: AC and 32 small hex digits.
	"twilio-account-sid": func(line string) bool {
		for off := 0; ; {
			i := strings.Index(line[off:], "AC")
			if i < 0 {
				return false
			}
			if off += i + 2; len(line)-off >= 32 && strings.Trim(line[off:off+32], "0123456789abcdef") == "" {
				return true
			}
		}
	},
}

// linesAt returns, in order, the lines that the heuristic's literals
// beginning at the offsets at (ascending) allow, as allows reads one line:
// a literal within it, and for a pattern with assign followed by : or =.
func (h *heuristic) linesAt(at []int, lower string, lines [][2]int) []int {
	var picked []int
	li := 0
	for _, p := range at {
		for li < len(lines) && lines[li][1] <= p {
			li++ // lines ending before the literal begins
		}
		if li == len(lines) {
			break
		}
		if n := len(picked); (n == 0 || picked[n-1] != li) && lines[li][0] <= p && h.allowsAt(lower[:lines[li][1]], p) {
			picked = append(picked, li)
		}
	}
	return picked
}

// allowsAt says one of the heuristic's literals occurs at p in l (a line
// and what comes before it), and is assigned there for a pattern with
// assign.
func (h *heuristic) allowsAt(l string, p int) bool {
	for _, w := range h.literal {
		if strings.HasPrefix(l[p:], w) && (!h.assign || assignedAt(l, p+len(w))) {
			return true
		}
	}
	return false
}

// bytePositions are the offsets of the byte c in s.
func bytePositions(s string, c byte) []int {
	var out []int
	for off := 0; ; {
		i := strings.IndexByte(s[off:], c)
		if i < 0 {
			return out
		}
		out = append(out, off+i)
		off += i + 1
	}
}
