package redact

import (
	"regexp"
	"slices"
	"strings"
)

// A heuristic's literals are searched for once each over the whole
// lower-cased text, and its pattern runs on the lines that hold a hit:
// reading every line for every literal of every heuristic was the largest
// share of a cold build's safety check (docs/design.md, Incremental
// build). The lines visited, and in what order, are those the per-line
// reading (lineSpans) visits, so the spans are the same.

// lineRanges are the [start, end) byte ranges of the lines of s that
// lineSpans reads: up to each newline, and the rest after the last one.
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
// as s, so a byte offset means the same in both. seen is scratch space of
// one int per line, marked with mark for the lines already picked.
func (h *heuristic) hitSpans(out []Span, re *regexp.Regexp, s, lower string, lines [][2]int, seen []int, mark int) []Span {
	if h.literal == nil { // the .env pattern: every line is read by envLine
		for _, l := range lines {
			if envLine(s[l[0]:l[1]]) {
				out = append(out, h.spans(re, s, l[0], l[1])...)
			}
		}
		return out
	}
	var picked []int
	for _, w := range h.literal {
		picked = h.linesWith(picked, w, lower, lines, seen, mark)
	}
	slices.Sort(picked)
	for _, li := range picked {
		out = append(out, h.spans(re, s, lines[li][0], lines[li][1])...)
	}
	return out
}

// linesWith appends to picked the lines not yet seen that the literal w
// allows (as allows reads one line: w within it, and for a pattern with
// assign followed by : or =), and marks them seen.
func (h *heuristic) linesWith(picked []int, w, lower string, lines [][2]int, seen []int, mark int) []int {
	li := 0
	for off := 0; off < len(lower); {
		i := strings.Index(lower[off:], w)
		if i < 0 {
			break
		}
		p := off + i
		for li < len(lines) && lines[li][1] < p+len(w) {
			li++ // lines ending before the hit does: it is not in them
		}
		if li == len(lines) {
			break
		}
		ls, le := lines[li][0], lines[li][1]
		switch {
		case p < ls: // spans a newline
			off = p + 1
		case seen[li] == mark:
			off = le + 1
		case !h.assign || assignedAt(lower[:le], p+len(w)):
			seen[li] = mark
			picked = append(picked, li)
			off = le + 1
		default:
			off = p + 1
		}
	}
	return picked
}
