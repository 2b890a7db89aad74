package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lore-agents/lore/app"
	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/observe"
)

// LearningLoop groups the observation commands of DESIGN section 10.
type LearningLoop struct {
	Observe   ObserveCmd   `cmd:"" help:"Record a pattern seen in a session (workflow, procedural, decision, pitfall), or list observations."`
	Render    RenderCmd    `cmd:"" help:"Turn ready observations into a slash command, a skill, a decision or a pitfall."`
	Reconcile ReconcileCmd `cmd:"" help:"Compare rendered artifacts with the files: penalise deleted ones, keep edits, heal a crashed render."`
}

// ObserveCmd records one sighting, or lists the observations.
type ObserveCmd struct {
	Type     string   `arg:"" optional:"" enum:",workflow,procedural,decision,pitfall" default:"" help:"workflow, procedural, decision or pitfall (none: list the observations)."`
	Pattern  string   `arg:"" optional:"" help:"The pattern, in words; sightings fold on its normalized form."`
	Count    int      `default:"1" help:"How many sightings this records."`
	At       string   `help:"When it was seen: YYYY-MM-DD or RFC 3339 (default: now)."`
	Details  string   `help:"What to do: the body of the artifact it becomes."`
	Evidence []string `sep:"none" help:"Where it was seen (repeatable), e.g. a transcript file and line."`
	Quality  bool     `default:"true" negatable:"" help:"It passes the quality gate: specific, actionable, in scope (--no-quality: count it but never promote it)."`
}

// Run records or lists.
func (c *ObserveCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	if c.Type == "" {
		if c.Pattern != "" {
			return usagef("give a type before the pattern")
		}
		return listObservations(g, s)
	}
	if strings.TrimSpace(c.Pattern) == "" {
		return usagef("%s: a pattern is required", c.Type)
	}
	opt := app.ObserveOptions{Type: c.Type, Pattern: c.Pattern, Count: c.Count, Details: c.Details, Evidence: c.Evidence, Quality: c.Quality}
	if c.At != "" {
		if opt.At, err = parseWhen(c.At); err != nil {
			return err
		}
	}
	touched, err := app.Observe(s, opt)
	if err != nil {
		return asUsage(err)
	}
	for _, o := range touched {
		th := observe.Thresholds[o.Type]
		fmt.Fprintf(g.Stdout, "%s %s %q: count %d, confidence %.2f (promote %.2f), spread %d/%d days: %s\n",
			o.ID, o.Type, o.Title, o.Count, o.Confidence, th.Promote, observe.DaySpread(o.FirstSeen, o.LastSeen), th.Spread, o.Status)
		if o.Status == observe.Ready {
			fmt.Fprintln(g.Stdout, "ready: `lore render` turns it into", target(o.Type))
		}
	}
	return nil
}

func target(typ string) string {
	switch typ {
	case observe.Workflow:
		return "a slash command in " + observe.CommandsDir + "/"
	case observe.Procedural:
		return "a skill in " + observe.SkillsDir + "/"
	}
	return "a " + typ + " item in .lore/"
}

func parseWhen(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usagef("--at %q: want YYYY-MM-DD or RFC 3339", s)
}

func listObservations(g *Globals, s *gitstore.Store) error {
	l, err := app.ListObservations(s)
	if err != nil {
		return err
	}
	if len(l.List) == 0 {
		fmt.Fprintf(g.Stdout, "no observations in %s\n", l.Log)
	}
	for _, o := range l.List {
		q := ""
		if !o.QualityOK {
			q = " (quality gate not passed)"
		}
		fmt.Fprintf(g.Stdout, "%s  %-10s %-10s count %d  confidence %.2f  spread %dd  %s%s\n",
			o.ID, o.Type, o.Status, o.Count, o.Confidence, observe.DaySpread(o.FirstSeen, o.LastSeen), o.Title, q)
	}
	if l.Stats.Broken > 0 {
		fmt.Fprintf(g.Stdout, "skipped %d broken lines in %s\n", l.Stats.Broken, l.Log)
	}
	return nil
}

// RenderCmd writes the artifacts of ready observations.
type RenderCmd struct{}

// Run reconciles, then renders.
func (c *RenderCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	r, err := app.Render(s)
	if r.Report != nil {
		printReport(g, r.Report, false)
	}
	for _, a := range r.Artifacts {
		fmt.Fprintf(g.Stdout, "rendered %s (%s %s, confidence %.2f)\n", a.Path, a.Observation.Type, a.Observation.ID, a.Observation.Confidence)
	}
	if err == nil && len(r.Artifacts) == 0 && (r.Report == nil || len(r.Report.Drafted) == 0) {
		fmt.Fprintln(g.Stdout, "nothing ready to render")
	}
	return err
}

// ReconcileCmd compares the render manifest with the files.
type ReconcileCmd struct {
	Quiet bool `help:"Print nothing and always exit 0 (for hooks and background runs)."`
}

// Run reconciles.
func (c *ReconcileCmd) Run(g *Globals) error { return quietly(g, c.Quiet, c.run(g)) }

func (c *ReconcileCmd) run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	rep, err := app.Reconcile(s)
	if err != nil {
		return err
	}
	if !c.Quiet {
		printReport(g, rep, true)
	}
	return nil
}

func printReport(g *Globals, rep *observe.Report, always bool) {
	for _, p := range rep.Deleted {
		fmt.Fprintf(g.Stdout, "deleted %s: its observation's confidence x%.1f, deprecated\n", p, observe.DeletePenalty)
	}
	for _, p := range rep.Edited {
		fmt.Fprintf(g.Stdout, "edited %s: left alone (your edit stands)\n", p)
	}
	for _, p := range rep.Healed {
		fmt.Fprintf(g.Stdout, "healed %s: recorded after an interrupted render\n", p)
	}
	for _, p := range rep.Unmatched {
		fmt.Fprintf(g.Stdout, "left alone %s: no ready observation matches it\n", p)
	}
	for _, p := range rep.Ambiguous {
		fmt.Fprintf(g.Stdout, "left alone %s: several ready observations match it\n", p)
	}
	for _, d := range rep.Drafted {
		id, rel, _ := strings.Cut(d, " ")
		fmt.Fprintf(g.Stdout, "not rendered %s: the incident is already drafted as %s\n", id, rel)
	}
	if always {
		fmt.Fprintf(g.Stdout, "reconciled: %d unchanged, %d edited, %d deleted, %d healed, %d left alone\n",
			rep.Unchanged, len(rep.Edited), len(rep.Deleted), len(rep.Healed), len(rep.Unmatched)+len(rep.Ambiguous))
	}
}
