package consolidate

import (
	"fmt"
	"path"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// docSection is one H2 section of a topic document, by byte range.
type docSection struct {
	title      string
	start, end int
}

// h2Sections finds the H2 headings of a document outside code fences.
func h2Sections(data []byte) []docSection {
	var secs []docSection
	fence := ""
	for at := 0; at < len(data); {
		end := at
		for end < len(data) && data[end] != '\n' {
			end++
		}
		line := strings.TrimRight(string(data[at:end]), "\r")
		var h2 bool
		if fence, h2 = fenceOrH2(fence, line); h2 {
			if n := len(secs); n > 0 {
				secs[n-1].end = at
			}
			trimmed := strings.TrimLeft(line, " ")
			secs = append(secs, docSection{title: strings.TrimSpace(strings.TrimPrefix(trimmed, "##")), start: at, end: len(data)})
		}
		at = end + 1
	}
	return secs
}

// fenceOrH2 follows the code fences (fence is the open one's marker, or
// "") and reports whether line is an H2 heading outside them.
func fenceOrH2(fence, line string) (string, bool) {
	trimmed := strings.TrimLeft(line, " ")
	switch {
	case fence != "":
		if strings.HasPrefix(trimmed, fence) {
			return "", false
		}
		return fence, false
	case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
		return trimmed[:3], false
	}
	return "", len(line)-len(trimmed) < 4 && (trimmed == "##" || strings.HasPrefix(trimmed, "## "))
}

// titleOf is a document's display name: its base name without .md.
func titleOf(rel string) string { return strings.TrimSuffix(path.Base(rel), ".md") }

// part is one file of a split document.
type part struct {
	rel  string
	data []byte
}

// splitDoc splits a document by H2 into balanced parts of about half the
// limit each (so every part has room to grow): the first part keeps the
// document's path and preamble, the others are <stem>-N.md next to it, and
// every part links to the others. nil when it has fewer than two sections.
func splitDoc(rel string, data []byte, limit int, exists func(string) bool) []part {
	secs := h2Sections(data)
	if len(secs) < 2 {
		return nil
	}
	lines := make([]int, len(secs))
	for i, s := range secs {
		lines[i] = markdown.CountLines(data[s.start:s.end])
	}
	groups := partition(lines, limit)
	names := partNames(rel, len(groups), exists)
	links := func(self int) string {
		var l []string
		for i, n := range names {
			if i != self {
				l = append(l, fmt.Sprintf("[%s](%s)", path.Base(n), path.Base(n)))
			}
		}
		return strings.Join(l, ", ")
	}
	body := func(g []int) string {
		var b strings.Builder
		for _, i := range g {
			b.WriteString(strings.TrimRight(string(data[secs[i].start:secs[i].end]), "\n") + "\n\n")
		}
		return strings.TrimRight(b.String(), "\n") + "\n"
	}
	preamble := strings.TrimRight(string(data[:secs[0].start]), "\n")
	if preamble == "" {
		preamble = "# " + titleOf(rel)
	}
	out := []part{{rel: rel, data: []byte(fmt.Sprintf("%s\n\n> Split at the %d-line limit by lore consolidate; continued in %s.\n\n%s",
		preamble, limit, links(0), body(groups[0])))}}
	for i := 1; i < len(groups); i++ {
		out = append(out, part{rel: names[i], data: []byte(fmt.Sprintf("# %s (part %d of %d)\n\n> Part of [%s](%s); see also %s.\n\n%s",
			titleOf(rel), i+1, len(groups), path.Base(rel), path.Base(rel), links(i), body(groups[i])))})
	}
	return out
}

// partition groups the sections (by their line counts) into contiguous
// parts of about half the limit each, greedily towards total/k lines per
// part.
func partition(lines []int, limit int) [][]int {
	total := 0
	for _, n := range lines {
		total += n
	}
	k := max(2, (total+limit/2-1)/(limit/2))
	k = min(k, len(lines))
	var groups [][]int
	cur, curLines, want := []int{}, 0, (total+k-1)/k
	for i := range lines {
		left := len(lines) - i
		partsLeft := k - len(groups)
		if len(cur) > 0 && (curLines+lines[i] > want || left < partsLeft) && partsLeft > 1 {
			groups = append(groups, cur)
			cur, curLines = nil, 0
		}
		cur = append(cur, i)
		curLines += lines[i]
	}
	return append(groups, cur)
}

// partNames is the document's path and the free <stem>-N.md names of the
// other n-1 parts.
func partNames(rel string, n int, exists func(string) bool) []string {
	names := []string{rel}
	picked := map[string]bool{rel: true}
	for len(names) < n {
		name := markdown.FreeName(path.Dir(rel), path.Base(rel), func(p string) bool { return picked[p] || exists(p) })
		picked[name] = true
		names = append(names, name)
	}
	return names
}
