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

// benchStore writes a work tree with a manifest of n synthetic active items
// (compile.SyntheticFiles: realistic Bash, file, keyword and path triggers;
// compiled as `lore build` does).
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

func BenchmarkPreToolUse(b *testing.B) {
	hookBin, trivialBin := binaries(b)
	b.Cleanup(func() {
		os.RemoveAll(benchBins.dir)
		benchBins.dir = ""
	})
	cases := []struct {
		name       string
		items      int
		tool, cmd  string
		wantInject bool
		bar        float64
	}{
		{"items=1000/matching-Bash", 1000, "Bash", "cd app && pytest -x tests", true, 1.5},
		{"items=10000/matching-Bash", 10000, "Bash", "cd app && pytest -x tests", true, 2},
		{"items=1000/unnamed-tool", 1000, "WebSearch", "", false, 1.2},
		{"items=10000/unnamed-tool", 10000, "WebSearch", "", false, 1.2},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			root := benchStore(b, tc.items)
			input := func(session string) []byte {
				ti := `{"query":"golang benchmarks"}`
				if tc.cmd != "" {
					ti = fmt.Sprintf(`{"command":%q}`, tc.cmd)
				}
				return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":"/tmp/t.jsonl","cwd":%q,"hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s,"tool_use_id":"toolu_1"}`,
					session, root, tc.tool, ti))
			}
			// The hook must do the real work: check the output once.
			probe := exec.Command(hookBin, "claude", "PreToolUse")
			probe.Stdin = bytes.NewReader(input(fmt.Sprintf("bench-probe-%d", time.Now().UnixNano())))
			out, err := probe.Output()
			if err != nil || strings.Contains(string(out), "pytest") != tc.wantInject {
				b.Fatalf("probe: %v\n%s", err, out)
			}
			var hookT, trivT []time.Duration
			var sessions []string
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for r := 0; r < benchRuns; r++ {
					// A fresh session as Claude Code runs it: SessionStart came
					// first and made its folders (untimed), nothing is claimed yet.
					s := fmt.Sprintf("bench-%d-%d-%d", time.Now().UnixNano(), i, r)
					sessions = append(sessions, s)
					if err := openSession(s, "").ensure(); err != nil {
						b.Fatal(err)
					}
					in := input(s)
					trivT = append(trivT, runOnce(b, trivialBin, nil, in))
					hookT = append(hookT, runOnce(b, hookBin, []string{"claude", "PreToolUse"}, in))
				}
			}
			b.StopTimer()
			for _, s := range sessions {
				openSession(s, "").wipe()
			}
			h, t := median(hookT), median(trivT)
			ratio := float64(h) / float64(t)
			b.ReportMetric(float64(h.Microseconds())/1000, "hook-ms")
			b.ReportMetric(float64(t.Microseconds())/1000, "trivial-ms")
			b.ReportMetric(ratio, "x-trivial")
			b.ReportMetric(tc.bar, "bar")
			if ratio > tc.bar {
				b.Logf("over the bar: %.2fx > %.1fx (hook %v, trivial %v)", ratio, tc.bar, h, t)
			}
		})
	}
}
