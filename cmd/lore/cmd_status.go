package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/lore-agents/lore/ages"
	"github.com/lore-agents/lore/app"
	"github.com/lore-agents/lore/compile"
	"github.com/lore-agents/lore/config"
	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/markdown"
	"github.com/lore-agents/lore/observe"
)

// StatusCmd summarizes the store: what there is, what awaits review, what
// has gone stale.
type StatusCmd struct {
	JSON      bool   `name:"json" help:"Print the status as JSON."`
	Line      bool   `help:"Print one line for a status bar."`
	StaleDays int    `placeholder:"N" default:"90" help:"An active item not updated (or created) for N days is stale."`
	Today     string `placeholder:"YYYY-MM-DD" help:"Count from this date instead of today."`
}

type statusReport struct {
	Counts       map[string]map[string]int `json:"counts"`       // kind -> status -> n
	Active       int                       `json:"active"`       // active lessons/pitfalls and accepted decisions
	Drafts       []string                  `json:"drafts"`       // files of draft/proposed items
	Observations *observationStatus        `json:"observations"` // null when the log cannot be read
	Stale        []staleItem               `json:"stale"`
	StaleDays    int                       `json:"staleDays"`
	Skills       []string                  `json:"skillsOutOfDate"` // tools whose skill document lore aggregate would change
	Errors       int                       `json:"errors"`          // files that could not be parsed
	Learnings    *learningsStatus          `json:"learnings"`
}

// observationStatus counts the observation log (DESIGN section 10): ready
// observations crossed their threshold and await lore render.
type observationStatus struct {
	ByStatus map[string]int `json:"byStatus"`
	Ready    []string       `json:"ready"` // titles
	Broken   int            `json:"broken"`
}

type staleItem struct {
	File    string `json:"file"`
	Updated string `json:"updated"`
	Days    int    `json:"days"`
}

type learningsStatus struct {
	File             string `json:"file"`
	Lines            int    `json:"lines"`
	Entries          int    `json:"entries"`
	Staleness        *int   `json:"staleness"` // active days since the last consolidation; null when unknown
	ConsolidationDue bool   `json:"consolidationDue"`
	SizeTrigger      int    `json:"sizeTrigger"`
	StalenessTrigger int    `json:"stalenessTrigger"`
}

// Run gathers the status and prints it.
func (c *StatusCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	today, err := todayFlag(c.Today)
	if err != nil {
		return err
	}
	now, _ := time.Parse(ages.DateLayout, today)
	in, errs, err := app.CompileInput(s, "")
	if err != nil {
		return err
	}
	r := statusReport{Counts: map[string]map[string]int{}, StaleDays: c.StaleDays, Errors: len(errs),
		Drafts: []string{}, Stale: []staleItem{}, Skills: []string{}}
	for _, it := range in.Items {
		if r.Counts[it.Kind] == nil {
			r.Counts[it.Kind] = map[string]int{}
		}
		r.Counts[it.Kind][it.Status]++
		switch it.Status {
		case "draft", "proposed":
			r.Drafts = append(r.Drafts, it.Path)
		case "active", "accepted":
			r.Active++
			if st, ok := stale(it, now, c.StaleDays); ok {
				r.Stale = append(r.Stale, st)
			}
		}
	}
	sort.Slice(r.Stale, func(a, b int) bool { return r.Stale[a].Days > r.Stale[b].Days })
	r.Skills = outOfDateSkills(s.ReadFile, in)
	r.Learnings = learnings(s, in.Config, today)
	r.Observations = observations(s, g)

	switch {
	case c.JSON:
		return g.printJSON(r)
	case c.Line:
		fmt.Fprintln(g.Stdout, r.line())
	default:
		r.print(g)
	}
	return nil
}

// stale reports an item whose newest date (updated, else created) is at
// least days before now; undated items are not judged.
func stale(it *markdown.Item, now time.Time, days int) (staleItem, bool) {
	d := it.Updated
	if d.IsZero() {
		d = it.Created
	}
	if d.IsZero() || now.IsZero() {
		return staleItem{}, false
	}
	n := int(now.Sub(d.UTC().Truncate(24*time.Hour)).Hours() / 24)
	if n < days {
		return staleItem{}, false
	}
	return staleItem{File: it.Path, Updated: d.Format(ages.DateLayout), Days: n}, true
}

// outOfDateSkills lists the tools whose skill document lore aggregate would
// write, rewrite or remove.
func outOfDateSkills(read func(string) ([]byte, error), in compile.Input) []string {
	out := []string{}
	groups := compile.Groups(in.Items, in.Config.Inject.MinConfidence)
	have := map[string]compile.Skill{}
	for _, sk := range in.Skills {
		have[sk.Path] = sk
	}
	for tool, lessons := range groups {
		rel := compile.SkillPath(tool)
		sk, ok := have[rel]
		delete(have, rel)
		if ok {
			if old, err := read(rel); err == nil && bytes.Equal(old, compile.SkillDoc(tool, sk.ID, lessons)) {
				continue
			}
		}
		out = append(out, tool)
	}
	for _, sk := range have {
		out = append(out, sk.Tool)
	}
	sort.Strings(out)
	return out
}

