package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/capture/learn"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// LearnCmd records a phase's learnings once per key.
type LearnCmd struct {
	Key   string   `required:"" help:"The build phase or run id, e.g. phase-3: captured once."`
	From  []string `sep:"none" type:"path" placeholder:"FILE" help:"Notes to extract from (repeatable; default: standard input)."`
	Force bool     `help:"Re-extract: replace the key's entries in learnings.md."`

	NoSignals bool `name:"no-signals" help:"Do not emit the FEEDBACK summary (and REDIRECT for pitfalls) signals."`
}

// Run extracts, validates and records; a repeat says "already captured".
func (c *LearnCmd) Run(g *Globals, s *gitstore.Store) error {
	res, err := app.Learn(s, app.LearnOptions{Key: c.Key, From: c.From, Stdin: g.Stdin, Force: c.Force, NoSignals: c.NoSignals})
	if err != nil {
		return err
	}
	switch res.Status {
	case learn.Already:
		fmt.Fprintf(g.Stdout, "%s: learnings already captured (%s); --force re-extracts\n", c.Key, res.When)
		return nil
	case learn.Healed:
		fmt.Fprintf(g.Stdout, "%s: learnings already captured (%d entries in %s; recorded the missing event)\n", c.Key, len(res.Added), res.File)
		printSignals(g, res)
		return nil
	}
	if res.Removed > 0 {
		fmt.Fprintf(g.Stdout, "%s: removed %d earlier entries\n", c.Key, res.Removed)
	}
	fmt.Fprintf(g.Stdout, "%s: captured %d learning(s) into %s\n", c.Key, len(res.Added), res.File)
	for _, t := range res.Added {
		fmt.Fprintf(g.Stdout, "  + %s\n", t)
	}
	for _, sk := range res.Skipped {
		fmt.Fprintf(g.Stdout, "  skipped (%s): %s: %q\n", sk.Reason, sk.Source, sk.Text)
	}
	printSignals(g, res)
	return nil
}

// printSignals says which signals a capture emitted; one that could not be
// written is only a warning (signals are short-lived guidance).
func printSignals(g *Globals, res *app.Learned) {
	if res.EmitErr != nil {
		fmt.Fprintf(g.Stderr, "lore: learn: signals not written: %v\n", res.EmitErr)
		return
	}
	for _, x := range res.Emitted {
		fmt.Fprintf(g.Stdout, "emitted %s signal (strength %.2f, half-life %v)\n", x.Type, x.Strength, x.HalfLife)
	}
}
