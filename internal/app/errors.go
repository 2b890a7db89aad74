package app

import (
	"errors"
	"fmt"

	"github.com/lore-agents/lore/internal/capture/review"
)

// Kinds of failure a command reports differently from an operational
// error. They are wrapped with %w, so errors.Is finds them.
var (
	// ErrNotFound: no item matches what the caller named.
	ErrNotFound = errors.New("no item matches")
	// ErrAmbiguous: several items match what the caller named.
	ErrAmbiguous = errors.New("is ambiguous")
	// ErrRefused: a promotion refused because the item would never reach
	// an agent; nothing was written, and a review can go on.
	ErrRefused = review.ErrRefused
)

// InputError is a mistake in what the caller asked for: an option that
// cannot work (an unknown agent, a flag that needs another) or a value the
// domain rejects (a signal's type, a learn key, an observation). On the
// command line it is a mistake in how the command was called.
type InputError struct{ Err error }

// Error is the rejected value's message, as the domain wrote it.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap is the domain's error.
func (e *InputError) Unwrap() error { return e.Err }

func usagef(format string, args ...any) error { return &InputError{fmt.Errorf(format, args...)} }
