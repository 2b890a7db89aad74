//go:build !unix

package hooks

import "os/exec"

// detach: on this platform a started child already outlives its parent.
func detach(cmd *exec.Cmd) {}
