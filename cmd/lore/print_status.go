package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/app"
)

// Line is the status in one line, for a status bar.
func statusLine(r *app.StatusReport) string {
	parts := []string{fmt.Sprintf("%d active", r.Active)}
	// The other stores by file count, as the full status names them: a
	// project whose lessons live in its organisation's store is not empty.
	for _, st := range r.Stores {
		if !st.Copy {
			parts = append(parts, st.Name+" not synced")
			continue
		}
		parts = append(parts, st.Name+" "+plural(st.Files, "file"))
	}
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

// Print writes the status as text: one paragraph per part, each naming
// the command that acts on it.
func printStatus(w io.Writer, r *app.StatusReport) {
	printStatusCounts(w, r)
	if n := len(r.Drafts); n > 0 {
		fmt.Fprintf(w, "\n%d draft item(s) await review: lore review\n", n)
		printIndented(w, r.Drafts)
	}
	printObservationStatus(w, r.Observations)
	if n := len(r.Stale); n > 0 {
		fmt.Fprintf(w, "\n%d active item(s) not updated for %d days or more:\n", n, r.StaleDays)
		for _, st := range r.Stale {
			fmt.Fprintf(w, "  %s (updated %s, %d days)\n", st.File, st.Updated, st.Days)
		}
	}
	if len(r.Skills) > 0 {
		fmt.Fprintf(w, "\nskills out of date for tool(s) %s: lore aggregate\n", strings.Join(r.Skills, ", "))
	}
	printLearningsStatus(w, r.Learnings)
	printEvidenceStatus(w, r.Evidence)
}

// printEvidenceStatus names what the ledger says to prune.
func printEvidenceStatus(w io.Writer, e *app.EvidenceStatus) {
	if e == nil {
		return
	}
	for _, g := range []struct {
		files []string
		what  string
	}{
		{e.Dead, "never reach an agent (lore list --json says why)"},
		{e.Noisy, "fire too often, or their holds are repeated (lore stats)"},
		{e.NeverFired, "never fired in 30 days of hook calls (lore stats)"},
	} {
		if len(g.files) > 0 {
			fmt.Fprintf(w, "\n%d item(s) %s:\n", len(g.files), g.what)
			printIndented(w, g.files)
		}
	}
}

func printStatusCounts(w io.Writer, r *app.StatusReport) {
	kinds := make([]string, 0, len(r.Counts))
	for k := range r.Counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	if len(kinds) == 0 {
		fmt.Fprintln(w, "no items in this repository yet: lore add, or lore scan")
	}
	for _, k := range kinds {
		total := 0
		for _, n := range r.Counts[k] {
			total += n
		}
		fmt.Fprintf(w, "%-10s %3d  (%s)\n", k+"s", total, countList(r.Counts[k]))
	}
	for _, st := range r.Stores {
		name := st.Name
		if st.Scope != st.Name {
			name += " (" + st.Scope + ")"
		}
		switch {
		case !st.Copy:
			fmt.Fprintf(w, "%s: no copy here, its items reach no agent: lore sync\n", name)
		case st.Commit != "":
			fmt.Fprintf(w, "%s: %s at %.12s: lore list shows them\n", name, plural(st.Files, "item file"), st.Commit)
		default:
			fmt.Fprintf(w, "%s: %s: lore list shows them\n", name, plural(st.Files, "item file"))
		}
	}
	if r.Errors > 0 {
		fmt.Fprintf(w, "%d file(s) could not be parsed: lore lint\n", r.Errors)
	}
	for _, p := range r.ConfigProblems {
		fmt.Fprintln(w, visible(p))
	}
}

// countList is "2 active, 1 draft": the counts in order.
func countList(by map[string]int) string {
	var sts []string
	for st, n := range by {
		sts = append(sts, fmt.Sprintf("%d %s", n, st))
	}
	sort.Strings(sts)
	return strings.Join(sts, ", ")
}

func printIndented(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

func printObservationStatus(w io.Writer, o *app.ObservationStatus) {
	if o == nil || len(o.ByStatus) == 0 {
		return
	}
	fmt.Fprintf(w, "\nobservations: %s\n", countList(o.ByStatus))
	// A ready observation already drafted by a scan, or rejected, is one
	// lore render leaves alone: nothing to do, and said so once.
	if done := o.ByStatus["ready"] - len(o.Ready); done > 0 {
		fmt.Fprintf(w, "%d of the ready are already drafted or rejected: nothing to render\n", done)
	}
	if len(o.Ready) > 0 {
		fmt.Fprintf(w, "%d observation(s) ready to render: lore render\n", len(o.Ready))
		printIndented(w, o.Ready)
	}
}

func printLearningsStatus(w io.Writer, l *app.LearningsStatus) {
	if l == nil {
		return
	}
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
