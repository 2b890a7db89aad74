package lint

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Stale says which items are stale (docs/design.md, Evidence of effect):
// id -> why, for each item whose paths globs match no file or folder in
// files, or that cites a repo-relative file files lacks. files are the
// paths of HEAD's tree (gitstore.Store.HeadFiles); nil (no commit yet)
// says nothing is known, and no item is stale.
func Stale(items []*markdown.Item, files []string) map[string]string {
	out := map[string]string{}
	if files == nil {
		return out
	}
	h := newHead(files)
	for _, it := range items {
		if fs := h.stale(it); len(fs) > 0 && it.ID != "" {
			out[it.ID] = fs[0].Msg
		}
	}
	return out
}

// staleFindings are the stale warnings of every item.
func staleFindings(items []*markdown.Item, files []string) []Finding {
	if files == nil {
		return nil
	}
	h := newHead(files)
	var out []Finding
	for _, it := range items {
		for _, f := range h.stale(it) {
			f.Msg = "stale: " + f.Msg
			out = append(out, f)
		}
	}
	return out
}

// head is HEAD's tree: its files, and every path a glob may name (the
// files and their folders: a Grep or Glob call names a folder), also one
// a line in one string, where a glob's literal is looked for first.
type head struct {
	files  map[string]bool
	paths  []string
	joined string
}

func newHead(files []string) head {
	h := head{files: make(map[string]bool, len(files))}
	dirs := map[string]bool{}
	for _, f := range files {
		h.files[f] = true
		h.paths = append(h.paths, f)
		for d := path.Dir(f); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
			h.paths = append(h.paths, d)
		}
	}
	h.joined = strings.Join(h.paths, "\n")
	return h
}

// stale returns the item's stale warnings, each saying why. Items of
// the user's global store apply to many repositories, and retired ones to
// none: neither is judged against this one.
func (h head) stale(it *markdown.Item) []Finding {
	if it.Scope == "global" || !it.Injectable(true) {
		return nil
	}
	var out []Finding
	warn := func(line int, key, format string, args ...any) {
		out = append(out, Finding{Path: it.Path, Line: line, Key: key, Msg: fmt.Sprintf(format, args...), Severity: Warning})
	}
	if g := it.Triggers.Paths; len(g) > 0 && !h.anyMatch(g) {
		warn(it.KeyLine("triggers.paths"), "triggers.paths", "no file in HEAD matches %s: the code it guards is gone or moved; update the globs or archive the item", strings.Join(g, ", "))
	}
	for _, c := range it.Cited() {
		if !h.files[c.Path] {
			warn(c.Line, c.Key, "%s, which it cites, is gone from HEAD: check the item still holds, then update or archive it", c.Path)
		}
	}
	return out
}

// anyMatch reports whether a valid glob matches a path of the tree (an
// invalid one is markdown.Validate's to report).
func (h head) anyMatch(globs []string) bool {
	for _, g := range globs {
		if !doublestar.ValidatePattern(g) || h.matches(g) {
			return true
		}
	}
	return false
}

// matches reports whether g matches a path: only the lines that hold
// the literal every match of g contains are tried (a repository has tens
// of thousands of paths, and most globs match none or few of them).
func (h head) matches(g string) bool {
	lits := match.GlobLiterals(g)
	if lits == nil {
		for _, p := range h.paths {
			if ok, _ := doublestar.Match(g, p); ok {
				return true
			}
		}
		return false
	}
	for rest := h.joined; ; {
		i := strings.Index(rest, lits[0])
		if i < 0 {
			return false
		}
		start := strings.LastIndexByte(rest[:i], '\n') + 1
		end := strings.IndexByte(rest[i:], '\n')
		if end < 0 {
			end = len(rest)
		} else {
			end += i
		}
		if ok, _ := doublestar.Match(g, rest[start:end]); ok {
			return true
		}
		if end == len(rest) {
			return false
		}
		rest = rest[end+1:]
	}
}
