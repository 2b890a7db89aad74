package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/capture/observe"
)

// Print says where each touched observation stands, and what a ready one
// becomes.
func printObserved(w io.Writer, obs app.Observed) {
	for _, o := range obs {
		th := observe.Thresholds[o.Type]
		fmt.Fprintf(w, "%s %s %q: count %d, confidence %.2f (promote %.2f), spread %d/%d days: %s\n",
			o.ID, o.Type, o.Title, o.Count, o.Confidence, th.Promote, observe.DaySpread(o.FirstSeen, o.LastSeen), th.Spread, o.Status)
		if o.Status == observe.Ready {
			fmt.Fprintln(w, "ready: `lore render` turns it into", target(o.Type))
		}
	}
}

func target(typ string) string {
	switch typ {
	case observe.Workflow:
		return "a slash command staged in " + observe.Staged(observe.CommandsDir) + "/ (lore promote moves it to " + observe.CommandsDir + "/)"
	case observe.Procedural:
		return "a skill staged in " + observe.Staged(observe.SkillsDir) + "/ (lore promote moves it to " + observe.SkillsDir + "/)"
	}
	return "a " + typ + " item in .lore/"
}

// Print lists the observations, one a line.
func printObservations(w io.Writer, l *app.Observations) {
	if len(l.List) == 0 {
		fmt.Fprintf(w, "no observations in %s\n", l.Log)
	}
	for _, o := range l.List {
		q := ""
		if !o.QualityOK {
			q = " (quality gate not passed)"
		}
		fmt.Fprintf(w, "%s  %-10s %-10s count %d  confidence %.2f  spread %dd  %s%s\n",
			o.ID, o.Type, o.Status, o.Count, o.Confidence, observe.DaySpread(o.FirstSeen, o.LastSeen), o.Title, q)
	}
	if l.Stats.Broken > 0 {
		fmt.Fprintf(w, "skipped %d broken lines in %s\n", l.Stats.Broken, l.Log)
	}
}

// Print says what the render reconciled and wrote; done (it ran to the
// end) with nothing written says so.
func printRendered(w io.Writer, r app.Rendered, done bool) {
	if r.Report != nil {
		printReport(w, r.Report)
	}
	for _, a := range r.Artifacts {
		fmt.Fprintf(w, "rendered %s (%s %s, confidence %.2f)\n", a.Path, a.Observation.Type, a.Observation.ID, a.Observation.Confidence)
	}
	if done && len(r.Artifacts) == 0 && (r.Report == nil || len(r.Report.Drafted) == 0) {
		fmt.Fprintln(w, "nothing ready to render")
	}
}

// Print says what the reconciliation did, and sums it up.
func printReconciled(w io.Writer, r app.Reconciled) {
	rep := r.Report
	printReport(w, rep)
	fmt.Fprintf(w, "reconciled: %d unchanged, %d edited, %d deleted, %d healed, %d left alone\n",
		rep.Unchanged, len(rep.Edited), len(rep.Deleted), len(rep.Healed), len(rep.Unmatched)+len(rep.Ambiguous))
}

func printReport(w io.Writer, rep *observe.Report) {
	for _, p := range rep.Deleted {
		fmt.Fprintf(w, "deleted %s: its observation's confidence x%.1f, deprecated\n", p, observe.DeletePenalty)
	}
	for _, p := range rep.Edited {
		fmt.Fprintf(w, "edited %s: left alone (your edit stands)\n", p)
	}
	for _, p := range rep.Healed {
		fmt.Fprintf(w, "healed %s: recorded after an interrupted render\n", p)
	}
	for _, p := range rep.Unmatched {
		fmt.Fprintf(w, "left alone %s: no ready observation matches it\n", p)
	}
	for _, p := range rep.Ambiguous {
		fmt.Fprintf(w, "left alone %s: several ready observations match it\n", p)
	}
	for _, d := range rep.Drafted {
		id, rel, _ := strings.Cut(d, " ")
		fmt.Fprintf(w, "not rendered %s: the incident is already drafted as %s\n", id, rel)
	}
}
