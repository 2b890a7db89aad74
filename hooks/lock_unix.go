//go:build unix

package hooks

import (
	"os"
	"syscall"
)

// lock takes an exclusive flock on f, released when f is closed.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
