package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/synthetic"
)

// TestHookSurvivesManifestFaults runs the real lore-hook binary against
// broken manifests (docs/design.md, Reliability and security): bit flips anywhere,
// truncation at many lengths, garbage, an empty file, a directory and a
// symlink loop in its place, and the file rewritten in place (truncated)
// while hooks have it mapped, which used to kill the hook with SIGBUS (exit
// 2 and a Go stack trace: a block in Claude Code). Every call must exit 0
// with valid JSON, and none may hang.
func TestHookSurvivesManifestFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite: runs the hook binary on broken manifests; make test runs it")
	}
	bin := filepath.Join(t.TempDir(), "lore-hook")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/lore-agents/lore/cmd/lore-hook").CombinedOutput(); err != nil {
		t.Fatalf("build lore-hook: %v\n%s", err, out)
	}
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // the hook's session state
	t.Setenv("LORE_HOOK_DEADLINE", "")       // the hook's own deadline
	root := repo(t, testItems)
	path := filepath.Join(root, ".lore", "cache", "manifest")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := &faultRun{t: t, bin: bin, root: root}
	// Intact, the inputs reach the items: a lesson and a deny.
	for i, want := range []string{"pytest hangs", `"permissionDecision":"deny"`} {
		if out, _ := f.call("intact", f.inputs()[i]); !strings.Contains(out, want) {
			t.Fatalf("intact manifest: %q not in %s", want, out)
		}
	}

	r := rand.New(rand.NewSource(1))
	put := func(data []byte) func() {
		return func() {
			os.RemoveAll(path)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Every byte of the header and directory, then a stride over records,
	// texts and the session block (with the last byte), one bit each.
	var flips []int
	for i := 0; i < len(good); i++ {
		if i < 256 || i%5 == 0 || i == len(good)-1 {
			flips = append(flips, i)
		}
	}
	for n, i := range flips {
		b := bytes.Clone(good)
		b[i] ^= 1 << (n % 8)
		f.check(fmt.Sprintf("bit %d of byte %d", n%8, i), put(b), n%4 == 0)
	}
	for n := 0; n < len(good); n += max(1, len(good)/97) {
		f.check(fmt.Sprintf("truncated to %d bytes", n), put(good[:n]), true)
	}
	for n := 0; n < 20; n++ {
		junk := make([]byte, r.Intn(1<<16))
		r.Read(junk)
		if n%2 == 0 && len(junk) > 8 {
			copy(junk, good[:8]) // the magic, to get past the first check
		}
		f.check(fmt.Sprintf("garbage %d", n), put(junk), true)
	}
	f.check("empty file", put(nil), true)
	f.check("directory", func() {
		os.RemoveAll(path)
		os.Mkdir(path, 0o755)
	}, true)
	f.check("symlink loop", func() {
		os.RemoveAll(path)
		os.Symlink(path, path)
	}, true)
	put(good)()
	inPlace, faults := f.rewrittenWhileMapped(path, 200)

	if t.Failed() {
		return
	}
	t.Logf("%d hook calls on %d broken manifests (%d while rewritten in place, %d of them caught a fault in the mapping): all exited 0 with valid JSON; slowest %v (deadline %v)",
		f.calls, f.cases, inPlace, faults, f.slowest, Deadline)
}

// hangAfter is when a hook call counts as hung: ten times its deadline,
// so that a loaded machine cannot fail the test, only a watchdog that
// never fires. (How long calls take is the benchmarks' to measure.)
const hangAfter = 10 * Deadline

// faultRun runs the hook binary and checks every answer.
type faultRun struct {
	t            *testing.T
	bin, root    string
	calls, cases int
	slowest      time.Duration
}

// check breaks the manifest with setup and calls the hook: every event
// that reads it when all, else one PreToolUse call.
func (f *faultRun) check(name string, setup func(), all bool) {
	setup()
	f.cases++
	inputs := f.inputs()
	if !all {
		inputs = inputs[:1]
	}
	for _, in := range inputs {
		f.call(name, in)
	}
}

// inputs are calls that read each part of the manifest: a matching Bash
// call (candidates, records, texts), a denied one (the fix), a prompt
// (keywords) and a SessionStart after compaction (the session block, and
// Priority's binary search).
func (f *faultRun) inputs() [][2]string {
	s := fmt.Sprintf("fault-%d", f.calls)
	j := func(v map[string]any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	return [][2]string{
		{"PreToolUse", j(bash(f.root, s, "cd app && pytest -x"))},
		{"PreToolUse", j(bash(f.root, s, "git push origin main --force"))},
		{"UserPromptSubmit", j(map[string]any{"session_id": s, "cwd": f.root, "hook_event_name": "UserPromptSubmit", "prompt": "cut the release"})},
		{"SessionStart", j(map[string]any{"session_id": s, "cwd": f.root, "hook_event_name": "SessionStart", "source": "compact"})},
	}
}

// call runs one hook and returns its output and whether its log shows a
// recovered fault.
func (f *faultRun) call(name string, in [2]string) (out string, fault bool) {
	cmd := exec.Command(f.bin, "claude", in[0])
	cmd.Stdin = strings.NewReader(in[1])
	var stdout, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &errb
	start := time.Now()
	err := cmd.Start()
	if err == nil {
		hung := time.AfterFunc(hangAfter, func() { cmd.Process.Kill() })
		err = cmd.Wait()
		if !hung.Stop() {
			err = fmt.Errorf("still running after %v, killed: the watchdog did not end it", hangAfter)
		}
	}
	d := time.Since(start)
	f.calls++
	f.slowest = max(f.slowest, d)
	switch {
	case err != nil:
		f.t.Errorf("%s, %s: %v\nstderr: %s", name, in[0], err, errb.Bytes())
	case !json.Valid(stdout.Bytes()):
		f.t.Errorf("%s, %s: invalid JSON %q", name, in[0], stdout.Bytes())
	}
	return stdout.String(), strings.Contains(errb.String(), "memory fault")
}

// rewrittenWhileMapped rewrites a large manifest in place (truncate, then
// write) in a loop while at least n hook calls run, so that some of them
// map the whole file and find it truncated under their reads. It returns
// how many calls ran and how many reported a recovered fault.
func (f *faultRun) rewrittenWhileMapped(path string, n int) (calls, faults int) {
	big, _, err := compile.Build(compile.Input{Items: synthetic.Items(3000), Config: config.Default()})
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, big, 0o644); err != nil {
		f.t.Fatal(err)
	}
	file, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	defer file.Close()
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			file.Truncate(0)
			file.WriteAt(big, 0)
		}
	}()
	// The race is hit by a few calls in a hundred: go on past n until one
	// has, or this case would pass without testing anything.
	faults, calls = 0, 0
	inputs := f.inputs()
	for ; calls < n || faults == 0 && calls < 10*n; calls++ {
		if _, fault := f.call("rewritten in place", inputs[calls%len(inputs)]); fault {
			faults++
		}
	}
	stop.Store(true)
	wg.Wait()
	f.cases++
	if faults == 0 {
		f.t.Errorf("no call of %d read the manifest while it was truncated", calls)
	}
	return calls, faults
}
