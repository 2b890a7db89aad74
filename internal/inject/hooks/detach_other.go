//go:build !unix

package hooks

import (
	"os"
	"syscall"
)

// detached: on this platform a started child already outlives its parent.
func detached() *syscall.SysProcAttr { return nil }

// tryLock: without flock every call may start a build; builds still
// serialize on lore build's own lock.
func tryLock(*os.File) bool { return true }

// isLocked: the caller waits on the build it started instead.
func isLocked(string) bool { return false }
