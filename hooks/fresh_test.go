package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeLore puts on PATH a lore that records each run (arguments and the
// lock descriptor it was handed) and holds the build lock for a while
// without building anything.
func fakeLore(t *testing.T) (runs string) {
	t.Helper()
	bin := t.TempDir()
	runs = filepath.Join(t.TempDir(), "runs")
	script := "#!/bin/sh\necho \"$* fd=$" + "LORE_BUILD_LOCK_FD\" >> '" + runs + "'\n/bin/sleep 0.3\n"
	if err := os.WriteFile(filepath.Join(bin, "lore"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	return runs
}

// Parallel calls that find no manifest start one build between them, hand
// it the build lock, wait for it, and log what happened.
func TestParallelStaleCallsStartOneBuild(t *testing.T) {
	root := repo(t, testItems)
	os.Remove(filepath.Join(root, ".lore/cache/manifest"))
	runs := fakeLore(t)
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			in, _ := json.Marshal(bash(root, newSession(t), "pytest"))
			var out bytes.Buffer
			Main([]string{"claude", "PreToolUse"}, bytes.NewReader(in), &out, &bytes.Buffer{})
			if out.String() != "{}\n" {
				t.Errorf("stdout %q", out.String())
			}
		})
	}
	wg.Wait()
	got, err := os.ReadFile(runs)
	if err != nil || string(got) != "build --quiet fd=3\n" {
		t.Errorf("lore runs: %q (%v), want one build with the lock as fd 3", got, err)
	}
	log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	if n := strings.Count(string(log), "manifest missing: not rebuilt within"); n != 6 {
		t.Errorf("%d of 6 calls logged the missing manifest:\n%s", n, log)
	}
}

// With no time left to wait, a call still starts the build and answers at once.
func TestNoTimeLeftStillStartsTheBuild(t *testing.T) {
	root := repo(t, testItems)
	os.Remove(filepath.Join(root, ".lore/cache/manifest"))
	runs := fakeLore(t)
	t.Setenv("LORE_HOOK_DEADLINE", "150ms")
	in, _ := json.Marshal(bash(root, newSession(t), "pytest"))
	var out bytes.Buffer
	Main([]string{"claude", "PreToolUse"}, bytes.NewReader(in), &out, &bytes.Buffer{})
	if out.String() != "{}\n" {
		t.Errorf("stdout %q", out.String())
	}
	// The build runs on after the call: wait for its record.
	var got []byte
	for i := 0; i < 500 && len(got) == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		got, _ = os.ReadFile(runs)
	}
	if string(got) != "build --quiet fd=3\n" {
		t.Errorf("lore runs: %q", got)
	}
}
