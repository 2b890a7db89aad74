//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// detach puts the child in its own session so it outlives the hook and
// never receives the agent's terminal signals.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
