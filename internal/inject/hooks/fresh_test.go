package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// fakeLore puts on PATH a lore that records each run (arguments and the
// lock descriptor it was handed) and holds the build lock, building
// nothing, until the test ends: a call waits for it its whole wait,
// however loaded the machine.
func fakeLore(t *testing.T) (runs string) {
	t.Helper()
	bin, dir := t.TempDir(), t.TempDir()
	runs, hold := filepath.Join(dir, "runs"), filepath.Join(dir, "hold")
	if err := os.WriteFile(hold, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(hold) })
	script := "#!/bin/sh\necho \"$* fd=$" + "LORE_BUILD_LOCK_FD\" >> '" + runs + "'\n" +
		"while [ -e '" + hold + "' ]; do /bin/sleep 0.05; done\n"
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
	// The default deadline's waits, not TestMain's stretched ones. Should
	// the watchdog answer first on a loaded machine, the call still goes
	// on here (abort does not end the test process) and logs its wait.
	t.Setenv("LORE_HOOK_DEADLINE", Deadline.String())
	abort = func(int) {}
	defer func() { abort = os.Exit }()
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
	// A deadline within the margin leaves no time to wait. Should the
	// watchdog answer first on a loaded machine, the call still goes on
	// here (abort does not end the test process) and starts the build.
	t.Setenv("LORE_HOOK_DEADLINE", deadlineMargin.String())
	abort = func(int) {}
	defer func() { abort = os.Exit }()
	in, _ := json.Marshal(bash(root, newSession(t), "pytest"))
	var out bytes.Buffer
	Main([]string{"claude", "PreToolUse"}, bytes.NewReader(in), &out, &bytes.Buffer{})
	if out.String() != "{}\n" {
		t.Errorf("stdout %q", out.String())
	}
	// The build runs on after the call: wait for its record.
	got := waitFile(runs, func(data []byte) bool { return len(data) > 0 })
	if string(got) != "build --quiet fd=3\n" {
		t.Errorf("lore runs: %q", got)
	}
}

// An item file edited in place (same inode, same size: no folder changes)
// is never injected from its old text: with no lore to rebuild, the call
// answers without it and keeps the deny whose file did not change.
func TestItemEditedInPlaceIsLeftOut(t *testing.T) {
	root := repo(t, testItems)
	t.Setenv("PATH", t.TempDir())
	p := filepath.Join(root, ".lore/lessons/pytest.md")
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(old, []byte("Bare pytest"), []byte("BARE PYTEST"), 1)
	if bytes.Equal(edited, old) {
		t.Fatal("the edit changed nothing")
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(edited)
	f.Close()
	out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), "git push --force origin main && pytest"))
	if !strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(out, "Bare pytest") {
		t.Errorf("want the deny and not the edited lesson: %s", out)
	}
	log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	for _, want := range []string{"stale (.lore/lessons/pytest.md changed)", "left out 01JPYTEST0000000000000000A"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("hook.log lacks %q:\n%s", want, log)
		}
	}
}

// The waits for a rebuild are set for the default deadline; another
// stretches them alike, and the default leaves them as they are.
func TestWaitsStretchWithTheDeadline(t *testing.T) {
	for _, c := range []struct{ span, wait, want time.Duration }{
		{Deadline, callWait, callWait},
		{Deadline, startWait, startWait},
		{time.Minute, callWait, 45 * time.Second},
		{time.Minute, startWait, 15 * time.Second},
		{Deadline / 2, callWait, callWait / 2},
	} {
		h := &handler{span: c.span}
		if got := h.stretched(c.wait); got != c.want {
			t.Errorf("deadline %v: wait %v stretched to %v, want %v", c.span, c.wait, got, c.want)
		}
	}
}

// holdBuildLock takes the build lock as a running build would, until the
// test ends or it closes the file returned.
func holdBuildLock(t *testing.T, root string) *os.File {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, ".lore/cache/build.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if !tryLock(f) {
		t.Fatal("the build lock is taken already")
	}
	return f
}

// A tool call that finds the manifest stale while a build another call
// started is running answers at once from the stale manifest and logs it;
// with no manifest at all (a fresh clone) it still waits for that build.
func TestStaleCallDoesNotWaitForAnotherCallsBuild(t *testing.T) {
	root := repo(t, testItems)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LORE_HOOK_DEADLINE", Deadline.String())
	abort = func(int) {}
	defer func() { abort = os.Exit }()
	holdBuildLock(t, root)
	staleCall(t, root)
	logPath := filepath.Join(root, ".lore/cache/hook.log")
	log, _ := os.ReadFile(logPath)
	if !strings.Contains(string(log), "a build another call started is running; answering from it") ||
		strings.Contains(string(log), "not rebuilt within") {
		t.Errorf("the call waited for another call's build, or did not say so:\n%s", log)
	}
	os.Remove(logPath)
	os.Remove(filepath.Join(root, ".lore/cache/manifest"))
	hook(t, "claude", "PreToolUse", bash(root, newSession(t), "pytest"))
	if log, _ = os.ReadFile(logPath); !strings.Contains(string(log), "manifest missing: not rebuilt within") {
		t.Errorf("with no manifest the call did not wait for the running build:\n%s", log)
	}
}

