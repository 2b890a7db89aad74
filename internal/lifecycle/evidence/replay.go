package evidence

import (
	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// maxExamples is how many example calls replay shows an item.
const maxExamples = 3

// ReplayReport is lore replay --json.
type ReplayReport struct {
	Calls    int          `json:"calls"`    // recorded transcript calls replayed
	Sessions int          `json:"sessions"` // sessions they came from
	Items    []ReplayItem `json:"items"`
}

// ReplayItem is what one item would have fired on.
type ReplayItem struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	File     string    `json:"file"`
	Fires    int       `json:"fires"`    // calls it would have fired on (or been dropped from by the cap)
	Failed   int       `json:"failed"`   // of those, calls that failed
	Contexts int       `json:"contexts"` // sessions with at least one
	Examples []Example `json:"examples"`
}

// Example is one recorded call an item fires on.
type Example struct {
	Session string `json:"session"`
	File    string `json:"file"` // the transcript
	Line    int    `json:"line"`
	Tool    string `json:"tool"`
	Input   string `json:"input"` // the command or path, as recorded (redacted)
	Failed  string `json:"failed,omitempty"`
}

// Replay runs items (drafts as if active) against the recorded calls,
// together, as the hook would for a fresh context: a review of triggers
// before they merge.
func Replay(items []*markdown.Item, cfg config.Config, calls []scan.Call) (ReplayReport, error) {
	m, err := compile.NewMatcher(items, cfg, true)
	if err != nil {
		return ReplayReport{}, err
	}
	byID := map[string]*ReplayItem{}
	sessions := map[string]map[string]bool{}
	r := ReplayReport{Calls: len(calls), Items: []ReplayItem{}}
	for _, it := range items {
		r.Items = append(r.Items, ReplayItem{ID: it.ID, Title: it.Title, File: it.Path, Examples: []Example{}})
	}
	for i := range r.Items {
		byID[r.Items[i].ID] = &r.Items[i]
		sessions[r.Items[i].ID] = map[string]bool{}
	}
	all := map[string]bool{}
	for _, c := range calls {
		all[c.Agent+"/"+c.Session] = true
		ids, err := matched(m, c)
		if err != nil {
			return ReplayReport{}, err
		}
		for _, id := range ids {
			ri := byID[id]
			if ri == nil {
				continue
			}
			ri.Fires++
			if c.Failure() {
				ri.Failed++
			}
			sessions[id][c.Agent+"/"+c.Session] = true
			if len(ri.Examples) < maxExamples {
				ri.Examples = append(ri.Examples, example(c))
			}
		}
	}
	r.Sessions = len(all)
	for i := range r.Items {
		r.Items[i].Contexts = len(sessions[r.Items[i].ID])
	}
	return r, nil
}

func example(c scan.Call) Example {
	in := c.Command
	if in == "" {
		in = c.Path
	}
	return Example{Session: c.Session, File: c.File, Line: c.Line, Tool: c.Tool, Input: in, Failed: c.Failed}
}
