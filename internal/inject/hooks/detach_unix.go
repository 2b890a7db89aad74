//go:build unix

package hooks

import (
	"os"
	"syscall"
)

// detached puts the child in its own session so it outlives the hook and
// never receives the agent's terminal signals.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// tryLock takes f's exclusive lock if no one holds it.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// isLocked reports whether a build holds the lock at path.
func isLocked(path string) bool {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB) != nil
}
