package testrepo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

func TestMain(m *testing.M) { os.Exit(testrepo.Hermetic(m.Run)) }

// TestHermeticKeepsTheMachineOut: what the developer's shell and machine
// set (an installed lore on PATH, their home and git config, a GIT_DIR
// from a git hook, LORE_DISABLE) does not reach the tests, while Go's own
// caches stay where they were.
func TestHermeticKeepsTheMachineOut(t *testing.T) {
	installed := t.TempDir()
	for _, name := range []string{"lore", "lore-hook"} {
		if err := os.WriteFile(filepath.Join(installed, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\thooksPath = /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", installed+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("HOME", home)
	t.Setenv("GIT_DIR", "/somewhere/.git")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("LORE_DISABLE", "1")
	t.Setenv("VISUAL", "vi")
	gocache := os.Getenv("GOCACHE")
	var inside map[string]string
	var hooksPath string
	var lookErr error
	code := testrepo.Hermetic(func() int {
		inside = map[string]string{}
		for _, k := range []string{"HOME", "TMPDIR", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GIT_DIR", "LORE_DISABLE", "VISUAL", "GOCACHE", "GIT_CONFIG_GLOBAL"} {
			inside[k] = os.Getenv(k)
		}
		_, lookErr = exec.LookPath("lore")
		out, _ := exec.Command("git", "config", "--get", "core.hooksPath").Output()
		hooksPath = strings.TrimSpace(string(out))
		return 3
	})
	if code != 3 {
		t.Errorf("Hermetic returned %d, want run's 3", code)
	}
	if lookErr == nil {
		t.Error("an installed lore is still on PATH")
	}
	if hooksPath != "" {
		t.Errorf("the user's git config reached git: core.hooksPath=%s", hooksPath)
	}
	for _, k := range []string{"GIT_DIR", "LORE_DISABLE", "VISUAL"} {
		if inside[k] != "" {
			t.Errorf("%s=%s reached the tests", k, inside[k])
		}
	}
	for _, k := range []string{"HOME", "TMPDIR", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GIT_CONFIG_GLOBAL"} {
		if v := inside[k]; v == "" || strings.HasPrefix(v, home) || !strings.HasPrefix(v, inside["TMPDIR"]) {
			t.Errorf("%s=%q, want a folder of the tests' own", k, v)
		}
	}
	if inside["GOCACHE"] == "" || gocache != "" && inside["GOCACHE"] != gocache {
		t.Errorf("GOCACHE=%q inside, %q outside: go build would start from an empty cache", inside["GOCACHE"], gocache)
	}
}
