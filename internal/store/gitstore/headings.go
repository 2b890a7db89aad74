package gitstore

import (
	"bytes"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// headingSet is markdown.HeadingTexts (the definition of V(C)) with
// markdown's fast path for plain files (markdown.PlainLine): in them every
// column-0 "## " line after the preamble is an entry heading. Anything else
// goes to goldmark. FuzzHeadingSet checks that both agree. intern shares
// the title strings between versions.
func headingSet(data []byte, intern map[string]string) map[string]bool {
	if bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\r') >= 0 || !utf8.Valid(data) {
		return markdown.HeadingTexts(data)
	}
	set := make(map[string]bool, bytes.Count(data, []byte("\n## ")))
	line := 0
	for at := 0; at < len(data); {
		line++
		var l []byte
		l, at = markdown.NextLine(data, at)
		if len(l) == 0 {
			continue
		}
		if l[0] == '#' {
			if markdown.AmbiguousHeading(l) {
				return markdown.HeadingTexts(data)
			}
			if t := markdown.EntryTitle(l, line); t != nil {
				set[internTitle(intern, t)] = true
			}
			continue
		}
		if !markdown.PlainLine(l) {
			return markdown.HeadingTexts(data)
		}
	}
	return set
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
