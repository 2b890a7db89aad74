package markdown

import (
	"bytes"
	"path"
	"strings"

	"github.com/lore-agents/lore/internal/lazyre"
)

// Citation is a repo-relative file an item cites, where it cites it.
type Citation struct {
	Path string // repo-relative, slash-separated
	Line int    // file line of the citation
	Key  string // source.files, or evidence
}

// evidenceRe is an Evidence list entry that starts with `dir/file:line`:
// a repo file. A bare file name is not one: scan's Evidence names the
// transcript a draft came from, which lives outside the repository.
var evidenceRe = lazyre.New("^\\s*[-*]\\s+`?([A-Za-z0-9_.][^\\s:`]*/[^\\s:`]+):\\d+")

// Cited lists the repo-relative files the item cites (docs/design.md,
// Item format): its source.files, and the `dir/file:line` that starts an
// entry of its Evidence section.
func (it *Item) Cited() []Citation {
	var out []Citation
	if it.Source != nil {
		for _, f := range it.Source.Files {
			if repoRelative(f) {
				out = append(out, Citation{Path: path.Clean(f), Line: it.KeyLine("source.files"), Key: "source.files"})
			}
		}
	}
	for _, s := range it.Sections {
		if strings.EqualFold(s.Title, "Evidence") {
			out = append(out, evidenceCitations(it.raw[s.Start:s.End], s.Line)...)
		}
	}
	return out
}

// evidenceCitations finds the cited files in an Evidence section's bytes,
// whose first line is the file line first.
func evidenceCitations(sec []byte, first int) []Citation {
	var out []Citation
	for i, l := range bytes.Split(sec, []byte("\n")) {
		m := evidenceRe().FindSubmatch(l)
		if m == nil || !repoRelative(string(m[1])) {
			continue
		}
		out = append(out, Citation{Path: path.Clean(string(m[1])), Line: first + i, Key: "evidence"})
	}
	return out
}

// repoRelative reports whether p names a file inside the repository by a
// relative path: not absolute, not home-relative, no "..".
func repoRelative(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.Contains(p, `\`) {
		return false
	}
	c := path.Clean(p)
	return c != "." && c != ".." && !strings.HasPrefix(c, "../")
}
