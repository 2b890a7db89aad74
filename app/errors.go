package app

import "fmt"

// UsageError is an option the caller gave that cannot work (an unknown
// agent, a flag that needs another): on the command line, a mistake in how
// the command was called.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }
