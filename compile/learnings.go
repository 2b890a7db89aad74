package compile

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/markdown"
)

// Caps of the recent learnings SessionStart shows (seed 001's
// memory-compress): the newest 20 learnings and 30 decisions; over the
// token threshold, 10 and 15, then fewer until it fits. What is left out
// is counted in the block, never dropped silently.
const (
	MaxLearnings       = 20
	MaxDecisions       = 30
	LearningTokens     = 600 // words * 1.3, as the seed estimates
	overLearnings      = 10
	overDecisions      = 15
	maxLearningLineLen = 200
)

// RecentLearnings renders the newest learnings.md entries for SessionStart:
// learnings and decisions (entries whose kind is decision), newest first,
// within the caps, and a line saying what was left out. Empty when the file
// has no entries or cannot be parsed (lint reports that).
func RecentLearnings(path string, data []byte) string {
	l, err := markdown.ParseLearnings(path, data)
	if err != nil || len(l.Entries) == 0 {
		return ""
	}
	var learn, dec []string // newest first
	for i := len(l.Entries) - 1; i >= 0; i-- {
		e := l.Entries[i]
		line := Sanitize(strings.Join(strings.Fields(e.Title), " "))
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
	nl, nd := min(len(learn), MaxLearnings), min(len(dec), MaxDecisions)
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
	var b strings.Builder
	if nl > 0 {
		fmt.Fprintf(&b, "## Recent learnings (newest first, from %s)\n\n", path)
		for _, s := range learn[:nl] {
			b.WriteString("- " + s + "\n")
		}
		b.WriteString("\n")
	}
	if nd > 0 {
		fmt.Fprintf(&b, "## Recent decisions (newest first, from %s)\n\n", path)
		for _, s := range dec[:nd] {
			b.WriteString("- " + s + "\n")
		}
		b.WriteString("\n")
	}
	if ol, od := len(learn)-nl, len(dec)-nd; ol+od > 0 {
		fmt.Fprintf(&b, "(%d older learning(s) and %d older decision(s) left out: caps of %d learnings, %d decisions, %d tokens; all are in %s)\n",
			ol, od, MaxLearnings, MaxDecisions, LearningTokens, path)
	}
	return b.String()
}

// tokens estimates the tokens of lines as the seed does: words * 1.3.
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
