package main

import (
	"fmt"
	"time"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/inject/signals"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// SignalCmd groups the signal verbs (docs/design.md, Phase learnings and
// signals).
type SignalCmd struct {
	Emit  SignalEmitCmd  `cmd:"" help:"Record a FEEDBACK or REDIRECT signal; its strength halves every half-life."`
	List  SignalListCmd  `cmd:"" help:"Show the live signals, REDIRECT first, with their current strength."`
	Prune SignalPruneCmd `cmd:"" help:"Remove the signals that decayed under 0.05."`
}

// SignalEmitCmd records one signal.
type SignalEmitCmd struct {
	Type     string        `arg:"" help:"FEEDBACK (how things went) or REDIRECT (stop doing that)."`
	Text     string        `arg:"" help:"The guidance, at least 20 characters."`
	Strength float64       `help:"Strength when emitted, in (0, 1]." default:"0.5"`
	HalfLife time.Duration `name:"half-life" help:"Time for the strength to halve." default:"6h"`
	Source   string        `help:"Who emitted it (shown in --json)." default:"cli"`
}

// Run validates, redacts and appends the signal, dropping dead ones.
func (c *SignalEmitCmd) Run(g *Globals, s *gitstore.Store) error {
	e, err := app.EmitSignal(s, app.EmitOptions{Type: c.Type, Text: c.Text, Strength: c.Strength, HalfLife: c.HalfLife, Source: c.Source})
	if err != nil {
		return err
	}
	sig := e.Signal
	fmt.Fprintf(g.Stdout, "emitted %s %s (strength %.2f, half-life %v)\n", sig.Type, sig.ID, sig.Strength, sig.HalfLife)
	if e.Pruned > 0 {
		fmt.Fprintf(g.Stdout, "pruned %d signal(s) that decayed under %v\n", e.Pruned, signals.Floor)
	}
	return nil
}

// SignalListCmd shows the live signals.
type SignalListCmd struct {
	JSON bool `name:"json" help:"Print a JSON array."`
}

// Run lists live signals, REDIRECT first, strongest first.
func (c *SignalListCmd) Run(g *Globals, s *gitstore.Store) error {
	l, err := app.ListSignals(s)
	if err != nil {
		return err
	}
	if l.Broken > 0 {
		fmt.Fprintf(g.Stderr, "lore: %s: skipped %d broken line(s)\n", lorepath.InLocal(lorepath.Signals), l.Broken)
	}
	if c.JSON {
		return g.printJSON(l.Live)
	}
	if len(l.Live) == 0 {
		fmt.Fprintln(g.Stdout, "no live signals")
		return nil
	}
	for _, x := range l.Live {
		fmt.Fprintf(g.Stdout, "%-8s %.2f  %s  (half-life %v, %s ago)\n", x.Type, x.Current, x.Text, x.HalfLife, x.Age)
	}
	if l.Decayed > 0 {
		fmt.Fprintf(g.Stdout, "(%d decayed signal(s) under %v not shown: lore signal prune)\n", l.Decayed, signals.Floor)
	}
	return nil
}

// SignalPruneCmd removes dead signals.
type SignalPruneCmd struct{}

// Run rewrites the log without the signals under the floor (and broken lines).
func (c *SignalPruneCmd) Run(g *Globals, s *gitstore.Store) error {
	p, err := app.PruneSignals(s)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "pruned %d signal(s), %d live\n", p.Pruned, p.Live)
	return nil
}
