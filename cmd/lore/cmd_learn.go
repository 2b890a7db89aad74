package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/lore-agents/lore/learn"
	"github.com/lore-agents/lore/signals"
)

// LearnCmd records a phase's learnings once per key.
type LearnCmd struct {
	Key   string   `required:"" help:"The build phase or run id, e.g. phase-3: captured once."`
	From  []string `sep:"none" type:"path" placeholder:"FILE" help:"Notes to extract from (repeatable; default: standard input)."`
	Force bool     `help:"Re-extract: replace the key's entries in learnings.md."`

	NoSignals bool `name:"no-signals" help:"Do not emit the FEEDBACK summary (and REDIRECT for pitfalls) signals."`
}

// Run extracts, validates and records; a repeat says "already captured".
func (c *LearnCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	if err := learn.ValidKey(c.Key); err != nil {
		return usageError{err.Error()}
	}
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	var srcs []learn.Source
	for _, f := range c.From {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		srcs = append(srcs, learn.Source{Path: s.Rel(f), Data: data})
	}
	if len(c.From) == 0 {
		data, err := io.ReadAll(g.Stdin)
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		srcs = append(srcs, learn.Source{Path: "stdin", Data: data})
	}
	now := signals.Now()
	var emitted []signals.Signal
	emit := func(kept []learn.Learning) error {
		if c.NoSignals {
			return nil
		}
		emitted = learn.Signals(c.Key, kept, now)
		return writeSignals(s, func(old []signals.Signal) []signals.Signal {
			live, _ := signals.Prune(old, now)
			live = slices.DeleteFunc(live, func(x signals.Signal) bool {
				return slices.ContainsFunc(emitted, func(y signals.Signal) bool { return x.ID == y.ID })
			})
			return append(live, emitted...)
		})
	}
	res, err := learn.Capture(s, cfg.Learnings, c.Key, srcs, c.Force, now, emit)
	if errors.Is(err, learn.ErrNothing) {
		return fmt.Errorf("no learnings found in %s: list them under a heading such as \"## Learnings\", \"## Pitfalls\" or \"## Decisions\", or as \"Lesson: ...\" lines; nothing recorded for %s", sourceNames(srcs), c.Key)
	}
	if err != nil {
		return err
	}
	switch res.Status {
	case learn.Already:
		fmt.Fprintf(g.Stdout, "%s: learnings already captured (%s); --force re-extracts\n", c.Key, res.When)
		return nil
	case learn.Healed:
		fmt.Fprintf(g.Stdout, "%s: learnings already captured (%d entries in %s; recorded the missing event)\n", c.Key, len(res.Added), cfg.Learnings)
		printSignals(g, emitted, res.EmitErr)
		return nil
	}
	if res.Removed > 0 {
		fmt.Fprintf(g.Stdout, "%s: removed %d earlier entries\n", c.Key, res.Removed)
	}
	fmt.Fprintf(g.Stdout, "%s: captured %d learning(s) into %s\n", c.Key, len(res.Added), cfg.Learnings)
	for _, t := range res.Added {
		fmt.Fprintf(g.Stdout, "  + %s\n", t)
	}
	for _, sk := range res.Skipped {
		fmt.Fprintf(g.Stdout, "  skipped (%s): %s: %q\n", sk.Reason, sk.Source, sk.Text)
	}
	printSignals(g, emitted, res.EmitErr)
	return nil
}

// printSignals says which signals a capture emitted; one that could not be
// written is only a warning (signals are short-lived guidance).
func printSignals(g *Globals, sigs []signals.Signal, err error) {
	if err != nil {
		fmt.Fprintf(g.Stderr, "lore: learn: signals not written: %v\n", err)
		return
	}
	for _, x := range sigs {
		fmt.Fprintf(g.Stdout, "emitted %s signal (strength %.2f, half-life %v)\n", x.Type, x.Strength, x.HalfLife)
	}
}

func sourceNames(srcs []learn.Source) string {
	var out string
	for i, s := range srcs {
		if i > 0 {
			out += ", "
		}
		out += s.Path
	}
	return out
}
