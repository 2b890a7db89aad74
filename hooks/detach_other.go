//go:build !unix

package hooks

import "syscall"

// detached: on this platform a started child already outlives its parent.
func detached() *syscall.SysProcAttr { return nil }
