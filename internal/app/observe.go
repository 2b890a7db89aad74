package app

import (
	"os"
	"time"

	"github.com/lore-agents/lore/internal/capture/observe"
	"github.com/lore-agents/lore/internal/capture/review"
	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ObserveOptions are one sighting of a pattern (docs/design.md, Observations
// and rendering).
type ObserveOptions struct {
	Type     string // workflow, procedural, decision or pitfall
	Pattern  string
	Count    int
	At       time.Time // zero: now
	Details  string
	Evidence []string
	Quality  bool // it passes the quality gate
}

// Observed is the observations a sighting touched.
type Observed []*observe.Observation

// Observe records the sighting (one the domain rejects is an InputError)
// and returns the observations it touched.
func Observe(s *gitstore.Store, opt ObserveOptions) (Observed, error) {
	l, err := observe.Open(s)
	if err != nil {
		return nil, err
	}
	at := opt.At
	if at.IsZero() {
		at = time.Now()
	}
	home, _ := os.UserHomeDir()
	evidence, err := observe.RepoEvidence(s.Root, home, opt.Evidence)
	if err != nil {
		return nil, &InputError{err}
	}
	r, err := observe.Sighting(opt.Type, opt.Pattern, opt.Count, at, opt.Quality, opt.Details, evidence...)
	if err != nil {
		return nil, &InputError{err}
	}
	return l.Observe(r)
}

// Observations is the folded observation log.
type Observations struct {
	List  []*observe.Observation
	Stats observe.Stats
	Log   string // the log's path
}

// ListObservations folds the observation log.
func ListObservations(s *gitstore.Store) (*Observations, error) {
	l, err := observe.Open(s)
	if err != nil {
		return nil, err
	}
	obs, st, err := l.Load()
	if err != nil {
		return nil, err
	}
	return &Observations{List: obs, Stats: st, Log: l.Rel()}, nil
}

// Rendered is what lore render wrote, after the reconciliation it runs
// first (Report, nil when it did not get that far).
type Rendered struct {
	Artifacts []observe.Rendered
	Report    *observe.Report
}

// Render reconciles, then writes the artifacts of ready observations. What
// was done before an error is returned with it.
func Render(s *gitstore.Store) (Rendered, error) {
	l, err := observe.Open(s)
	if err != nil {
		return Rendered{}, err
	}
	out, rep, err := l.Render(time.Now())
	return Rendered{out, rep}, err
}

// Reconciled is what lore reconcile did.
type Reconciled struct{ *observe.Report }

// Reconcile compares the render manifest with the files: it penalises
// deleted artifacts, keeps edits and heals a crashed render.
func Reconcile(s *gitstore.Store) (Reconciled, error) {
	l, err := observe.Open(s)
	if err != nil {
		return Reconciled{}, err
	}
	rep, err := l.Reconcile(time.Now())
	return Reconciled{rep}, err
}

// observeScan counts a scan's Tier 2 findings as pitfall sightings and
// reconciles rendered artifacts: the Stop hook's background scan is what
// runs the reconciler between sessions, off the agent's hot path.
func observeScan(s *gitstore.Store, cands []scan.Candidate, now time.Time) error {
	l, err := observe.Open(s)
	if err != nil {
		return err
	}
	rejected, err := review.Rejected(s)
	if err != nil {
		return err
	}
	if recs := observe.FromCandidates(cands, rejected, now); len(recs) > 0 {
		if _, err := l.ObserveOnce(recs...); err != nil {
			return err
		}
	}
	_, err = l.Reconcile(now)
	return err
}
