package compile

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Caps of the recent learnings SessionStart shows
// (docs/design.md, Phase learnings and signals): the newest 20 learnings and 30
// decisions; over the token threshold, 10 and 15, then fewer until it fits.
// What is left out is counted in the block, never dropped silently.
const (
	MaxLearnings       = 20
	MaxDecisions       = 30
	LearningTokens     = 600 // words * 1.3
	overLearnings      = 10
	overDecisions      = 15
	maxLearningLineLen = 200
)

// RecentLearnings renders the newest learnings.md entries for SessionStart:
// learnings and decisions (entries whose kind is decision), newest first,
// within the caps, and a line saying what was left out. Empty when the file
// has no entries, cannot be parsed or holds a merge conflict's markers
// (lint reports each).
func RecentLearnings(path string, data []byte) string {
	l, err := markdown.ParseLearnings(path, data)
	if err != nil || len(l.Entries) == 0 || len(markdown.ConflictMarkers(data)) > 0 {
		return ""
	}
	learn, dec := learningLines(l.Entries)
	nl, nd := fitLearnings(learn, dec)
	var b strings.Builder
	writeLines(&b, "## Recent learnings (newest first, from "+path+")", learn[:nl])
	writeLines(&b, "## Recent decisions (newest first, from "+path+")", dec[:nd])
	if ol, od := len(learn)-nl, len(dec)-nd; ol+od > 0 {
		fmt.Fprintf(&b, "(%d older learning(s) and %d older decision(s) left out: caps of %d learnings, %d decisions, %d tokens; all are in %s)\n",
			ol, od, MaxLearnings, MaxDecisions, LearningTokens, path)
	}
	return b.String()
}

// learningLines are the entries as one line each, newest first: the
// learnings (with their kind) and the decisions.
func learningLines(entries []markdown.Entry) (learn, dec []string) {
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		line := Sanitize(strings.Join(strings.Fields(lint.Unmarked(e.Title)), " "))
		if e.Kind != "" && e.Kind != markdown.KindDecision {
			line += " (" + e.Kind + ")"
		}
		if len(line) > maxLearningLineLen {
			line = capLine(line, maxLearningLineLen)
		}
		if e.Kind == markdown.KindDecision {
			dec = append(dec, line)
		} else {
			learn = append(learn, line)
		}
	}
	return learn, dec
}

// fitLearnings is how many of the newest learnings and decisions fit the
// caps: the counts, then the tokens (dropping from the longer list).
func fitLearnings(learn, dec []string) (nl, nd int) {
	nl, nd = min(len(learn), MaxLearnings), min(len(dec), MaxDecisions)
	if tokens(learn[:nl], dec[:nd]) > LearningTokens {
		nl, nd = min(nl, overLearnings), min(nd, overDecisions)
	}
	for tokens(learn[:nl], dec[:nd]) > LearningTokens && nl+nd > 0 {
		if nl >= nd {
			nl--
		} else {
			nd--
		}
	}
	return nl, nd
}

// writeLines writes a heading and its lines as a list, if there are any.
func writeLines(b *strings.Builder, heading string, lines []string) {
	if len(lines) == 0 {
		return
	}
	b.WriteString(heading + "\n\n")
	for _, s := range lines {
		b.WriteString("- " + s + "\n")
	}
	b.WriteString("\n")
}

// tokens estimates the tokens of lines: words * 1.3.
func tokens(lists ...[]string) int {
	words := 0
	for _, l := range lists {
		for _, s := range l {
			words += len(strings.Fields(s)) + 1 // the bullet
		}
	}
	return words * 13 / 10
}

func capLine(s string, n int) string {
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "…"
}
