package app

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// MatchOptions is one tool call as the hook would see it.
type MatchOptions struct {
	Tool, Command, Content, Prompt string
	// Path is absolute or relative to Dir (the current directory), as the
	// hook reads it.
	Path, Dir string
	Recent    []string // earlier prompts of the session
	All       bool     // keep every rejected item, not only those for this tool
}

// Matched is the hook's decision for one call in a fresh session.
type Matched struct {
	Call     match.Call
	Decision match.Decision
	Settings manifest.Settings
	Items    int  // items in the manifest
	Outside  bool // the path lies outside the repository: no path target
	Built    Built
	// Unsafe are the items lint rejects for safety: they never match,
	// whatever the call.
	Unsafe []compile.Excluded
	// Delivery is how each of the project's items reaches an agent, by id.
	Delivery map[string]compile.Delivery
	// Never are the project's items that never reach an agent, in path
	// order (with All).
	Never []NeverItem
}

// NeverItem is an item that never reaches an agent, and why.
type NeverItem struct {
	ID, Path, Title, Reason string
}

// Match decides what the hook would inject for one call, over an
// in-memory build (the same bytes lore build writes), so that it can also
// name the items left out. On an error after the build, the result still
// says what the build skipped and left out.
func Match(s *gitstore.Store, o MatchOptions) (Matched, error) {
	b, m, err := build(s, true, false)
	if err != nil {
		return Matched{Built: b}, err
	}
	defer m.Close()
	r := Matched{Settings: m.Settings(), Items: m.Count(), Built: b}
	for _, x := range b.Report.Excluded {
		if x.Unsafe {
			r.Unsafe = append(r.Unsafe, x)
		}
	}
	path := o.Path
	if path != "" {
		cwd, err := filepath.Abs(o.Dir)
		if err != nil {
			return r, err
		}
		path = match.RelPath(s.Root, cwd, o.Path)
		r.Outside = path == ""
	}
	r.Call = match.Call{Tool: o.Tool, Command: o.Command, Path: path, Content: o.Content, Prompt: o.Prompt,
		Recent: append(append([]string(nil), o.Recent...), o.Prompt)}
	if r.Decision, err = match.Explain(m, r.Call); err != nil {
		return r, err
	}
	if !o.All {
		r.Decision.Rejected = forTool(r.Decision.Rejected)
	}
	r.deliveries(s, o.All)
	return r, nil
}

// deliveries names how each item of every scope reaches an agent (the one
// answer list and show give), and with all lists those that never do.
func (r *Matched) deliveries(s *gitstore.Store, all bool) {
	in, items, _, err := allItems(s)
	if err != nil {
		return // the build above reported it
	}
	delivery := compile.Deliveries(in)
	r.Delivery = map[string]compile.Delivery{}
	for _, it := range items {
		d := delivery[it.Path]
		if _, seen := r.Delivery[it.ID]; !seen { // the id's first item: the one a build keeps
			r.Delivery[it.ID] = d
		}
		if all && d.Kind == compile.Never {
			r.Never = append(r.Never, NeverItem{it.ID, it.Path, it.Title, d.Reason})
		}
	}
}

// forTool leaves out the items rejected only because the call's tool is
// not theirs.
func forTool(rejected []match.Result) []match.Result {
	var out []match.Result
	for _, r := range rejected {
		if !strings.HasPrefix(r.Reasons[len(r.Reasons)-1], "not injected: tool ") {
			out = append(out, r)
		}
	}
	return out
}

// MatchReport is `lore match --json`.
type MatchReport struct {
	Injected   []MatchScore `json:"injected"`
	Dropped    []MatchScore `json:"dropped"`
	Considered int          `json:"considered"`
}

// MatchScore is one scored item, scores rounded to four places.
type MatchScore struct {
	ID        string  `json:"id"`
	Score     float64 `json:"score"`
	Relevance float64 `json:"relevance"`
	Priority  int     `json:"priority"`
	// Deny and Hold (enforce: once, the first matching call of a context)
	// say the call is stopped before it runs; absent when false.
	Deny     bool     `json:"deny,omitempty"`
	Hold     bool     `json:"hold,omitempty"`
	Reasons  []string `json:"reasons"`
	Delivery string   `json:"delivery,omitempty"` // the item's delivery (a project item)
	Origin   string   `json:"origin,omitempty"`   // an org or user item's store (docs/design.md, Scopes and organisation stores)
}

// Report is the decision as `lore match --json` prints it.
func (m Matched) Report() MatchReport {
	d := m.Decision
	return MatchReport{m.scores(d.Injected), m.scores(d.Dropped), d.Considered}
}

func (m Matched) scores(rs []match.Result) []MatchScore {
	out := make([]MatchScore, 0, len(rs))
	for _, r := range rs {
		out = append(out, MatchScore{ID: r.ID, Score: round4(r.Score), Relevance: round4(r.Relevance), Priority: r.Priority, Reasons: r.Reasons,
			Deny: r.Deny, Hold: r.Hold, Delivery: m.Delivery[r.ID].Kind, Origin: manifest.Origin(r.File)})
	}
	return out
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }
