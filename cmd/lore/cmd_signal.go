package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/redact"
	"github.com/lore-agents/lore/signals"
)

// SignalCmd groups the signal verbs (DESIGN section 11).
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
func (c *SignalEmitCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	now := signals.Now()
	sig := signals.Normalize(signals.Signal{
		ID: ulid.Make().String(), Type: c.Type, Text: c.Text, Strength: c.Strength,
		HalfLife: c.HalfLife, Created: now, Source: c.Source,
	})
	if err := signals.Validate(sig); err != nil {
		return usageError{err.Error()}
	}
	if sig.Text, err = redact.String(sig.Text); err != nil {
		return fmt.Errorf("nothing written: %w", err)
	}
	var pruned int
	err = updateSignals(s, func(sigs []signals.Signal) []signals.Signal {
		kept, dead := signals.Prune(sigs, now)
		pruned = len(dead)
		return append(kept, sig)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "emitted %s %s (strength %.2f, half-life %v)\n", sig.Type, sig.ID, sig.Strength, sig.HalfLife)
	if pruned > 0 {
		fmt.Fprintf(g.Stdout, "pruned %d signal(s) that decayed under %v\n", pruned, signals.Floor)
	}
	return nil
}

// SignalListCmd shows the live signals.
type SignalListCmd struct {
	JSON bool `name:"json" help:"Print a JSON array."`
}

type signalJSON struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	Text            string  `json:"text"`
	Strength        float64 `json:"strength"`
	Current         float64 `json:"current"`
	HalfLifeSeconds float64 `json:"halfLifeSeconds"`
	Created         string  `json:"created"`
	Source          string  `json:"source"`
}

// Run lists live signals, REDIRECT first, strongest first.
func (c *SignalListCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	sigs, bad, err := readSignals(s)
	if err != nil {
		return err
	}
	if bad > 0 {
		fmt.Fprintf(g.Stderr, "lore: %s: skipped %d broken line(s)\n", signals.RelPath, bad)
	}
	now := signals.Now()
	live := signals.Live(sigs, now)
	if c.JSON {
		out := []signalJSON{}
		for _, x := range live {
			out = append(out, signalJSON{x.ID, x.Type, x.Text, x.Strength, x.At(now), x.HalfLife.Seconds(),
				x.Created.UTC().Format(time.RFC3339), x.Source})
		}
		return g.printJSON(out)
	}
	if len(live) == 0 {
		fmt.Fprintln(g.Stdout, "no live signals")
		return nil
	}
	for _, x := range live {
		fmt.Fprintf(g.Stdout, "%-8s %.2f  %s  (half-life %v, %s ago)\n", x.Type, x.At(now), x.Text,
			x.HalfLife, now.Sub(x.Created).Truncate(time.Minute))
	}
	if dead := len(sigs) - len(live); dead > 0 {
		fmt.Fprintf(g.Stdout, "(%d decayed signal(s) under %v not shown: lore signal prune)\n", dead, signals.Floor)
	}
	return nil
}

// SignalPruneCmd removes dead signals.
type SignalPruneCmd struct{}

// Run rewrites the log without the signals under the floor (and broken lines).
func (c *SignalPruneCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	now := signals.Now()
	var kept, pruned int
	err = updateSignals(s, func(sigs []signals.Signal) []signals.Signal {
		live, dead := signals.Prune(sigs, now)
		kept, pruned = len(live), len(dead)
		return live
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "pruned %d signal(s), %d live\n", pruned, kept)
	return nil
}

func readSignals(s *gitstore.Store) ([]signals.Signal, int, error) {
	rel, err := s.Local(signals.Name)
	if err != nil {
		return nil, 0, err
	}
	data, err := os.ReadFile(s.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	sigs, bad := signals.Parse(data)
	return sigs, bad, nil
}

// updateSignals rewrites the log atomically under the store lock.
func updateSignals(s *gitstore.Store, edit func([]signals.Signal) []signals.Signal) error {
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	return writeSignals(s, edit)
}

// writeSignals is updateSignals for a caller that holds the lock.
func writeSignals(s *gitstore.Store, edit func([]signals.Signal) []signals.Signal) error {
	sigs, _, err := readSignals(s)
	if err != nil {
		return err
	}
	return gitstore.WriteAtomic(s.Path(signals.RelPath), signals.Marshal(edit(sigs)))
}
