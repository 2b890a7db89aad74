package app

import "errors"

// Kinds of failure a command reports differently from an operational
// error. They are wrapped with %w, so errors.Is finds them.
var (
	// ErrNotFound: no item matches what the caller named.
	ErrNotFound = errors.New("no item matches")
	// ErrAmbiguous: several items match what the caller named.
	ErrAmbiguous = errors.New("is ambiguous")
)

// InputError is a mistake in what the caller asked for (a value the domain
// rejects: a signal's type, a learn key, an observation); the CLI reports
// it as a usage error.
type InputError struct{ Err error }

// Error is the rejected value's message, as the domain wrote it.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap is the domain's error.
func (e *InputError) Unwrap() error { return e.Err }
