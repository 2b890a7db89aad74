package app

import (
	"errors"
	"io/fs"
	"slices"
	"sort"
	"time"

	"github.com/lore-agents/lore/internal/capture/observe"
	"github.com/lore-agents/lore/internal/inject/ledger"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
	"github.com/lore-agents/lore/internal/lifecycle/evidence"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// StatusOptions set lore status's thresholds.
type StatusOptions struct {
	StaleDays int    // an active item not updated (or created) for this many days is stale
	Today     string // YYYY-MM-DD; "" for the local date
	Evidence  bool   // read the hook's ledger for dead, noisy and never-fired items
}

// StatusReport is lore status --json.
type StatusReport struct {
	Counts       map[string]map[string]int `json:"counts"`       // kind -> status -> n
	Active       int                       `json:"active"`       // active lessons/pitfalls and accepted decisions
	Drafts       []string                  `json:"drafts"`       // files of draft/proposed items
	Observations *ObservationStatus        `json:"observations"` // null when the log cannot be read
	Stale        []StaleItem               `json:"stale"`
	StaleDays    int                       `json:"staleDays"`
	Skills       []string                  `json:"skillsOutOfDate"` // tools whose skill document lore aggregate would change
	Errors       int                       `json:"errors"`          // files that could not be parsed
	// ConfigProblems are the config's problems, each with what is used
	// meanwhile (a key at its default, a source left out).
	ConfigProblems []string         `json:"configProblems,omitempty"`
	Learnings      *LearningsStatus `json:"learnings"`
	Evidence       *EvidenceStatus  `json:"evidence"` // null with --line, or when the ledger cannot be read
	// Stores are the organisation sources the config names and the
	// user's store: counted, not parsed, so that a project whose lessons
	// live in its organisation's store does not read as empty.
	Stores []StoreFiles `json:"stores"`

	ObservationsErr error `json:"-"` // why Observations is null
	EvidenceErr     error `json:"-"` // why Evidence is null
}

// StoreFiles is a store outside the project, as status counts it.
type StoreFiles struct {
	Name   string `json:"name"`
	Scope  string `json:"scope"`            // org or user
	Files  int    `json:"files"`            // its item files (the hook compiles the active ones)
	Commit string `json:"commit,omitempty"` // an organisation source's commit in use
	Copy   bool   `json:"copy"`             // false: an organisation source with no copy here (lore sync)
}

// otherStores counts the item files of each store outside the project;
// the user's store is left out when it has none.
func otherStores(s *gitstore.Store) []StoreFiles {
	sc, err := LoadScopes(s)
	out := []StoreFiles{}
	if err != nil {
		return out // the config's error is the project's: projectInput reported it
	}
	for _, st := range sc.Stores {
		f := StoreFiles{Name: st.Name, Scope: st.Scope.String(), Commit: st.Commit, Copy: st.Dir != ""}
		if f.Copy {
			files, _ := compile.ListDir(st.Dir, st.Name)
			f.Files = len(files)
		}
		if st.Scope == compile.User && f.Files == 0 {
			continue
		}
		out = append(out, f)
	}
	return out
}

// ObservationStatus counts the observation log (docs/design.md, Observations
// and rendering): ready observations crossed their threshold and await lore
// render.
type ObservationStatus struct {
	ByStatus map[string]int `json:"byStatus"`
	Ready    []string       `json:"ready"` // titles
	Broken   int            `json:"broken"`
}

// EvidenceStatus is what the hook's ledger says needs pruning
// (docs/design.md, Evidence of effect), without reading transcripts:
// lore stats says more.
type EvidenceStatus struct {
	Dead       []string `json:"dead"`       // files of active items whose delivery is never
	Noisy      []string `json:"noisy"`      // files of items that fire too often, or whose holds are repeated
	NeverFired []string `json:"neverFired"` // files of items active and watched 30+ days that never fired
	Entries    int      `json:"ledgerEntries"`
}

// StaleItem is an active item not updated for StaleDays or more.
type StaleItem struct {
	File    string `json:"file"`
	Updated string `json:"updated"`
	Days    int    `json:"days"`
}

// LearningsStatus is the staging file's size and consolidation staleness.
type LearningsStatus struct {
	File             string `json:"file"`
	Lines            int    `json:"lines"`
	Entries          int    `json:"entries"`
	Staleness        *int   `json:"staleness"` // active days since the last consolidation; null when unknown
	ConsolidationDue bool   `json:"consolidationDue"`
	SizeTrigger      int    `json:"sizeTrigger"`
	StalenessTrigger int    `json:"stalenessTrigger"`
}

// Status summarizes the store: what there is, what awaits review, what has
// gone stale, what aggregate and consolidate would do.
func Status(s *gitstore.Store, opt StatusOptions) (*StatusReport, error) {
	var err error
	if opt.Today, err = todayOr(opt.Today); err != nil {
		return nil, err
	}
	now, _ := time.Parse(ages.DateLayout, opt.Today)
	in, errs, err := projectInput(s)
	if err != nil {
		return nil, err
	}
	unparsed := slices.DeleteFunc(slices.Clone(errs), func(e error) bool { return config.Problems(e) != nil })
	r := &StatusReport{Counts: map[string]map[string]int{}, StaleDays: opt.StaleDays, Errors: len(unparsed),
		Drafts: []string{}, Stale: []StaleItem{}}
	for _, e := range errs {
		r.ConfigProblems = append(r.ConfigProblems, ConfigProblems(e)...)
	}
	for _, it := range in.Items {
		r.count(it, now)
	}
	sort.Slice(r.Stale, func(a, b int) bool { return r.Stale[a].Days > r.Stale[b].Days })
	r.Skills = outOfDate(aggregateDiff(s.ReadFile, in))
	r.Learnings = learningsStatus(s, in.Config, opt.Today)
	r.Observations, r.ObservationsErr = observationStatus(s)
	r.Stores = otherStores(s)
	if opt.Evidence {
		r.Evidence, r.EvidenceErr = evidenceStatus(s, in, now)
	}
	return r, nil
}

// evidenceStatus reads the ledger alone: what lore stats says of delivery
// and firing, without the transcripts' before and after.
func evidenceStatus(s *gitstore.Store, in compile.Input, now time.Time) (*EvidenceStatus, error) {
	entries, _, err := ledger.Read(s.Root)
	if err != nil {
		return nil, err
	}
	if now.IsZero() {
		now = time.Now()
	}
	rep, err := evidence.Stats(evidence.Input{Items: in.Items, Config: in.Config, Ledger: entries, Now: now}, nil)
	if err != nil {
		return nil, err
	}
	e := &EvidenceStatus{Dead: []string{}, Noisy: []string{}, NeverFired: []string{}, Entries: len(entries)}
	// rep.Dead names ids in the items' order; two files that share an id
	// (neither compiles) are two dead files.
	files := map[string][]string{}
	for _, it := range in.Items {
		files[it.ID] = append(files[it.ID], it.Path)
	}
	for _, id := range rep.Dead {
		if f := files[id]; len(f) > 0 {
			e.Dead, files[id] = append(e.Dead, f[0]), f[1:]
		}
	}
	for _, it := range rep.Items {
		switch it.Verdict {
		case evidence.Noisy:
			e.Noisy = append(e.Noisy, it.File)
		case evidence.NeverFired:
			e.NeverFired = append(e.NeverFired, it.File)
		}
	}
	return e, nil
}

// count adds one item to the counts, drafts and stale items.
func (r *StatusReport) count(it *markdown.Item, now time.Time) {
	if r.Counts[it.Kind] == nil {
		r.Counts[it.Kind] = map[string]int{}
	}
	r.Counts[it.Kind][it.Status]++
	switch it.Status {
	case "draft", "proposed":
		r.Drafts = append(r.Drafts, it.Path)
	case "active", "accepted":
		r.Active++
		if st, ok := stale(it, now, r.StaleDays); ok {
			r.Stale = append(r.Stale, st)
		}
	}
}

// stale reports an item whose newest date (updated, else created) is at
// least days before now; undated items are not judged.
func stale(it *markdown.Item, now time.Time, days int) (StaleItem, bool) {
	d := it.Updated
	if d.IsZero() {
		d = it.Created
	}
	if d.IsZero() || now.IsZero() {
		return StaleItem{}, false
	}
	n := int(now.Sub(d.UTC().Truncate(24*time.Hour)).Hours() / 24)
	if n < days {
		return StaleItem{}, false
	}
	return StaleItem{File: it.Path, Updated: d.Format(ages.DateLayout), Days: n}, true
}

// learningsStatus reports the staging file's size and its consolidation
// staleness (from the history cache `lore ages` keeps), or nil when there
// is no file. A history that cannot be read leaves the staleness unknown
// and only the size can make consolidation due.
func learningsStatus(s *gitstore.Store, cfg config.Config, today string) *LearningsStatus {
	rel := cfg.Learnings
	data, err := s.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil
	}
	c := cfg.Consolidate
	l := &LearningsStatus{File: rel, Lines: markdown.CountLines(data), SizeTrigger: c.SizeTrigger, StalenessTrigger: c.StalenessTrigger}
	rep, err := ages.Load(s, rel, today)
	if err != nil {
		if ls, err := markdown.ParseLearnings(rel, data); err == nil {
			l.Entries = len(ls.Entries)
		}
		l.ConsolidationDue = l.Lines > c.SizeTrigger
		return l
	}
	l.Entries = len(rep.Entries)
	if lc := rep.LastConsolidation; lc != nil {
		n := lc.ActiveDays
		l.Staleness = &n
	}
	l.ConsolidationDue, _ = consolidate.Trigger(rep, c)
	return l
}

// observationStatus folds the observation log.
func observationStatus(s *gitstore.Store) (*ObservationStatus, error) {
	obs, err := ListObservations(s)
	if err != nil {
		return nil, err
	}
	o := &ObservationStatus{ByStatus: map[string]int{}, Ready: []string{}, Broken: obs.Stats.Broken}
	for _, ob := range obs.List {
		o.ByStatus[ob.Status]++
	}
	o.Ready, err = renderable(s, obs.List)
	return o, err
}

// renderable are the titles of the ready observations lore render will
// turn into artifacts: not those it refuses (rejected, or already a scan
// draft), which would otherwise be announced as ready forever.
func renderable(s *gitstore.Store, list []*observe.Observation) ([]string, error) {
	l, err := observe.Open(s)
	if err != nil {
		return nil, err
	}
	will, err := l.Renderable(list)
	titles := []string{}
	for _, ob := range will {
		titles = append(titles, ob.Title)
	}
	sort.Strings(titles)
	return titles, err
}
