package hooks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/benchproc"
	"github.com/lore-agents/lore/internal/inject/ledger"
	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/synthetic"
)

// The bars of docs/design.md, Performance and quality bars: the whole
// PreToolUse process against a Go program that reads stdin and prints {},
// measured in the same benchmark, interleaved run by run so machine drift hits
// both alike.
//
//	go test ./internal/inject/hooks -run '^$' -bench PreToolUse -benchtime=1x
const benchRuns = 301

var trivialSrc = `package main

import (
	"io"
	"os"
)

func main() {
	io.ReadAll(os.Stdin)
	os.Stdout.WriteString("{}\n")
}
`

// benchBinaries builds lore-hook and the trivial program once per process.
var benchBins struct{ dir, hook, trivial string }

func binaries(b *testing.B) (hook, trivial string) {
	b.Helper()
	if benchBins.dir == "" {
		dir, err := os.MkdirTemp("", "lore-bench-bin")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			os.RemoveAll(benchBins.dir)
			benchBins.dir = ""
		})
		hookBin, trivialBin := filepath.Join(dir, "lore-hook"), filepath.Join(dir, "trivial")
		benchproc.Build(b, dir, "github.com/lore-agents/lore/cmd/lore-hook", "github.com/lore-agents/lore/cmd/lore")
		src := filepath.Join(dir, "trivial.go")
		if err := os.WriteFile(src, []byte(trivialSrc), 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command("go", "build", "-o", trivialBin+".linked", src)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GO111MODULE=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("build trivial: %v\n%s", err, out)
		}
		benchproc.Settle(b, trivialBin+".linked", trivialBin) // as Build does the hook's
		benchBins.dir, benchBins.hook, benchBins.trivial = dir, hookBin, trivialBin
	}
	return benchBins.hook, benchBins.trivial
}

// benchStore writes a git work tree with n synthetic active item files
// (synthetic.Files: realistic Bash, file, keyword and path triggers)
// and their manifest, compiled as `lore build` does, with the stat of every
// source, so each hook call pays for its freshness check.
func benchStore(b *testing.B, n int) string {
	b.Helper()
	root, rep := buildStore(b, synthetic.Files(n))
	if rep.Compiled != n {
		b.Fatalf("compiled %d of %d items", rep.Compiled, n)
	}
	m, err := manifest.Open(filepath.Join(root, filepath.FromSlash(lorepath.Manifest)))
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	if p, err := m.ChangedAny(root); p != "" || err != nil {
		b.Fatalf("the bench manifest is stale: %q %v", p, err)
	}
	return root
}

// orgShape starts the name of a case whose store is orgStore's.
const orgShape = "org-shape-100+9900/"

// orgStore is benchStore's n items in the organisation's shape: every
// hundredth in the project, the others in a fetched source's part, with
// one in a thousand of them switched off (shadowed or disabled).
func orgStore(b *testing.B, n int) string {
	b.Helper()
	project, source := map[string][]byte{}, map[string][]byte{}
	var off []string
	for rel, data := range synthetic.Files(n) {
		var i int
		if _, err := fmt.Sscanf(filepath.Base(rel), "item-%05d.md", &i); err != nil {
			b.Fatal(err)
		}
		switch {
		case i%100 == 0:
			project[rel] = data
		default:
			source[strings.TrimPrefix(rel, lorepath.Dir+"/")] = data
		}
		if i%1000 == 1 {
			id, _, _ := strings.Cut(strings.TrimPrefix(string(data), "---\nid: "), "\n")
			off = append(off, id)
		}
	}
	root, _ := partStore(b, project, source, off)
	m, err := manifest.Open(filepath.Join(root, filepath.FromSlash(lorepath.Manifest)))
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	if p, err := m.ChangedAny(root); p != "" || err != nil || m.Len() != len(project) || len(m.Parts()) != 1 {
		b.Fatalf("the bench manifest: %d items, %d parts, stale %q %v", m.Len(), len(m.Parts()), p, err)
	}
	return root
}

func runOnce(b *testing.B, bin string, args []string, stdin []byte, env ...string) time.Duration {
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	d, out := benchproc.Run(b, cmd)
	if len(out) == 0 {
		b.Fatalf("%s printed nothing", bin)
	}
	return d
}

var median = benchproc.Median

