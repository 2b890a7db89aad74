//go:build unix

package filewrite

import (
	"os"
	"syscall"
)

// Lock takes an exclusive flock on f, released when f is closed.
func Lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