// learnings reports the staging file's size and its consolidation
// staleness (from the history cache `lore ages` keeps), or nil when there
// is no file. A history that cannot be read leaves the staleness unknown.
func learnings(s *gitstore.Store, cfg config.Config, today string) *learningsStatus {
	rel := cfg.Learnings
	data, err := s.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil
	}
	c := cfg.Consolidate
	l := &learningsStatus{File: rel, Lines: bytes.Count(data, []byte("\n")), SizeTrigger: c.SizeTrigger, StalenessTrigger: c.StalenessTrigger}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		l.Lines++
	}
	rep, err := ages.Load(s, rel, today)
	if err != nil {
		if ls, err := markdown.ParseLearnings(rel, data); err == nil {
			l.Entries = len(ls.Entries)
		}
	} else {
		l.Entries = len(rep.Entries)
		oldest := 0
		for _, e := range rep.Entries {
			oldest = max(oldest, e.Age)
		}
		if lc := rep.LastConsolidation; lc != nil {
			n := lc.ActiveDays
			l.Staleness = &n
			l.ConsolidationDue = n >= c.StalenessTrigger
		} else {
			l.ConsolidationDue = oldest >= c.StalenessTrigger
		}
	}
	l.ConsolidationDue = l.ConsolidationDue || l.Lines > c.SizeTrigger
	return l
}

func (r statusReport) line() string {
	parts := []string{fmt.Sprintf("%d active", r.Active)}
	if n := len(r.Drafts); n > 0 {
		parts = append(parts, plural(n, "draft"))
	}
	if o := r.Observations; o != nil && len(o.Ready) > 0 {
		parts = append(parts, fmt.Sprintf("%d ready", len(o.Ready)))
	}
	if n := len(r.Stale); n > 0 {
		parts = append(parts, fmt.Sprintf("%d stale", n))
	}
	if n := len(r.Skills); n > 0 {
		parts = append(parts, fmt.Sprintf("aggregate %d", n))
	}
	if l := r.Learnings; l != nil {
		p := fmt.Sprintf("learnings %d lines", l.Lines)
		if l.ConsolidationDue {
			p += " (consolidate)"
		}
		parts = append(parts, p)
	}
	return "lore: " + strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (r statusReport) print(g *Globals) {
	w := g.Stdout
	kinds := make([]string, 0, len(r.Counts))
	for k := range r.Counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	if len(kinds) == 0 {
		fmt.Fprintln(w, "no items yet: lore add, or lore scan")
	}
	for _, k := range kinds {
		var sts []string
		total := 0
		for st, n := range r.Counts[k] {
			sts = append(sts, fmt.Sprintf("%d %s", n, st))
			total += n
		}
		sort.Strings(sts)
		fmt.Fprintf(w, "%-10s %3d  (%s)\n", k+"s", total, strings.Join(sts, ", "))
	}
	if r.Errors > 0 {
		fmt.Fprintf(w, "%d file(s) could not be parsed: lore lint\n", r.Errors)
	}
	if n := len(r.Drafts); n > 0 {
		fmt.Fprintf(w, "\n%d draft item(s) await review: lore review\n", n)
		for _, d := range r.Drafts {
			fmt.Fprintf(w, "  %s\n", d)
		}
	}
	if o := r.Observations; o != nil && len(o.ByStatus) > 0 {
		var sts []string
		for st, n := range o.ByStatus {
			sts = append(sts, fmt.Sprintf("%d %s", n, st))
		}
		sort.Strings(sts)
		fmt.Fprintf(w, "\nobservations: %s\n", strings.Join(sts, ", "))
		if len(o.Ready) > 0 {
			fmt.Fprintf(w, "%d observation(s) ready to render: lore render\n", len(o.Ready))
			for _, t := range o.Ready {
				fmt.Fprintf(w, "  %s\n", t)
			}
		}
	}
	if n := len(r.Stale); n > 0 {
		fmt.Fprintf(w, "\n%d active item(s) not updated for %d days or more:\n", n, r.StaleDays)
		for _, st := range r.Stale {
			fmt.Fprintf(w, "  %s (updated %s, %d days)\n", st.File, st.Updated, st.Days)
		}
	}
	if len(r.Skills) > 0 {
		fmt.Fprintf(w, "\nskills out of date for tool(s) %s: lore aggregate\n", strings.Join(r.Skills, ", "))
	}
	if l := r.Learnings; l != nil {
		st := "unknown"
		if l.Staleness != nil {
			st = fmt.Sprintf("%d active days", *l.Staleness)
		}
		fmt.Fprintf(w, "\n%s: %d lines, %d entries, last consolidation %s", l.File, l.Lines, l.Entries, st)
		if l.ConsolidationDue {
			fmt.Fprint(w, " (consolidation due: lore consolidate)")
		}
		fmt.Fprintln(w)
	}
}

// observations folds the observation log; a log that cannot be read is
// reported on stderr and counted as unknown.
func observations(s *gitstore.Store, g *Globals) *observationStatus {
	l, err := observe.Open(s)
	var obs []*observe.Observation
	var st observe.Stats
	if err == nil {
		obs, st, err = l.Load()
	}
	if err != nil {
		fmt.Fprintf(g.Stderr, "lore: status: observations: %v\n", err)
		return nil
	}
	o := &observationStatus{ByStatus: map[string]int{}, Ready: []string{}, Broken: st.Broken}
	for _, ob := range obs {
		o.ByStatus[ob.Status]++
		if ob.Status == observe.Ready {
			o.Ready = append(o.Ready, ob.Title)
		}
	}
	sort.Strings(o.Ready)
	return o
}