// A store larger than waitItems never makes a tool call wait: the call
// that finds its manifest stale starts the build and answers at once from
// the stale manifest; a smaller store's call waits for the build.
func TestLargeStoreCallDoesNotWait(t *testing.T) {
	for _, large := range []bool{true, false} {
		t.Run(fmt.Sprintf("large=%v", large), func(t *testing.T) {
			root := repo(t, testItems)
			runs := fakeLore(t) // a build that never ends while the test runs
			t.Setenv("LORE_HOOK_DEADLINE", Deadline.String())
			abort = func(int) {}
			defer func() { abort = os.Exit }()
			if large {
				defer func(n int) { waitItems = n }(waitItems)
				waitItems = 1
			}
			staleCall(t, root)
			if got := waitFile(runs, func(data []byte) bool { return len(data) > 0 }); string(got) != "build --quiet fd=3\n" {
				t.Errorf("lore runs: %q, want the one build this call started", got)
			}
			log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
			said := strings.Contains(string(log), "more than a call waits to see rebuilt")
			waited := strings.Contains(string(log), "not rebuilt within")
			if said != large || waited == large {
				t.Errorf("large %v: said %v, waited %v:\n%s", large, said, waited, log)
			}
		})
	}
}

// A deny whose file changed while a build is running (lore's own
// post-checkout hook, right after a git checkout) is not dropped: the call
// waits for that build and denies with the new text.
func TestChangedDenyWaitsForTheRunningBuild(t *testing.T) {
	root := repo(t, testItems)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LORE_HOOK_DEADLINE", Deadline.String())
	abort = func(int) {}
	defer func() { abort = os.Exit }()
	lock := holdBuildLock(t, root)
	p := filepath.Join(root, ".lore/pitfalls/PF-0001-force-push.md")
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0) // in place: no folder changes
	if err != nil {
		t.Fatal(err)
	}
	f.Write(bytes.Replace(old, []byte("--force-with-lease."), []byte("--force-with-lease on your own branch."), 1))
	f.Close()
	built := make(chan struct{})
	go func() { // the running build: it compiles the edit, then lets go of the lock
		defer close(built)
		time.Sleep(100 * time.Millisecond)
		rebuildIn(t, root)
		lock.Close()
	}()
	out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), "git push --force origin main"))
	<-built
	if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "on your own branch") {
		t.Errorf("want the deny with its new text: %s", out)
	}
}

// rebuildIn compiles the item files of the repository at root into its
// manifest, as lore build would.
func rebuildIn(t *testing.T, root string) {
	paths, err := filepath.Glob(filepath.Join(root, ".lore", "*", "*.md"))
	if err != nil {
		t.Error(err)
		return
	}
	var items []*markdown.Item
	for _, p := range paths {
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		it, perr := markdown.Parse(filepath.ToSlash(rel), data)
		if err != nil || perr != nil {
			t.Error(err, perr)
			return
		}
		items = append(items, it)
	}
	snap := compile.TakeSnapshot(root, nil, config.Default().Learnings)
	src, _ := compile.Compile(compile.Input{Items: items, Config: config.Default(), Snapshot: snap})
	data, err := manifest.Build(src)
	if err != nil {
		t.Error(err)
		return
	}
	if err := os.WriteFile(filepath.Join(root, ".lore", "cache", "manifest"), data, 0o644); err != nil {
		t.Error(err)
	}
}

// A build that fails (a config.yaml lint rejects) is said to have failed
// in the hook log, under its error, not to have been slow.
func TestFailedBuildIsSaid(t *testing.T) {
	root := repo(t, testItems)
	bin := t.TempDir()
	script := "#!/bin/sh\necho 'lore: .lore/config.yaml:3: inject.threshold: not a number' >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(bin, "lore"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("LORE_HOOK_DEADLINE", Deadline.String())
	abort = func(int) {}
	defer func() { abort = os.Exit }()
	staleCall(t, root)
	log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	if !strings.Contains(string(log), "inject.threshold: not a number") ||
		!strings.Contains(string(log), "the build failed (its error is above); answering from it") ||
		strings.Contains(string(log), "not rebuilt within") {
		t.Errorf("the hook log does not say the build failed:\n%s", log)
	}
}

// staleCall adds a copy of the pytest lesson under another id, which makes
// the manifest stale, and checks that a pytest call still gets the lesson
// from the stale manifest.
func staleCall(t *testing.T, root string) {
	t.Helper()
	added := strings.Replace(testItems[".lore/lessons/pytest.md"], "01JPYTEST0000000000000000A", "01JPYTEST0000000000000000B", 1)
	if err := os.WriteFile(filepath.Join(root, ".lore/lessons/pytest2.md"), []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), "pytest"))
	if !strings.Contains(context(t, out), "pytest hangs") {
		t.Errorf("the stale manifest's lesson is missing: %s", out)
	}
}