// Scenarios of BenchmarkPreToolUse. Each run is a new session unless
// steady: started has had SessionStart (its seen file exists, a prompt is
// stored, nothing claimed), first-call has not (the hook makes what it
// needs), first-call-disk neither, with the state folder on disk, steady
// has already been shown every item that matches.
const (
	started = iota
	firstCall
	firstCallDisk
	steady
	steadyAllCores // steady, without the GOMAXPROCS=1 of the hook's registered command line
)

func BenchmarkPreToolUse(b *testing.B) {
	hookBin, trivialBin := binaries(b)
	type benchCase struct {
		name       string
		items      int
		tool, cmd  string
		scenario   int
		wantInject bool
		bar        float64 // 0: no bar, a row of the scaling table
		input      string  // tool_input ($ROOT: the store) when not a command
		want       string  // what the injection names ("pytest" when "")
	}
	var cases []benchCase
	sizes := []int{100, 1000, 10000}
	if os.Getenv("LORE_BENCH_LARGE") != "" {
		sizes = append(sizes, 50000)
	}
	for _, n := range sizes {
		bar := map[int]float64{1000: 1.5, 10000: 2}[n]
		pre := fmt.Sprintf("items=%d/", n)
		cases = append(cases,
			benchCase{pre + "matching-Bash", n, "Bash", synthetic.BenchCommand, started, true, bar, "", ""},
			benchCase{pre + "matching-Bash-first-call", n, "Bash", synthetic.BenchCommand, firstCall, true, bar, "", ""})
		if n == 1000 {
			cases = append(cases,
				benchCase{pre + "matching-Bash-first-call-disk", n, "Bash", synthetic.BenchCommand, firstCallDisk, true, 0, "", ""},
				benchCase{pre + "steady-state-all-cores", n, "Bash", synthetic.BenchCommand, steadyAllCores, false, 0, "", ""})
		}
		if n == 1000 || n == 10000 {
			cases = append(cases,
				benchCase{pre + "steady-state", n, "Bash", synthetic.BenchCommand, steady, false, 1.2, "", ""},
				benchCase{pre + "unnamed-tool", n, "WebSearch", "", started, false, 1.2, "", ""},
				// The store has content items: an Edit's added text is read
				// and its grams probed, a 4 KiB edit and a 63 KiB Write (the cap is 64).
				benchCase{pre + "content-Edit-4KiB", n, "Edit", "", started, true, bar, editInput(4<<10, true), "fetch_json"},
				benchCase{pre + "content-Edit-4KiB-no-match", n, "Edit", "", started, false, bar, editInput(4<<10, false), ""},
				benchCase{pre + "content-Write-63KiB", n, "Write", "", started, true, bar, editInput(63<<10, true), "fetch_json"})
		}
	}
	// The organisation's shape (issue 23): the 10,000-item store split into
	// the project's 100 items and a part of 9,900 from a fetched source.
	for _, sc := range []struct {
		name     string
		scenario int
		bar      float64
	}{{"matching-Bash-first-call", firstCall, 2}, {"steady-state", steady, 1.2}} {
		cases = append(cases, benchCase{orgShape + sc.name, 10000, "Bash", synthetic.BenchCommand, sc.scenario, sc.scenario != steady, sc.bar, "", ""})
	}
	// The state folder where the hook puts it on Linux: on tmpfs
	// (XDG_RUNTIME_DIR or /dev/shm). first-call-disk puts it on the temp
	// dir's disk, as on a system with neither.
	memState, diskState := tmpfsDir(b), b.TempDir()
	for _, dir := range []string{memState, diskState} {
		b.Setenv("XDG_RUNTIME_DIR", dir)
		otherContexts(b, weekOfContexts)
	}
	stores, parent := map[int]string{}, b // a store outlives the case that built it
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.Setenv("XDG_RUNTIME_DIR", memState)
			if tc.scenario == firstCallDisk {
				b.Setenv("XDG_RUNTIME_DIR", diskState)
			}
			key, store := tc.items, benchStore
			if strings.HasPrefix(tc.name, orgShape) {
				key, store = -tc.items, orgStore
			}
			root, ok := stores[key]
			if !ok {
				root = store(parent, tc.items)
				stores[key] = root
			}
			input := func(session string) []byte {
				ti := `{"query":"golang benchmarks"}`
				if tc.cmd != "" {
					ti = fmt.Sprintf(`{"command":%q}`, tc.cmd)
				}
				if tc.input != "" {
					ti = strings.ReplaceAll(tc.input, "$ROOT", root)
				}
				return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/t.jsonl","cwd":%q,"hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s,"tool_use_id":"toolu_1"}`,
					session, root, tc.tool, ti))
			}
			isSteady := tc.scenario == steady || tc.scenario == steadyAllCores
			var sessions []string
			defer func() {
				for _, s := range sessions {
					openSession(s, "").wipe()
				}
			}()
			newSession := func() string {
				s := fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), len(sessions))
				sessions = append(sessions, s)
				if tc.scenario == firstCall || tc.scenario == firstCallDisk {
					return s
				}
				sess := openSession(s, "")
				if err := sess.ensure(); err != nil {
					b.Fatal(err)
				}
				if err := sess.addPrompt("the api unit tests fail since the last merge, can you run them and fix it?"); err != nil {
					b.Fatal(err)
				}
				if isSteady {
					claimMatches(b, root, sess, tc.cmd)
				}
				return s
			}
			var steadySession string
			if isSteady {
				steadySession = newSession()
			}
			session := func() string {
				if isSteady {
					return steadySession // nothing new to show: the session stays as it is
				}
				return newSession()
			}
			// The hook must do the real work: check the output once, and
			// that it appended its ledger entry (which every run then pays).
			kept := ledgerEntries(b, root)
			probe := exec.Command(hookBin, "claude", "PreToolUse")
			probe.Stdin = bytes.NewReader(input(session()))
			out, err := probe.Output()
			if n := ledgerEntries(b, root); n != kept+1 {
				b.Fatalf("the probe appended %d ledger entries, want 1", n-kept)
			}
			want := tc.want
			if want == "" {
				want = "pytest"
			}
			if err != nil || strings.Contains(string(out), want) != tc.wantInject || !tc.wantInject && out[1] != '}' {
				b.Fatalf("probe: %v\n%s", err, out)
			}
			// The hook runs as its registered command line runs it
			// (agent.Command), on one P.
			procs := []string{"GOMAXPROCS=1"}
			if tc.scenario == steadyAllCores {
				procs = nil
			}
			var hookT, trivT []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for r := 0; r < benchRuns; r++ {
					b.StopTimer()
					in := input(session())
					b.StartTimer()
					trivT = append(trivT, runOnce(b, trivialBin, nil, in))
					hookT = append(hookT, runOnce(b, hookBin, []string{"claude", "PreToolUse"}, in, procs...))
				}
			}
			b.StopTimer()
			h, t := median(hookT), median(trivT)
			ratio := float64(h) / float64(t)
			b.ReportMetric(float64(h.Microseconds())/1000, "hook-ms")
			b.ReportMetric(float64(t.Microseconds())/1000, "trivial-ms")
			b.ReportMetric(ratio, "x-trivial")
			if tc.bar > 0 {
				b.ReportMetric(tc.bar, "bar")
				if ratio > tc.bar {
					b.Logf("over the bar: %.2fx > %.1fx (hook %v, trivial %v)", ratio, tc.bar, h, t)
				}
			}
		})
	}
}

// ledgerEntries counts the entries of root's ledger.
func ledgerEntries(b *testing.B, root string) int {
	b.Helper()
	got, skipped, err := ledger.Read(root)
	if err != nil || skipped != 0 {
		b.Fatalf("ledger: %d skipped, %v", skipped, err)
	}
	return len(got)
}

// tmpfsDir is a folder of the benchmark's own on /dev/shm, where Linux
// has it, removed after; else in the temp dir.
func tmpfsDir(b *testing.B) string {
	dir, err := os.MkdirTemp(shmDir, "lore-bench-")
	if err != nil {
		return b.TempDir()
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// weekOfContexts is how many contexts a heavy user's week leaves in the
// state folder, which the SessionStart sweep keeps to a week: 20 sessions
// a day, each with a few sub-agents.
const weekOfContexts = 500

// otherContexts fills the state folder (TestMain gives the package its own
// temp dir) with n contexts' seen and prompts files, as a week of use
// leaves it: the first claim of a session creates its file among them.
func otherContexts(b *testing.B, n int) {
	b.Helper()
	for i := range n {
		s := openSession(fmt.Sprintf("other-%d", i), "")
		if _, err := s.claim([]string{"01HF7YATAC0000000000000000", "01HF7YATAC0000000000000001"}); err != nil {
			b.Fatal(err)
		}
		if err := s.addPrompt("fix the flaky test in the api"); err != nil {
			b.Fatal(err)
		}
	}
}

// editInput is the tool_input of an Edit (new_string) or Write (content)
// adding size bytes of code (in a file no path glob of the store names), with a call of a coroutine without await
// (a content item of synthetic.Files matches it) when bad.
func editInput(size int, bad bool) string {
	var b strings.Builder
	for i := 0; b.Len() < size-64; i++ {
		fmt.Fprintf(&b, "def handler_%d(request):\n    return render(request, \"page_%d.html\")\n\n", i, i)
	}
	if bad {
		b.WriteString("async def sync(client):\n    data = client.fetch_json(url)\n")
	}
	key := "new_string"
	if size > 16<<10 {
		key = "content"
	}
	return fmt.Sprintf(`{"file_path":"$ROOT/lib/views.rb","old_string":"pass",%q:%q}`, key, b.String())
}

// claimMatches marks every item that matches cmd as shown in sess, as the
// calls before it in a long session would have.
func claimMatches(b *testing.B, root string, sess session, cmd string) {
	b.Helper()
	m, err := manifest.Open(filepath.Join(root, filepath.FromSlash(lorepath.Manifest)))
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	d, err := match.Explain(m, match.Call{Tool: "Bash", Command: cmd})
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, r := range append(d.Injected, d.Dropped...) {
		if r.Deny {
			b.Fatalf("%s denies the timed call", r.ID)
		}
		ids = append(ids, r.ID)
	}
	if len(ids) < 3 {
		b.Fatalf("%d items match %q, want several", len(ids), cmd)
	}
	if _, err := sess.claim(ids); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkFreshness is the freshness check alone, in process: what every
// hook call pays (a stat per watched folder and file) and what SessionStart
// and lore build pay (a stat per item file too). us/check is the median of
// 101 checks per iteration, so -benchtime=1x measures warm checks too.
//
//	go test ./internal/inject/hooks -run '^$' -bench Freshness -benchtime=1x
func BenchmarkFreshness(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		root := benchStore(b, n)
		m, err := manifest.Open(filepath.Join(root, filepath.FromSlash(lorepath.Manifest)))
		if err != nil {
			b.Fatal(err)
		}
		for name, check := range map[string]func(string) (string, error){"every-call": m.Changed, "every-file": m.ChangedAny} {
			b.Run(fmt.Sprintf("items=%d/%s", n, name), func(b *testing.B) {
				var ds []time.Duration
				for b.Loop() {
					for range 101 {
						start := time.Now()
						if p, err := check(root); p != "" || err != nil {
							b.Fatalf("stale: %q %v", p, err)
						}
						ds = append(ds, time.Since(start))
					}
				}
				b.ReportMetric(float64(median(ds).Nanoseconds())/1000, "us/check")
			})
		}
		m.Close()
	}
}

// BenchmarkRebuild is a whole PreToolUse process that finds no manifest (a
// fresh clone): lore-hook runs lore build from next to itself and waits
// for it, up to callWait. call-ms is the hook call, rebuild-ms the build
// (until it releases the build lock), answered the share of calls that
// got the lesson from the new manifest within the wait.
//
//	go test ./internal/inject/hooks -run '^$' -bench Rebuild -benchtime=1x
func BenchmarkRebuild(b *testing.B) {
	hookBin, _ := binaries(b)
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			root := benchStore(b, n)
			path := filepath.Join(root, filepath.FromSlash(lorepath.Manifest))
			lock := filepath.Join(root, filepath.FromSlash(lorepath.BuildLock))
			var calls, builds []time.Duration
			answered := 0
			for i := 0; i < b.N; i++ {
				for r := 0; r < 5; r++ {
					if err := os.Remove(path); err != nil {
						b.Fatal(err)
					}
					in := fmt.Sprintf(`{"session_id":"bench-rebuild-%d-%d-%d","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd app && pytest -x tests"}}`,
						time.Now().UnixNano(), i, r, root)
					cmd := exec.Command(hookBin, "claude", "PreToolUse")
					cmd.Stdin = strings.NewReader(in)
					start := time.Now()
					out, err := cmd.Output()
					calls = append(calls, time.Since(start))
					if err != nil {
						b.Fatal(err)
					}
					if strings.Contains(string(out), "pytest") {
						answered++
					}
					for isLocked(lock) {
						time.Sleep(time.Millisecond)
					}
					builds = append(builds, time.Since(start))
					if _, err := os.Stat(path); err != nil {
						log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
						b.Fatalf("no manifest after the build: %v\n%s", err, log)
					}
				}
			}
			b.ReportMetric(float64(median(calls).Microseconds())/1000, "call-ms")
			b.ReportMetric(float64(median(builds).Microseconds())/1000, "rebuild-ms")
			b.ReportMetric(float64(answered)/float64(len(calls)), "answered")
			b.ReportMetric(float64(callWait.Milliseconds()), "wait-limit-ms")
		})
	}
}

// BenchmarkStaleCalls is an agent's tool calls, one every 100 ms, after an
// edit to one item (saved by rename, as editors do) in a large store: the
// first call finds the manifest stale and starts the build; the calls
// until it ends find it running. "edit" keeps the item cache (a quick
// build); "upgrade" removes it first, as a new lore binary does, so the
// build reads and checks every item again (the second-long build of a
// large store). waited counts the calls that took over 500 ms (each that waits
// takes up to callWait); first-ms is the first call, other-ms the median
// of the rest, calls how many ran before the build ended (docs/design.md,
// Manifest freshness).
//
//	go test ./internal/inject/hooks -run '^$' -bench StaleCalls -benchtime=1x
func BenchmarkStaleCalls(b *testing.B) {
	hookBin, _ := binaries(b)
	for _, n := range []int{10000, 20000} {
		root := benchStore(b, n)
		// Forced: the store was built in process, so a plain build finds
		// the manifest fresh and saves no item cache of the binary's own.
		build := exec.Command(filepath.Join(filepath.Dir(hookBin), "lore"), "build", "--quiet", "--force")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil { // the binary's own item cache: the steady state
			b.Fatalf("lore build: %v\n%s", err, out)
		}
		for _, upgrade := range []bool{false, true} {
			name := map[bool]string{false: "edit", true: "upgrade"}[upgrade]
			b.Run(fmt.Sprintf("items=%d/%s", n, name), func(b *testing.B) {
				staleCalls(b, hookBin, root, upgrade)
			})
		}
	}
}

func staleCalls(b *testing.B, hookBin, root string, upgrade bool) {
	lock := filepath.Join(root, filepath.FromSlash(lorepath.BuildLock))
	var first, others []time.Duration
	waited, calls := 0, 0
	for i := 0; i < b.N; i++ {
		if upgrade {
			os.Remove(filepath.Join(root, filepath.FromSlash(lorepath.ItemCache)))
		}
		editByRename(b, filepath.Join(root, ".lore/lessons", firstFile(b, filepath.Join(root, ".lore/lessons"))), i)
		for c := 0; c < 600; c++ {
			in := fmt.Sprintf(`{"session_id":"bench-stale-%d-%d-%d","cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd app && pytest -x tests"}}`,
				time.Now().UnixNano(), i, c, root)
			// The default deadline's waits, not TestMain's stretched ones.
			d := runOnce(b, hookBin, []string{"claude", "PreToolUse"}, []byte(in), "LORE_HOOK_DEADLINE="+Deadline.String())
			calls++
			if d > 500*time.Millisecond {
				waited++
			}
			if c == 0 {
				first = append(first, d)
			} else {
				others = append(others, d)
			}
			if !isLocked(lock) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		for isLocked(lock) {
			time.Sleep(time.Millisecond)
		}
	}
	b.ReportMetric(float64(median(first).Microseconds())/1000, "first-ms")
	if len(others) > 0 {
		b.ReportMetric(float64(median(others).Microseconds())/1000, "other-ms")
	}
	b.ReportMetric(float64(waited)/float64(b.N), "waited")
	b.ReportMetric(float64(calls)/float64(b.N), "calls")
}

// editByRename appends a line to the file at p as an editor saves it: a
// new file renamed over the old one.
func editByRename(b *testing.B, p string, i int) {
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, fmt.Appendf(data, "\nEdit %d.\n", i), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		b.Fatal(err)
	}
}

// firstFile is the name of the first file in dir.
func firstFile(b *testing.B, dir string) string {
	es, err := os.ReadDir(dir)
	if err != nil || len(es) == 0 {
		b.Fatalf("no file in %s: %v", dir, err)
	}
	return es[0].Name()
}
