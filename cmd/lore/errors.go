package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit codes, the one table of them (documented in README.md):
//
//	0  success
//	1  a finding: lint errors (warnings too with --strict)
//	2  usage or operational error, with a one-line message naming file, line and key
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
)

// errFindings is returned by a command that ran fine but found problems it
// has already printed (lint). It maps to exit 1 and prints nothing more.
var errFindings = errors.New("findings")

// usageError is a mistake in how lore was called.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// exitCode maps an error to its exit code and prints it as one line.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFindings):
		return exitFindings
	}
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
	fmt.Fprintf(stderr, "lore: %s\n", msg)
	return exitError
}
