package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lore-agents/lore/app"
)

// StatusCmd summarizes the store: what there is, what awaits review, what
// has gone stale.
type StatusCmd struct {
	JSON      bool   `name:"json" help:"Print the status as JSON."`
	Line      bool   `help:"Print one line for a status bar."`
	StaleDays int    `placeholder:"N" default:"90" help:"An active item not updated (or created) for N days is stale."`
	Today     string `placeholder:"YYYY-MM-DD" help:"Count from this date instead of today."`
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
	r, err := app.Status(s, app.StatusOptions{StaleDays: c.StaleDays, Today: today})
	if err != nil {
		return err
	}
	if r.ObservationsErr != nil {
		fmt.Fprintf(g.Stderr, "lore: status: observations: %v\n", r.ObservationsErr)
	}
	switch {
	case c.JSON:
		return g.printJSON(r)
	case c.Line:
		fmt.Fprintln(g.Stdout, statusLine(r))
	default:
		printStatus(g, r)
	}
	return nil
}

func statusLine(r *app.StatusReport) string {
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

func printStatus(g *Globals, r *app.StatusReport) {
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
