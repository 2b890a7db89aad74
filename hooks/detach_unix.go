//go:build unix

package hooks

import "syscall"

// detached puts the child in its own session so it outlives the hook and
// never receives the agent's terminal signals.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
