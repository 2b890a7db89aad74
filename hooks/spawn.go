package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// scanInBackground starts `lore scan --quiet <transcript>` detached and
// returns at once: Stop and SessionEnd never wait on a scan.
func (h *handler) scanInBackground(transcript, cwd string) {
	if transcript == "" {
		return
	}
	lore := findLore()
	if lore == "" {
		h.logf("lore not found next to %s or on PATH: transcript not scanned", os.Args[0])
		return
	}
	cmd := exec.Command(lore, "scan", "--quiet", transcript)
	cmd.Dir = cwd
	if h.root != "" {
		cmd.Dir = h.root
	}
	detach(cmd)
	if err := cmd.Start(); err != nil {
		h.logf("start %s scan: %v", lore, err)
		return
	}
	cmd.Process.Release()
}

// findLore finds the full lore binary: the running executable when it is
// lore, else next to it (lore-hook is installed beside lore), else on PATH.
func findLore() string {
	name := "lore"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if exe, err := os.Executable(); err == nil {
		if filepath.Base(exe) == name {
			return exe
		}
		if p := filepath.Join(filepath.Dir(exe), name); isFile(p) {
			return p
		}
	}
	if p, err := exec.LookPath("lore"); err == nil {
		return p
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
