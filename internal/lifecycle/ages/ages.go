// Package ages computes git-active-day ages of learnings.md entries and the
// staleness since the last consolidation, and renders the ages report
// (docs/design.md, Ages and staleness).
package ages

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// DateLayout is how dates are written: YYYY-MM-DD.
const DateLayout = "2006-01-02"

// Entry is one learnings entry with its age.
type Entry struct {
	Title  string `json:"title"`
	Line   int    `json:"line"`
	Commit string `json:"commit"` // "" when the heading is not committed
	Added  string `json:"added"`
	Age    int    `json:"age"`
	Body   string `json:"-"`
	Kind   string `json:"-"`
	Start  int    `json:"-"` // byte range of the entry in the file
	End    int    `json:"-"`
}

// Consolidation is the last consolidation commit and the active days since.
type Consolidation struct {
	Commit     string `json:"commit"`
	Date       string `json:"date"`
	ActiveDays int    `json:"activeDays"`
}

// Report is what `lore ages` prints: section 15's JSON, entries in file order.
type Report struct {
	File              string         `json:"file"`
	Lines             int            `json:"lines"`
	Today             string         `json:"today"`
	LastConsolidation *Consolidation `json:"lastConsolidation"`
	Entries           []Entry        `json:"entries"`
	Shallow           bool           `json:"shallow,omitempty"`
}

// ActiveDays counts the dates d in sorted dates with since < d <= today.
func ActiveDays(dates []string, since, today string) int {
	lo := sort.SearchStrings(dates, since)
	if lo < len(dates) && dates[lo] == since {
		lo++
	}
	hi := sort.SearchStrings(dates, today)
	if hi < len(dates) && dates[hi] == today {
		hi++
	}
	return max(hi-lo, 0)
}

// Compute combines the working-tree file (W) with its git history.
func Compute(file string, data []byte, h *gitstore.History, today string) (*Report, error) {
	l, err := markdown.ParseLearnings(file, data)
	if err != nil {
		return nil, err
	}
	r := &Report{File: file, Lines: l.Lines, Today: today, Entries: []Entry{}, Shallow: h.Shallow}
	if h.LastConsolidation != nil {
		r.LastConsolidation = &Consolidation{
			Commit: h.LastConsolidation.Commit, Date: h.LastConsolidation.Date,
			ActiveDays: ActiveDays(h.Dates, h.LastConsolidation.Date, today),
		}
	}
	for _, e := range l.Entries {
		out := Entry{Title: e.Title, Line: e.Line, Added: today, Body: e.Body, Kind: e.Kind, Start: e.Start, End: e.End}
		if o, ok := h.Origins[e.Title]; ok {
			out.Commit, out.Added = o.Commit, o.Date
			out.Age = ActiveDays(h.Dates, o.Date, today)
		}
		r.Entries = append(r.Entries, out)
	}
	return r, nil
}

// Load reads the learnings file at rel (repo-relative) from the work tree
// and ages its entries from the repository's history.
func Load(s *gitstore.Store, rel, today string) (*Report, error) {
	data, err := s.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("ages: %s: no such file", rel)
	}
	if err != nil {
		return nil, fmt.Errorf("ages: %w", err)
	}
	h, err := s.History(rel)
	if err != nil {
		return nil, fmt.Errorf("ages: %s: %w", rel, err)
	}
	return Compute(rel, data, h, today)
}

// Today is the local date.
func Today() string { return time.Now().Format(DateLayout) }

// ParseDate checks a YYYY-MM-DD date.
func ParseDate(s string) (string, error) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return "", fmt.Errorf("ages: date %q: want YYYY-MM-DD", s)
	}
	return t.Format(DateLayout), nil
}

// Oldest returns the entries oldest first (highest age, then earliest added,
// then file order).
func (r *Report) Oldest() []Entry {
	out := append([]Entry(nil), r.Entries...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Age != out[j].Age {
			return out[i].Age > out[j].Age
		}
		return out[i].Added < out[j].Added
	})
	return out
}

// AtLeast counts entries with age >= days.
func (r *Report) AtLeast(days int) int {
	n := 0
	for _, e := range r.Entries {
		if e.Age >= days {
			n++
		}
	}
	return n
}
