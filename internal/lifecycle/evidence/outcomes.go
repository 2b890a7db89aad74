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
	undated       int // matching calls whose session has no time
	sessions      map[string]bool
}

// callSets is the transcripts' calls matched against the items.
type callSets struct {
	calls int
	first time.Time // the earliest dated call of the period
	items map[string]*outcome
}

// Failed says a recorded call failed as a person reading the transcript
// would say (an error result, a non-zero exit, a timeout, an
// interrupt). A call lore held or denied did not run: not a failure of
// the command.
func Failed(c scan.Call) bool { return c.Failed != "" && c.Failed != "denied" }

// When is the time a call is dated by: its session's start, else its own.
func When(c scan.Call) time.Time {
	if !c.Started.IsZero() {
		return c.Started
	}
	return c.Time
}

// MatchCall is the hook's call for a recorded one.
func MatchCall(c scan.Call) match.Call {
	return match.Call{Tool: c.Tool, Command: c.Command, Path: c.Path, Content: c.Content}
}

// Matched is the ids a decision fired or dropped: every item whose
// triggers passed the threshold for the call.
func Matched(d match.Decision) []string {
	ids := make([]string, 0, len(d.Injected)+len(d.Dropped))
	for _, r := range d.Injected {
		ids = append(ids, r.ID)
	}
	for _, r := range d.Dropped {
		ids = append(ids, r.ID)
	}
	return ids
}

// matchCalls runs every call of the period through the matcher. activated
// dates each item; an item without a date counts its calls in neither
// side.
func matchCalls(m *compile.Matcher, calls []scan.Call, since time.Time, activated map[string]time.Time) (callSets, error) {
	cs := callSets{items: map[string]*outcome{}}
	for _, c := range calls {
		when := When(c)
		if !since.IsZero() && (when.IsZero() || when.Before(since)) {
			continue
		}
		cs.calls++
		if !when.IsZero() && (cs.first.IsZero() || when.Before(cs.first)) {
			cs.first = when
		}
		d, err := m.Decide(MatchCall(c))
		if err != nil {
			return callSets{}, err
		}
		for _, id := range Matched(d) {
			o := cs.items[id]
			if o == nil {
				o = &outcome{sessions: map[string]bool{}}
				cs.items[id] = o
			}
			o.add(c, when, activated[id])
		}
	}
	return cs, nil
}

func (o *outcome) add(c scan.Call, when, active time.Time) {
	o.matches++
	o.sessions[c.Agent+"/"+c.Session] = true
	var side *Side
	switch {
	case when.IsZero():
		o.undated++
		return
	case active.IsZero() || when.Before(active):
		side = &o.before
	default:
		side = &o.after
	}
	side.Calls++
	if Failed(c) {
		side.Failures++
	}
}
