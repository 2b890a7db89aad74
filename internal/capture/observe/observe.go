// Package observe keeps the observation log (docs/design.md, Observations and
// rendering): patterns seen across sessions, counted in an append-only JSONL
// file, scored with the per-type confidence formula, rendered into agent
// artifacts once ready, and reconciled with what the user did to those
// artifacts.
package observe

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"time"
	"unicode"
)

// Observation types.
const (
	Workflow   = "workflow"
	Procedural = "procedural"
	Decision   = "decision"
	Pitfall    = "pitfall"
)

// Types lists the observation types in display order.
var Types = []string{Workflow, Procedural, Decision, Pitfall}

// Statuses of the machine observing -> ready -> created -> deprecated.
const (
	Observing  = "observing"
	Ready      = "ready"
	Created    = "created"
	Deprecated = "deprecated"
)

// Threshold is one row of the per-type table (docs/design.md, Observations and
// rendering).
type Threshold struct {
	Required int     // count that reaches confidence 1.00 (capped at 0.95)
	Spread   int     // whole days between first and last sighting
	Promote  float64 // confidence needed to become ready
}

// Thresholds is that table: required 3/4/2/2, spread 3/5/0/0 days,
// promote 0.60/0.70/0.65/0.65.
var Thresholds = map[string]Threshold{
	Workflow:   {Required: 3, Spread: 3, Promote: 0.60},
	Procedural: {Required: 4, Spread: 5, Promote: 0.70},
	Decision:   {Required: 2, Spread: 0, Promote: 0.65},
	Pitfall:    {Required: 2, Spread: 0, Promote: 0.65},
}

// DeletePenalty multiplies an observation's confidence when the user deletes
// its artifact.
const DeletePenalty = 0.3

// ValidType reports whether t is one of Types.
func ValidType(t string) bool { _, ok := Thresholds[t]; return ok }

// Confidence is min(floor(count*100/required), 95)/100, in integer
// arithmetic so 2/3 is 0.66 exactly.
func Confidence(typ string, count int) float64 {
	th, ok := Thresholds[typ]
	if !ok || count <= 0 {
		return 0
	}
	return float64(min(count*100/th.Required, 95)) / 100
}

// DaySpread is the number of whole days between first and last sighting.
func DaySpread(first, last time.Time) int {
	if last.Before(first) {
		return 0
	}
	return int(last.Sub(first) / (24 * time.Hour))
}

// Observation is the folded state of one pattern.
type Observation struct {
	ID         string
	Type       string
	Pattern    string // normalized: the key records fold on
	Title      string // as first written, for artifacts
	Details    string // latest non-empty body text, for artifacts
	Count      int
	FirstSeen  time.Time
	LastSeen   time.Time
	QualityOK  bool
	Evidence   []string
	Status     string
	Confidence float64
	Penalty    float64 // product of the penalties applied (1: none)
}

// Promotable reports the readiness rule: quality_ok, confidence >= promote and
// day spread >= spread.
func (o *Observation) Promotable() bool {
	th := Thresholds[o.Type]
	return o.QualityOK && o.Confidence >= th.Promote && DaySpread(o.FirstSeen, o.LastSeen) >= th.Spread
}

// Normalize turns a pattern into its fold key: lowercase, punctuation runs
// to one space, trimmed. "Run `make lint` before committing!" and
// "run make lint before committing" are the same pattern.
func Normalize(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		space = true
	}
	return b.String()
}

// ID is an observation's stable id: the same type and pattern give the same
// id in every clone, so teammates' records fold together.
func ID(typ, pattern string) string {
	sum := sha256.Sum256([]byte(typ + "\x00" + Normalize(pattern)))
	return "obs_" + hex.EncodeToString(sum[:6])
}

// maxEvidence bounds the evidence kept per observation.
const maxEvidence = 5

// Fold replays records (in log order) into observations, sorted by type
// then pattern. Records fold by id; see Record for the rules.
func Fold(recs []Record) []*Observation {
	// Status changes apply in time order so a union merge of two logs, whose
	// lines interleave arbitrarily, folds to the same state.
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return recs[order[a]].At().Before(recs[order[b]].At()) })
	byID := map[string]*Observation{}
	applied := map[string]bool{} // status/penalty records already applied, by content
	for _, i := range order {
		r := recs[i]
		if r.ID == "" {
			r.ID = ID(r.Type, r.Pattern)
		}
		o := byID[r.ID]
		if o == nil {
			o = &Observation{ID: r.ID, Type: r.Type, Pattern: Normalize(r.Pattern), Title: r.Title, Status: Observing, Penalty: 1}
			byID[r.ID] = o
		}
		if r.Count > 0 {
			o.sighted(r)
		}
		o.changed(r, applied)
	}
	out := make([]*Observation, 0, len(byID))
	for _, o := range byID {
		o.settle()
		out = append(out, o)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Type != out[b].Type {
			return typeRank(out[a].Type) < typeRank(out[b].Type)
		}
		return out[a].Pattern < out[b].Pattern
	})
	return out
}

// sighted folds a sighting in: counts add, the seen dates widen, quality
// holds once any sighting says so, and up to maxEvidence new evidence.
func (o *Observation) sighted(r Record) {
	o.Count += r.Count
	if first := r.first(); o.FirstSeen.IsZero() || first.Before(o.FirstSeen) {
		o.FirstSeen = first
	}
	if r.LastSeen.After(o.LastSeen) {
		o.LastSeen = r.LastSeen
	}
	o.QualityOK = o.QualityOK || r.QualityOK
	if r.Details != "" {
		o.Details = r.Details
	}
	if o.Title == "" {
		o.Title = r.Title
	}
	for _, e := range r.Evidence {
		if len(o.Evidence) < maxEvidence && !contains(o.Evidence, e) {
			o.Evidence = append(o.Evidence, e)
		}
	}
}

// changed applies a status change (created, deprecated) once: the same
// change recorded twice (a retried reconcile, both sides of a merge)
// counts once.
func (o *Observation) changed(r Record, applied map[string]bool) {
	if r.Status != Created && r.Status != Deprecated {
		return
	}
	key := r.ID + "\x00" + r.Status + "\x00" + r.Artifact
	if applied[key] {
		return
	}
	applied[key] = true
	o.Status = r.Status
	if r.Penalty > 0 {
		o.Penalty *= r.Penalty
	}
}

// settle derives the title, confidence and ready status of a folded
// observation.
func (o *Observation) settle() {
	if o.Title == "" {
		o.Title = o.Pattern
	}
	o.Confidence = float64(int(Confidence(o.Type, o.Count)*o.Penalty*100+1e-9)) / 100
	if o.Status == Observing && o.Promotable() {
		o.Status = Ready
	}
}

func typeRank(t string) int {
	for i, x := range Types {
		if x == t {
			return i
		}
	}
	return len(Types)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
