// Package evidence says, per item, whether lore's knowledge reaches agents
// and whether the mistake it names stopped recurring (docs/design.md,
// Evidence of effect). It reads two records of what really happened: the
// hook's ledger (what each call was shown, held or denied) and the tool
// calls of the scanned transcripts (what ran and what failed), matched
// against the items by the hook's own matcher. Nothing here writes: the
// app layer gathers the inputs from the store.
package evidence

import (
	"sort"
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/inject/ledger"
	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Verdicts, the first that applies (docs/design.md, Evidence of effect).
const (
	Stale      = "stale"       // its paths match no file in HEAD, or its cited files are gone
	NeverFired = "never-fired" // active 30+ days and nothing matched it
	Noisy      = "noisy"       // fires in more than a quarter of contexts, or its holds are repeated more than changed
	Effective  = "effective"   // failures per matching call fell by half or more, or its holds changed the call
	NoEffect   = "no-effect"   // enough calls on both sides and failures did not fall by half
	Unmeasured = "unmeasured"  // too few matching calls to say
)

// neverFiredDays is how long an item is active without a match before
// it is called never-fired.
const neverFiredDays = 30

// Input is everything stats and replay read, gathered by the app layer.
type Input struct {
	Items     []*markdown.Item     // the project's items, drafts included
	Stores    []compile.Store      // the org and user stores, with their items, as a build merges them
	Config    config.Config        //
	Ledger    []ledger.Entry       // oldest first
	Calls     []scan.Call          // every recorded transcript call
	Activated map[string]time.Time // id -> author date of the commit that made it active
	Stale     map[string]string    // id -> why it is stale
	Since     time.Time            // zero: everything recorded
	Now       time.Time
}

// Report is lore stats --json.
type Report struct {
	Since      *string        `json:"since"`      // YYYY-MM-DD; null: everything recorded
	Calls      int            `json:"calls"`      // tool calls in the scanned transcripts
	Spawned    *int           `json:"spawned"`    // tool calls the ledger saw (null: no ledger entry in the period)
	NoLore     *float64       `json:"noLore"`     // share of transcript calls that spawned no lore process (null: unmeasured)
	Contexts   *int           `json:"contexts"`   // contexts the ledger saw (null: no ledger entry)
	Deliveries map[string]int `json:"deliveries"` // active items per delivery
	Dead       []string       `json:"dead"`       // ids of active items whose delivery is never
	Items      []ItemStats    `json:"items"`
}

// ItemStats is one item's line. Counts the ledger cannot know (no entry
// in the period) are null, as are before and after when the item's
// activation is unknown: unmeasured, never zero.
type ItemStats struct {
	ID        string  `json:"id"`
	Origin    string  `json:"origin"` // project, an org source's name, or user
	Title     string  `json:"title"`
	File      string  `json:"file"`
	Status    string  `json:"status"`
	Delivery  string  `json:"delivery"`
	Fired     *int    `json:"fired"`
	Held      *Holds  `json:"held"`
	Denied    *int    `json:"denied"`
	Dropped   *int    `json:"dropped"`
	Contexts  *int    `json:"contexts"`
	LastFired *string `json:"lastFired"` // RFC 3339; null when it never fired or the ledger is empty
	Matches   int     `json:"matches"`   // matching transcript calls in the period
	Activated *string `json:"activated"` // YYYY-MM-DD; null when unknown or never active
	Before    *Side   `json:"before"`
	After     *Side   `json:"after"`
	Verdict   string  `json:"verdict"`
	Why       string  `json:"why"`
}

// Holds is what the call after each hold did.
type Holds struct {
	Total    int `json:"total"`
	Changed  int `json:"changed"`
	Repeated int `json:"repeated"`
}

// Stats reports on the items named by ids (every item when empty).
func Stats(in Input, ids map[string]bool) (Report, error) {
	ci := compile.Input{Items: in.Items, Stores: in.Stores, Config: in.Config}
	all := ci.AllItems()
	m, err := compile.NewStoreMatcher(ci, true)
	if err != nil {
		return Report{}, err
	}
	cs, err := matchCalls(m, in.Calls, in.Since, in.Activated)
	if err != nil {
		return Report{}, err
	}
	lf := readLedger(in.Ledger, in.Since)
	r := Report{Calls: cs.calls, Deliveries: map[string]int{}, Dead: []string{}, Items: []ItemStats{}}
	r.summary(in, lf)
	set := compile.Settings(in.Config)
	seen := map[string]bool{} // ids an earlier item has
	for i, it := range all {
		d := m.Delivery(it, set)
		if it.Injectable(false) {
			r.Deliveries[d.Kind]++
			if d.Kind == compile.Never {
				r.Dead = append(r.Dead, it.ID)
			}
		}
		// The ledger names ids: an item whose id an earlier one has (an
		// org copy the project's shadows) never fired, and its id's
		// firings are the earlier item's.
		shadow := seen[it.ID]
		seen[it.ID] = true
		if shadow || len(ids) > 0 && !ids[it.ID] || !it.Injectable(true) {
			continue
		}
		s := itemStats(in, it, d, lf, cs)
		if i >= len(in.Items) {
			s.Origin = manifest.Origin(it.Path) // the source's name, or "user"
		}
		r.Items = append(r.Items, s)
	}
	sort.SliceStable(r.Items, func(a, b int) bool { return r.Items[a].before(r.Items[b]) })
	return r, nil
}

// summary fills the store-wide figures.
func (r *Report) summary(in Input, lf ledgerFacts) {
	if !in.Since.IsZero() {
		s := in.Since.Format(time.DateOnly)
		r.Since = &s
	}
	if lf.entries == 0 {
		return
	}
	r.Spawned, r.Contexts = intp(lf.calls), intp(len(lf.contexts))
	// More hook calls than transcript calls: the transcripts read are not
	// all the sessions the hook saw, and the share says nothing.
	if r.Calls > 0 && lf.calls <= r.Calls {
		share := 1 - float64(lf.calls)/float64(r.Calls)
		r.NoLore = &share
	}
}

// itemStats is one item's figures and verdict.
func itemStats(in Input, it *markdown.Item, d compile.Delivery, lf ledgerFacts, cs callSets) ItemStats {
	s := ItemStats{ID: it.ID, Origin: "project", Title: it.Title, File: it.Path, Status: it.Status, Delivery: d.Kind}
	if lf.entries > 0 {
		dl := lf.items[it.ID]
		if dl == nil {
			dl = &delivered{}
		}
		s.Fired, s.Denied, s.Dropped, s.Contexts = intp(dl.fired), intp(dl.denied), intp(dl.dropped), intp(len(dl.contexts))
		s.Held = &Holds{Total: dl.held, Changed: dl.changed, Repeated: dl.repeated}
		if !dl.last.IsZero() {
			t := dl.last.UTC().Format(time.RFC3339)
			s.LastFired = &t
		}
	}
	o := cs.items[it.ID]
	if o == nil {
		o = &outcome{}
	}
	s.Matches = o.matches
	active, known := activation(in, it)
	if known {
		day := active.Format(time.DateOnly)
		s.Activated = &day
	}
	switch {
	case !it.Injectable(false): // a draft: every call is before
		s.Before = &o.before
	case known:
		s.Before, s.After = &o.before, &o.after
	}
	s.Verdict, s.Why = verdict(in, it, s, lf, cs, active, known)
	return s
}

// activation is when an item became active: the commit that made it
// active, else (uncommitted, or the user's own) its updated, else its
// created date; known is false when it has none or is not active.
func activation(in Input, it *markdown.Item) (time.Time, bool) {
	if !it.Injectable(false) {
		return time.Time{}, false
	}
	if t, ok := in.Activated[it.ID]; ok {
		return t, true
	}
	for _, t := range []time.Time{it.Updated, it.Created} {
		if !t.IsZero() {
			return t, true
		}
	}
	return time.Time{}, false
}

func intp(n int) *int { return &n }

// rank orders verdicts for a person pruning a store: what to act on
// first.
var rank = map[string]int{Noisy: 0, Stale: 1, NeverFired: 2, NoEffect: 3, Effective: 4, Unmeasured: 5}

func (s ItemStats) before(o ItemStats) bool {
	if rank[s.Verdict] != rank[o.Verdict] {
		return rank[s.Verdict] < rank[o.Verdict]
	}
	if f, g := deref(s.Fired), deref(o.Fired); f != g {
		return f > g
	}
	if s.Matches != o.Matches {
		return s.Matches > o.Matches
	}
	return s.File < o.File
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
