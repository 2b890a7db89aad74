package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/observe"
	"github.com/lore-agents/lore/review"
	"github.com/lore-agents/lore/scan"
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
	l, err := observe.Open(s)
	if err != nil {
		return err
	}
	if c.Type == "" {
		if c.Pattern != "" {
			return usagef("give a type before the pattern")
		}
		return listObservations(g, l)
	}
	if strings.TrimSpace(c.Pattern) == "" {
		return usagef("%s: a pattern is required", c.Type)
	}
	at := time.Now()
	if c.At != "" {
		if at, err = parseWhen(c.At); err != nil {
			return err
		}
	}
	r, err := observe.Sighting(c.Type, c.Pattern, c.Count, at, c.Quality, c.Details, c.Evidence...)
	if err != nil {
		return usagef("%v", err)
	}
	touched, err := l.Observe(r)
	if err != nil {
		return err
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

func listObservations(g *Globals, l *observe.Log) error {
	obs, st, err := l.Load()
	if err != nil {
		return err
	}
	if len(obs) == 0 {
		fmt.Fprintf(g.Stdout, "no observations in %s\n", l.Rel())
	}
	for _, o := range obs {
		q := ""
		if !o.QualityOK {
			q = " (quality gate not passed)"
		}
		fmt.Fprintf(g.Stdout, "%s  %-10s %-10s count %d  confidence %.2f  spread %dd  %s%s\n",
			o.ID, o.Type, o.Status, o.Count, o.Confidence, observe.DaySpread(o.FirstSeen, o.LastSeen), o.Title, q)
	}
	if st.Broken > 0 {
		fmt.Fprintf(g.Stdout, "skipped %d broken lines in %s\n", st.Broken, l.Rel())
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
	l, err := observe.Open(s)
	if err != nil {
		return err
	}
	out, rep, err := l.Render(time.Now())
	if rep != nil {
		printReport(g, rep, false)
	}
	for _, r := range out {
		fmt.Fprintf(g.Stdout, "rendered %s (%s %s, confidence %.2f)\n", r.Path, r.Observation.Type, r.Observation.ID, r.Observation.Confidence)
	}
	if err == nil && len(out) == 0 && (rep == nil || len(rep.Drafted) == 0) {
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
	l, err := observe.Open(s)
	if err != nil {
		return err
	}
	rep, err := l.Reconcile(time.Now())
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
