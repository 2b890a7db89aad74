package compile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// DefaultIndexBytes is the byte budget of the knowledge index in the
// SessionStart block and of `lore index` without --budget.
const DefaultIndexBytes = 2048 // keep in step with IndexCmd.Budget's default

// IndexEntry is one line of the knowledge index (docs/design.md, Phase
// learnings and signals: id, title, status, area).
type IndexEntry struct {
	ID       string `json:"id"` // the human ref (PF-0001, ADR-0002) when there is one, else the ULID
	Kind     string `json:"kind"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	Area     string `json:"area,omitempty"`
	File     string `json:"file"`
	Priority int    `json:"priority"`
}

// Index is the rendered index and what the budget left out.
type Index struct {
	Text    string       `json:"-"`
	Shown   []IndexEntry `json:"shown"`
	Omitted int          `json:"omitted"`
}

// entry is the index line of an item.
func entry(it *markdown.Item) IndexEntry {
	id := it.ID
	if it.Ref != "" {
		id = it.Ref
	}
	return IndexEntry{ID: id, Kind: it.Kind, Title: Sanitize(it.Title), Status: it.Status,
		Area: Area(it), File: it.Path, Priority: int(it.Priority)}
}

// Area is where an item applies: its area: tag, else the static folder of
// its first path trigger, else its tool: tag, else "".
func Area(it *markdown.Item) string {
	if v := tagValue(it.Tags, "area"); v != "" {
		return v
	}
	for _, p := range it.Triggers.Paths {
		segs := strings.Split(strings.TrimPrefix(p, "./"), "/")
		dirs := segs[:len(segs)-1] // the last segment names files
		for i, seg := range dirs {
			if strings.ContainsAny(seg, "*?[{") {
				dirs = dirs[:i]
				break
			}
		}
		if len(dirs) > 0 {
			return strings.Join(dirs, "/") + "/"
		}
	}
	return tagValue(it.Tags, "tool")
}

// tagValue returns the value of the first category:value tag of category.
func tagValue(tags []string, category string) string {
	for _, t := range tags {
		if c, v, ok := strings.Cut(t, ":"); ok && strings.EqualFold(strings.TrimSpace(c), category) {
			if v = strings.TrimSpace(v); v != "" {
				return v
			}
		}
	}
	return ""
}

var kindOrder = []struct{ kind, label string }{
	{markdown.KindDecision, "Decisions"}, {markdown.KindPitfall, "Pitfalls"},
	{markdown.KindLesson, "Lessons"}, {KindSkill, "Skills"},
}

// RenderIndex renders the knowledge index within budget bytes: entries are
// taken most important first (priority, then id) while their lines fit,
// then shown grouped by kind; the last line says how many were left out.
// The SessionStart block and `lore index` both use it.
func RenderIndex(entries []IndexEntry, budget int) Index {
	return renderIndex(entries, len(entries), budget)
}

// renderIndex is RenderIndex of entries that are the first of all
// (a build with parts lists only those that can show: compiler.indexPart).
func renderIndex(entries []IndexEntry, all, budget int) Index {
	sorted := append([]IndexEntry(nil), entries...)
	sort.Slice(sorted, func(a, b int) bool { return indexBefore(sorted[a], sorted[b]) })
	head := fmt.Sprintf("## Knowledge index (%d items; `lore show <id>` reads one)\n", all)
	const groupHead = "\nSkills (999):\n" // the longest group heading, reserved per group
	tailMax := len("(999999 more left out: `lore index --budget N` shows more)\n")
	used := len(head) + tailMax
	var idx Index
	groups := map[string]bool{}
	for _, e := range sorted {
		n := len(line(e))
		if !groups[e.Kind] {
			n += len(groupHead)
		}
		if used+n > budget {
			idx.Omitted = all - len(idx.Shown)
			break
		}
		used += n
		groups[e.Kind] = true
		idx.Shown = append(idx.Shown, e)
	}
	var b strings.Builder
	b.WriteString(head)
	for _, k := range kindOrder {
		var lines []string
		for _, e := range idx.Shown {
			if e.Kind == k.kind {
				lines = append(lines, line(e))
			}
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%d):\n%s", k.label, len(lines), strings.Join(lines, ""))
	}
	if idx.Omitted > 0 {
		fmt.Fprintf(&b, "(%d more left out: `lore index --budget N` shows more)\n", idx.Omitted)
	}
	idx.Text = b.String()
	return idx
}

// indexBefore orders the index: priority, then the project's items
// before an organisation's and the user's (as moreImportant), then id,
// then file (two stores may share a ref).
func indexBefore(a, b IndexEntry) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	if sa, sb := scopeOf(a.File), scopeOf(b.File); sa != sb {
		return sa < sb
	}
	if a.ID != b.ID {
		return a.ID < b.ID
	}
	return a.File < b.File
}

// scopeOf is the scope of an item by its path as loaded.
func scopeOf(file string) Scope {
	switch manifest.Origin(file) {
	case "":
		return Project
	case config.UserName:
		return User
	}
	return Org
}

func line(e IndexEntry) string {
	s := "  " + e.ID + "  " + e.Title + "  [" + e.Status + "]"
	if e.Area != "" {
		s += "  — " + e.Area
	}
	return s + "\n"
}
