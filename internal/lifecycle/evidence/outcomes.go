package evidence

import (
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
)

// Side counts an item's matching calls on one side of its activation.
type Side struct {
	Calls    int `json:"calls"`
	Failures int `json:"failures"`
}

// rate is failures per call.
func (s Side) rate() float64 { return float64(s.Failures) / float64(s.Calls) }

// outcome is what the transcripts say of one item: the calls that match
// it, split by when their session started against the item's activation.
type outcome struct {
	matches       int
	before, after Side
}

// callSets is the transcripts' calls matched against the items.
type callSets struct {
	calls int
	first time.Time // the earliest dated call of the period
	items map[string]*outcome
}

// dated is the time a call is dated by: its session's start, else its own.
func dated(c scan.Call) time.Time {
	if !c.Started.IsZero() {
		return c.Started
	}
	return c.Time
}

// matched is the ids of every item whose triggers pass the threshold for
// a recorded call, as the hook decides it: one decision per file of a
// multi-file patch, merged.
func matched(m *compile.Matcher, c scan.Call) ([]string, error) {
	var ids []string
	seen := map[string]bool{}
	for _, mc := range c.MatchCalls() {
		d, err := m.Decide(mc)
		if err != nil {
			return nil, err
		}
		for _, rs := range [][]match.Result{d.Injected, d.Dropped} { // dropped: cut by the cap, still matched
			for _, r := range rs {
				if !seen[r.ID] {
					seen[r.ID] = true
					ids = append(ids, r.ID)
				}
			}
		}
	}
	return ids, nil
}

// matchCalls runs every call of the period through the matcher. activated
// dates each item; an item without a date counts its calls in neither
// side.
func matchCalls(m *compile.Matcher, calls []scan.Call, since time.Time, activated map[string]time.Time) (callSets, error) {
	cs := callSets{items: map[string]*outcome{}}
	for _, c := range calls {
		when := dated(c)
		if !since.IsZero() && (when.IsZero() || when.Before(since)) {
			continue
		}
		cs.calls++
		if !when.IsZero() && (cs.first.IsZero() || when.Before(cs.first)) {
			cs.first = when
		}
		ids, err := matched(m, c)
		if err != nil {
			return callSets{}, err
		}
		for _, id := range ids {
			o := cs.items[id]
			if o == nil {
				o = &outcome{}
				cs.items[id] = o
			}
			o.add(c, when, activated[id])
		}
	}
	return cs, nil
}

func (o *outcome) add(c scan.Call, when, active time.Time) {
	o.matches++
	var side *Side
	switch {
	case when.IsZero(): // an undated session is on neither side
		return
	case active.IsZero() || when.Before(active):
		side = &o.before
	default:
		side = &o.after
	}
	side.Calls++
	if c.Failure() {
		side.Failures++
	}
}
