package app

import (
	"fmt"
	"github.com/lore-agents/lore/internal/capture/observe"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/capture/review"
	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Draft is one draft awaiting review, as lore review --json prints it.
type Draft struct {
	ID         string   `json:"id"`
	Path       string   `json:"path"`
	Kind       string   `json:"kind"`
	Title      string   `json:"title"`
	Priority   int      `json:"priority"`
	Confidence float64  `json:"confidence"`
	Signal     string   `json:"signal"`
	Sessions   []string `json:"sessions"`
	Mistake    string   `json:"mistake"`
	Fix        string   `json:"fix"`
	Evidence   []string `json:"evidence"`
	// Enforce is the draft's proposed enforcement (once: its first
	// matching call in a context is held), "" for none.
	Enforce string `json:"enforce,omitempty"`
	// OnPromote says what promoting it as it is would do to reach an
	// agent: raise its priority, or refuse and why ("" when nothing).
	OnPromote string `json:"onPromote,omitempty"`

	item *markdown.Item
}

// Review is the drafts awaiting review, to decide one by one.
type Review struct {
	Drafts []Draft
	s      *gitstore.Store
}

// OpenReview loads the drafts awaiting review.
func OpenReview(s *gitstore.Store) (*Review, error) {
	items, err := review.Drafts(s)
	if err != nil {
		return nil, err
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	set := compile.Settings(cfg)
	r := &Review{Drafts: make([]Draft, 0, len(items)), s: s}
	for _, it := range items {
		d := toDraft(it)
		d.OnPromote = onPromote(it, set)
		r.Drafts = append(r.Drafts, d)
	}
	return r, nil
}

// onPromote says what promote would change for the draft to reach an
// agent, on a copy: the draft itself is not touched.
func onPromote(it *markdown.Item, set manifest.Settings) string {
	c, err := markdown.Parse(it.Path, it.Raw())
	if err != nil {
		return ""
	}
	if c.Confidence < set.MinConfidence {
		if err := c.Set("confidence", set.MinConfidence); err != nil { // promote raises it first
			return ""
		}
	}
	note, err := review.Deliverable(c, "", set)
	if err != nil {
		return err.Error()
	}
	return note
}

// Promote makes draft i active; notes say what the promotion left to do.
func (r *Review) Promote(i int) (notes []string, err error) {
	cfg, err := r.s.Config()
	if err != nil {
		return nil, err
	}
	_, notes, err = review.Promote(r.s, r.Drafts[i].Path, review.Refinement{}, compile.Settings(cfg), time.Now())
	return notes, err
}

// Archive archives draft i.
func (r *Review) Archive(i int) error {
	_, err := review.SetStatus(r.s, r.Drafts[i].Path, "archived", review.Refinement{}, time.Now())
	return err
}

// Reject removes draft i and remembers it so scans do not propose it again.
func (r *Review) Reject(i int) error { return review.Reject(r.s, r.Drafts[i].item) }

func toDraft(it *markdown.Item) Draft {
	d := Draft{ID: it.ID, Path: it.Path, Kind: it.Kind, Title: it.Title, Priority: int(it.Priority),
		Confidence: it.Confidence, Signal: "manual", Sessions: []string{}, Evidence: []string{}, item: it}
	if it.Source != nil {
		d.Signal = it.Source.Type
		if it.Source.Sessions != nil {
			d.Sessions = it.Source.Sessions
		}
	}
	if n := it.Node("source"); n != nil {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "signal" {
				d.Signal = n.Content[i+1].Value
			}
		}
	}
	if it.Enforce != markdown.EnforceNone {
		d.Enforce = it.Enforce
	}
	d.Mistake = firstSection(it, "Mistake", "Issue")
	d.Fix = firstSection(it, "Fix", "Avoid")
	for _, l := range strings.Split(it.Section("Evidence"), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")); l != "" {
			d.Evidence = append(d.Evidence, l)
		}
	}
	return d
}

func firstSection(it *markdown.Item, names ...string) string {
	for _, n := range names {
		if s := it.Section(n); s != "" {
			return s
		}
	}
	return ""
}

// Change is an item whose status a command set.
type Change struct {
	Item    *markdown.Item
	Status  string
	Notes   []string // what a promotion left to do
	Skipped []error  // files that could not be parsed
}

// Refinement is what a reviewer changes while promoting: title, priority,
// triggers, enforce.
type Refinement = review.Refinement

// Promote makes the item q names active after the reviewer's refinements;
// only the keys it changes are rewritten, and an invalid result writes
// nothing. A staged command or skill (lore render's) is moved to where
// Claude Code loads it.
func Promote(s *gitstore.Store, q string, r Refinement) (Change, error) {
	c, err := setStatus(s, q, "active", r)
	if err == nil || c.Item != nil {
		return c, err
	}
	if staged, ok, aerr := activateStaged(s, q); ok {
		return staged, aerr
	}
	return c, err
}

// activateStaged moves the staged artifact q names to its live path; ok
// is false when q names none.
func activateStaged(s *gitstore.Store, q string) (Change, bool, error) {
	l, err := observe.Open(s)
	if err != nil {
		return Change{}, false, nil
	}
	from, to, ok, err := l.Activate(q)
	c := Change{Item: &markdown.Item{Path: to, Title: "(from " + from + ")"}, Status: "active",
		Notes: []string{"Claude Code loads it from its next session"}}
	return c, ok, err
}

// Archive archives the item q names.
func Archive(s *gitstore.Store, q string) (Change, error) {
	return setStatus(s, q, "archived", review.Refinement{})
}

// Reject records the draft's content hash in the cache and removes it, so
// scans do not propose it again.
func Reject(s *gitstore.Store, q string) (Change, error) {
	it, skipped, err := resolveIn(s, q)
	c := Change{Item: it, Status: "rejected", Skipped: skipped}
	if err != nil {
		return c, err
	}
	return c, review.Reject(s, it)
}

func setStatus(s *gitstore.Store, q, status string, r review.Refinement) (Change, error) {
	it, skipped, err := resolveIn(s, q)
	c := Change{Status: status, Skipped: skipped}
	if err != nil {
		return c, err
	}
	if it.Kind == markdown.KindDecision {
		return c, fmt.Errorf("%s is a decision: its statuses are %s", it.Path, strings.Join(markdown.Statuses(it.Kind), ", "))
	}
	if status != "active" {
		c.Item, err = review.SetStatus(s, it.Path, status, r, time.Now())
		return c, err
	}
	cfg, err := s.Config()
	if err != nil {
		return c, err
	}
	c.Item, c.Notes, err = review.Promote(s, it.Path, r, compile.Settings(cfg), time.Now())
	return c, err
}
