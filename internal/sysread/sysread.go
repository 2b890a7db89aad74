// Package sysread reads small files with the system calls alone, for the
// two places that read many or read in a hurry: the agent hook's state
// files and a build's item files. os.Open sets a regular file
// non-blocking, tries to register it with the network poller and undoes
// both, and os.ReadFile reads once more to find the end: about eight
// calls a file where four do.
package sysread

import (
	"errors"
	"fmt"
)

// ErrTooLarge is returned, wrapped in a *TooLargeError, for a file over
// the caller's limit.
var ErrTooLarge = errors.New("file too large")

// TooLargeError is a file over the limit, with the size found (by the
// stat, or by reading past the limit when it grew after the stat).
type TooLargeError struct {
	Path string
	Size int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: %d bytes: %v", e.Path, e.Size, ErrTooLarge)
}

func (e *TooLargeError) Unwrap() error { return ErrTooLarge }
