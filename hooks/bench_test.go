package hooks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/compile"
	"github.com/lore-agents/lore/config"
	"github.com/lore-agents/lore/manifest"
	"github.com/lore-agents/lore/match"
)

// The bars of DESIGN section 14: the whole PreToolUse process against a Go
// program that reads stdin and prints {}, measured in the same benchmark,
// interleaved run by run so machine drift hits both alike.
//
//	go test ./hooks -run '^$' -bench PreToolUse -benchtime=1x
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
		hookBin, trivialBin := filepath.Join(dir, "lore-hook"), filepath.Join(dir, "trivial")
		if out, err := exec.Command("go", "build", "-o", hookBin, "github.com/lore-agents/lore/cmd/lore-hook").CombinedOutput(); err != nil {
			b.Fatalf("build lore-hook: %v\n%s", err, out)
		}
		src := filepath.Join(dir, "trivial.go")
		if err := os.WriteFile(src, []byte(trivialSrc), 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command("go", "build", "-o", trivialBin, src)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GO111MODULE=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("build trivial: %v\n%s", err, out)
		}
		benchBins.dir, benchBins.hook, benchBins.trivial = dir, hookBin, trivialBin
	}
	return benchBins.hook, benchBins.trivial
}

// benchStore writes a work tree with a manifest of n active items shaped
// like a real store (compile.SyntheticFiles: clustered on git, npm, pytest,
// docker and kubectl, several matching compile.BenchCommand, bodies of real
// length, a few keyword and path items), compiled as `lore build` does.
func benchStore(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	data, rep, err := compile.Build(compile.Input{Items: compile.Synthetic(n), Config: config.Default()})
	if err != nil {
		b.Fatal(err)
	}
	if rep.Compiled != n {
		b.Fatalf("compiled %d of %d items", rep.Compiled, n)
	}
	writeManifest(b, root, data)
	return root
}

func runOnce(b *testing.B, bin string, args []string, stdin []byte) time.Duration {
	cmd := exec.Command(bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
	d := time.Since(start)
	if out.Len() == 0 {
		b.Fatalf("%s printed nothing", bin)
	}
	return d
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// Scenarios of BenchmarkPreToolUse. Each run is a new session unless
// steady: started has had SessionStart (its folders exist, a prompt is
// stored, nothing claimed), first-call has not (the hook makes what it
// needs), steady has already been shown every item that matches.
const (
	started = iota
	firstCall
	steady
)

func BenchmarkPreToolUse(b *testing.B) {
	hookBin, trivialBin := binaries(b)
	b.Cleanup(func() {
		os.RemoveAll(benchBins.dir)
		benchBins.dir = ""
	})
	type benchCase struct {
		name       string
		items      int
		tool, cmd  string
		scenario   int
		wantInject bool
		bar        float64 // 0: no bar, a row of the scaling table
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
			benchCase{pre + "matching-Bash", n, "Bash", compile.BenchCommand, started, true, bar},
			benchCase{pre + "matching-Bash-first-call", n, "Bash", compile.BenchCommand, firstCall, true, bar})
		if n == 1000 || n == 10000 {
			cases = append(cases,
				benchCase{pre + "steady-state", n, "Bash", compile.BenchCommand, steady, false, 1.2},
				benchCase{pre + "unnamed-tool", n, "WebSearch", "", started, false, 1.2})
		}
	}
	stores, parent := map[int]string{}, b // a store outlives the case that built it
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			root, ok := stores[tc.items]
			if !ok {
				root = benchStore(parent, tc.items)
				stores[tc.items] = root
			}
			input := func(session string) []byte {
				ti := `{"query":"golang benchmarks"}`
				if tc.cmd != "" {
					ti = fmt.Sprintf(`{"command":%q}`, tc.cmd)
				}
				return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/t.jsonl","cwd":%q,"hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s,"tool_use_id":"toolu_1"}`,
					session, root, tc.tool, ti))
			}
			var sessions []string
			defer func() {
				for _, s := range sessions {
					openSession(s, "").wipe()
				}
			}()
			newSession := func() string {
				s := fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), len(sessions))
				sessions = append(sessions, s)
				if tc.scenario == firstCall {
					return s
				}
				sess := openSession(s, "")
				if err := sess.ensure(); err != nil {
					b.Fatal(err)
				}
				if err := sess.addPrompt("the api unit tests fail since the last merge, can you run them and fix it?"); err != nil {
					b.Fatal(err)
				}
				if tc.scenario == steady {
					claimMatches(b, root, sess, tc.cmd)
				}
				return s
			}
			var steadySession string
			if tc.scenario == steady {
				steadySession = newSession()
			}
			session := func() string {
				if tc.scenario == steady {
					return steadySession // nothing new to show: the session stays as it is
				}
				return newSession()
			}
			// The hook must do the real work: check the output once.
			probe := exec.Command(hookBin, "claude", "PreToolUse")
			probe.Stdin = bytes.NewReader(input(session()))
			out, err := probe.Output()
			if err != nil || strings.Contains(string(out), "pytest") != tc.wantInject {
				b.Fatalf("probe: %v\n%s", err, out)
			}
			var hookT, trivT []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for r := 0; r < benchRuns; r++ {
					b.StopTimer()
					in := input(session())
					b.StartTimer()
					trivT = append(trivT, runOnce(b, trivialBin, nil, in))
					hookT = append(hookT, runOnce(b, hookBin, []string{"claude", "PreToolUse"}, in))
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

// claimMatches marks every item that matches cmd as shown in sess, as the
// calls before it in a long session would have.
func claimMatches(b *testing.B, root string, sess session, cmd string) {
	b.Helper()
	m, err := manifest.Open(filepath.Join(root, filepath.FromSlash(manifest.RelPath)))
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
