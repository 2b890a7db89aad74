package app

import (
	"time"

	"github.com/lore-agents/lore/internal/inject/ledger"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/evidence"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// The reports lore stats and lore replay print (docs/design.md, Evidence
// of effect), named here for the CLI's printers.
type (
	ItemStats    = evidence.ItemStats
	Side         = evidence.Side
	ReplayReport = evidence.ReplayReport
)

// StatsOptions select lore stats' items and period.
type StatsOptions struct {
	Items       []string  // ids, refs, slugs or paths; none: every item
	Since       string    // YYYY-MM-DD; "": everything recorded
	Transcripts []string  // transcript files or folders; nil: the configured scan paths
	Now         time.Time // zero: now
}

// StatsResult is the report and what could not be read on the way.
type StatsResult struct {
	Report        evidence.Report
	Calls         CallsStats // the transcripts read to bring the calls up to date
	LedgerSkipped int        // ledger lines that could not be read
	Skipped       []error    // item files that could not be parsed
}

// Stats brings the recorded calls up to date with the transcripts, reads
// the hook's ledger and the items' activations from git, and reports per
// item (docs/design.md, Evidence of effect).
func Stats(s *gitstore.Store, o StatsOptions) (StatsResult, error) {
	var r StatsResult
	in, err := evidenceInput(s, o.Transcripts, &r)
	if err != nil {
		return r, err
	}
	if o.Since != "" {
		if in.Since, err = time.Parse(time.DateOnly, o.Since); err != nil {
			return r, usagef("--since %q: want a date, YYYY-MM-DD", o.Since)
		}
	}
	in.Now = o.Now
	if in.Now.IsZero() {
		in.Now = time.Now()
	}
	ids, err := resolveAll(compile.Input{Items: in.Items, Stores: in.Stores}.AllItems(), o.Items)
	if err != nil {
		return r, err
	}
	r.Report, err = evidence.Stats(in, ids)
	return r, err
}

// evidenceInput gathers what stats reads: items, config, the ledger, the
// recorded calls, the activations and the stale items.
func evidenceInput(s *gitstore.Store, transcripts []string, r *StatsResult) (evidence.Input, error) {
	var in evidence.Input
	sc, err := LoadScopes(s)
	if err != nil {
		return in, err
	}
	ci, errs := CompileInput(s, sc)
	in.Items, in.Stores, in.Config, r.Skipped = ci.Items, ci.Stores, ci.Config, errs
	// The hook cannot write .gitignore: a store an older lore init made
	// gets its local/ line here, before the ledger could be committed.
	if _, err := s.Local(lorepath.Ledger); err != nil {
		return in, err
	}
	if in.Ledger, r.LedgerSkipped, err = ledger.Read(s.Root); err != nil {
		return in, err
	}
	if in.Calls, r.Calls, err = Calls(s, transcripts); err != nil {
		return in, err
	}
	if in.Activated, err = s.Activations(); err != nil {
		return in, err
	}
	in.Stale, err = staleItems(s, in.Items)
	return in, err
}

// resolveAll resolves each query to an item id; none: nil (every item).
func resolveAll(items []*markdown.Item, qs []string) (map[string]bool, error) {
	if len(qs) == 0 {
		return nil, nil
	}
	ids := map[string]bool{}
	for _, q := range qs {
		it, err := Resolve(items, q)
		if err != nil {
			return nil, err
		}
		ids[it.ID] = true
	}
	return ids, nil
}

// staleItems is each item that lost its ground in HEAD, with why: paths
// that match no file, cited files that are gone.
func staleItems(s *gitstore.Store, items []*markdown.Item) (map[string]string, error) {
	files, err := s.HeadFiles()
	if err != nil {
		return nil, err
	}
	return lint.Stale(items, files), nil
}
