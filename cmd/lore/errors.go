package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lore-agents/lore/internal/app"
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

// usageError is a mistake in how lore was called that the command sees in
// its flags (app.InputError is one the application layer finds).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// exitCode is the one switch from an error to an exit code. It prints the
// error as one line naming the command (cmd; empty before one is parsed),
// and points a usage error at the command's help.
func exitCode(err error, cmd string, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var usage usageError
	var input *app.InputError
	switch {
	case errors.Is(err, errFindings):
		return exitFindings
	case errors.As(err, &usage), errors.As(err, &input):
		fmt.Fprintf(stderr, "%s (see %s --help)\n", errLine(err, cmd), strings.TrimSpace("lore "+cmd))
	default:
		fmt.Fprintln(stderr, errLine(err, cmd))
	}
	return exitError
}

// errLine is "lore: <cmd>: <message>" on one line. A message that already
// starts with the command's first word (the domain packages name
// themselves: "consolidate: ...", "import claude-memory: ...") is not
// named twice.
func errLine(err error, cmd string) string {
	msg := strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; ")
	first, _, _ := strings.Cut(cmd, " ")
	if cmd == "" || strings.HasPrefix(msg, first+":") || strings.HasPrefix(msg, first+" ") {
		return "lore: " + msg
	}
	return "lore: " + cmd + ": " + msg
}
