package app

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/capture/review"
	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// The use cases of lore mcp (docs/design.md, MCP server): each reads the
// store anew, so a server that runs all day answers from what is there.

// Check is what the hook would deliver for one call in a fresh session,
// with each item's reasons (match.Explain: the same items as the hook's
// Decide): the manifest on disk, rebuilt first (as the
// hook does) when a source changed since it was built. A path is relative
// to the repository's root.
func Check(s *gitstore.Store, tool, command, path, content string) (match.Decision, error) {
	unlock, err := s.BuildLock()
	if err != nil {
		return match.Decision{}, err
	}
	_, m, err := build(s, false, true)
	unlock()
	if err != nil {
		return match.Decision{}, err
	}
	defer m.Close()
	if path != "" {
		path = match.RelPath(s.Root, s.Root, path)
	}
	c := match.Call{Tool: match.Tool(tool), Command: command, Path: path, Content: content}
	return match.Explain(m, c)
}

// Found is one item a search matched, and how well.
type Found struct {
	ListEntry
	Score int `json:"score"`
}

// Search finds the items whose title, tags, triggers or body hold the
// query's words, most relevant first: a word in the title counts 3, in a
// tag or trigger 2, in the body 1; ties go to the higher priority, then
// the path. Archived items are left out. Every scope is searched, as lore
// list does. limit <= 0: 10.
func Search(s *gitstore.Store, query string, limit int) ([]Found, error) {
	in, items, _, err := allItems(s)
	if err != nil {
		return nil, err
	}
	words := strings.Fields(strings.ToLower(query))
	var out []Found
	for _, it := range items {
		if len(words) == 0 || it.Status == "archived" {
			continue
		}
		if n := relevance(it, words); n > 0 {
			out = append(out, Found{listEntry(it, compile.DeliveryIn(in, it)), n})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Priority > out[j].Priority
	})
	if limit <= 0 {
		limit = 10
	}
	return out[:min(limit, len(out))], nil
}

// relevance weighs where each of the words occurs in an item (0: none).
func relevance(it *markdown.Item, words []string) int {
	title := strings.ToLower(it.Title)
	tags := strings.ToLower(strings.Join(it.Tags, " ") + " " + strings.Join(it.Triggers.Tools, " ") + " " +
		strings.Join(it.Triggers.Commands, " ") + " " + strings.Join(it.Triggers.Keywords, " "))
	var body strings.Builder
	for _, sec := range it.Sections {
		body.WriteString(strings.ToLower(sec.Content))
		body.WriteByte('\n')
	}
	n := 0
	for _, w := range words {
		switch {
		case strings.Contains(title, w):
			n += 3
		case strings.Contains(tags, w):
			n += 2
		case strings.Contains(body.String(), w):
			n++
		}
	}
	return n
}

// Lesson is a structured lesson to record as a draft.
type Lesson struct {
	Title, Mistake, Fix, Tool, Trigger, Priority string
	Tags                                         []string
}

// Recorded is what Record did: the draft it wrote, or Known when the
// store already holds (or rejected) the same lesson and nothing was
// written.
type Recorded struct {
	Path, ID string
	Known    bool
	Hash     string
}

// Record writes a lesson as a draft for review, exactly as scan writes a
// #lesson block it found: redacted, deduplicated by content against the
// store and its rejections, through the store. It never writes an active
// item.
func Record(s *gitstore.Store, l Lesson) (Recorded, error) {
	home, _ := os.UserHomeDir()
	c, err := scan.Lesson(map[string]string{"title": l.Title, "mistake": l.Mistake, "fix": l.Fix, "tool": l.Tool,
		"trigger": l.Trigger, "tags": strings.Join(l.Tags, ", "), "priority": l.Priority},
		scan.Options{Root: filepath.Clean(s.Root), Home: home})
	if err != nil {
		return Recorded{}, &InputError{Err: err}
	}
	w, ok, err := review.WriteFresh(s, c, time.Now())
	if err != nil || !ok {
		return Recorded{Known: err == nil, Hash: c.Hash}, err
	}
	return Recorded{Path: w.Path, ID: w.ID, Hash: c.Hash}, nil
}
