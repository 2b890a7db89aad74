package main

import (
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// LearningLoop groups the observation commands (docs/design.md, Observations
// and rendering).
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
func (c *ObserveCmd) Run(g *Globals, s *gitstore.Store) error {
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
		at, err := parseWhen(c.At)
		if err != nil {
			return err
		}
		opt.At = at
	}
	touched, err := app.Observe(s, opt)
	if err != nil {
		return err
	}
	printObserved(g.Stdout, touched)
	return nil
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
	printObservations(g.Stdout, l)
	return nil
}

// RenderCmd writes the artifacts of ready observations.
type RenderCmd struct{}

// Run reconciles, then renders.
func (c *RenderCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Render(s)
	printRendered(g.Stdout, r, err == nil)
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
		printReconciled(g.Stdout, rep)
	}
	return nil
}
