package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lore-agents/lore/internal/capture/learn"
	"github.com/lore-agents/lore/internal/inject/signals"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// LearnOptions are one phase's learnings to record.
type LearnOptions struct {
	Key       string    // the build phase or run id: captured once
	From      []string  // notes files (none: Stdin)
	Stdin     io.Reader // read when From is empty
	Force     bool      // re-extract: replace the key's entries
	NoSignals bool      // emit no FEEDBACK/REDIRECT signals
}

// Learned is what a capture recorded.
type Learned struct {
	*learn.Result
	File    string           // the learnings file
	Emitted []signals.Signal // the signals written (none when Result.EmitErr)
}

// Learn extracts, validates and records the learnings once per key, and
// emits their signals. A key that is not valid is an InputError.
func Learn(s *gitstore.Store, opt LearnOptions) (*Learned, error) {
	if err := learn.ValidKey(opt.Key); err != nil {
		return nil, &InputError{err}
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	srcs, err := learnSources(s, opt)
	if err != nil {
		return nil, err
	}
	now := signals.Now()
	out := &Learned{File: cfg.Learnings}
	emit := func(kept []learn.Learning) error {
		if opt.NoSignals {
			return nil
		}
		out.Emitted = learn.Signals(opt.Key, kept, now)
		return writeSignals(s, func(old []signals.Signal) []signals.Signal {
			live, _ := signals.Prune(old, now)
			live = slices.DeleteFunc(live, func(x signals.Signal) bool {
				return slices.ContainsFunc(out.Emitted, func(y signals.Signal) bool { return x.ID == y.ID })
			})
			return append(live, out.Emitted...)
		})
	}
	out.Result, err = learn.Capture(s, cfg.Learnings, opt.Key, srcs, opt.Force, now, emit)
	if errors.Is(err, learn.ErrNothing) {
		return nil, fmt.Errorf("no learnings found in %s: list them under a heading such as \"## Learnings\", \"## Pitfalls\" or \"## Decisions\", or as \"Lesson: ...\" lines; nothing recorded for %s", sourceNames(srcs), opt.Key)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// learnSources reads the notes files, or standard input.
func learnSources(s *gitstore.Store, opt LearnOptions) ([]learn.Source, error) {
	var srcs []learn.Source
	for _, f := range opt.From {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, learn.Source{Path: s.Rel(f), Data: data})
	}
	if len(opt.From) == 0 {
		data, err := io.ReadAll(opt.Stdin)
		if err != nil {
			return nil, fmt.Errorf("read stdin: %w", err)
		}
		srcs = append(srcs, learn.Source{Path: "stdin", Data: data})
	}
	return srcs, nil
}

func sourceNames(srcs []learn.Source) string {
	names := make([]string, len(srcs))
	for i, s := range srcs {
		names[i] = s.Path
	}
	return strings.Join(names, ", ")
}
