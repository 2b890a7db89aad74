package app

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/internal/inject/signals"
	"github.com/lore-agents/lore/internal/knowledge/redact"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// EmitOptions are one signal to record (docs/design.md, Phase learnings and
// signals).
type EmitOptions struct {
	Type     string // FEEDBACK or REDIRECT
	Text     string
	Strength float64
	HalfLife time.Duration
	Source   string
}

// Emitted is the signal recorded and how many dead ones went with it.
type Emitted struct {
	Signal signals.Signal
	Pruned int
}

// EmitSignal validates (an InputError), redacts and appends the signal,
// dropping the dead ones.
func EmitSignal(s *gitstore.Store, opt EmitOptions) (*Emitted, error) {
	now := signals.Now()
	sig := signals.Normalize(signals.Signal{
		ID: ulid.Make().String(), Type: opt.Type, Text: opt.Text, Strength: opt.Strength,
		HalfLife: opt.HalfLife, Created: now, Source: opt.Source,
	})
	if err := signals.Validate(sig); err != nil {
		return nil, &InputError{err}
	}
	var err error
	if sig.Text, err = redact.String(sig.Text); err != nil {
		return nil, fmt.Errorf("nothing written: %w", err)
	}
	out := &Emitted{Signal: sig}
	err = updateSignals(s, func(sigs []signals.Signal) []signals.Signal {
		kept, dead := signals.Prune(sigs, now)
		out.Pruned = len(dead)
		return append(kept, sig)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LiveSignal is one signal in lore signal list --json.
type LiveSignal struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	Text            string  `json:"text"`
	Strength        float64 `json:"strength"`
	Current         float64 `json:"current"`
	HalfLifeSeconds float64 `json:"halfLifeSeconds"`
	Created         string  `json:"created"`
	Source          string  `json:"source"`

	HalfLife time.Duration `json:"-"`
	Age      time.Duration `json:"-"` // since it was emitted, in whole minutes
}

// SignalList is the live signals, REDIRECT first, strongest first.
type SignalList struct {
	Live    []LiveSignal
	Decayed int // signals under the floor, not listed
	Broken  int // lines of the log that could not be read
}

// ListSignals reads the log.
func ListSignals(s *gitstore.Store) (*SignalList, error) {
	sigs, bad, err := readSignals(s)
	if err != nil {
		return nil, err
	}
	now := signals.Now()
	live := signals.Live(sigs, now)
	out := &SignalList{Live: []LiveSignal{}, Decayed: len(sigs) - len(live), Broken: bad}
	for _, x := range live {
		out.Live = append(out.Live, LiveSignal{x.ID, x.Type, x.Text, x.Strength, x.At(now), x.HalfLife.Seconds(),
			x.Created.UTC().Format(time.RFC3339), x.Source, x.HalfLife, now.Sub(x.Created).Truncate(time.Minute)})
	}
	return out, nil
}

// Pruned counts what PruneSignals kept and removed.
type Pruned struct{ Live, Pruned int }

// PruneSignals rewrites the log without the signals under the floor (and
// broken lines).
func PruneSignals(s *gitstore.Store) (Pruned, error) {
	now := signals.Now()
	var p Pruned
	err := updateSignals(s, func(sigs []signals.Signal) []signals.Signal {
		live, dead := signals.Prune(sigs, now)
		p = Pruned{len(live), len(dead)}
		return live
	})
	return p, err
}

func readSignals(s *gitstore.Store) ([]signals.Signal, int, error) {
	rel, err := s.Local(lorepath.Signals)
	if err != nil {
		return nil, 0, err
	}
	data, err := s.ReadFile(rel)
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

// writeSignals is updateSignals for a caller that holds the lock (the
// store has no write for a lock holder: WriteFile takes the lock).
func writeSignals(s *gitstore.Store, edit func([]signals.Signal) []signals.Signal) error {
	sigs, _, err := readSignals(s)
	if err != nil {
		return err
	}
	return s.WriteLocked(lorepath.InLocal(lorepath.Signals), signals.Marshal(edit(sigs)))
}
