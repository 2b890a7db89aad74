package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// BenchmarkRescan measures `lore scan` of a transcript with nothing new
// against `lore --version`, a lore command that does nothing (DESIGN
// section 14: <= 1.5x), the real binary
// run by run, interleaved so machine drift hits both alike. A re-scan
// reads no transcript and redacts nothing, so it must not pay for the
// secret detector either.
//
//	go test ./cmd/lore -run '^$' -bench Rescan -benchtime=1x
func BenchmarkRescan(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "lore")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build lore: %v\n%s", err, out)
	}
	repo := filepath.Join(dir, "repo")
	env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
	run := func(args ...string) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = repo, env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		b.Fatal(err)
	}
	tr, err := filepath.Abs("../../scan/testdata/transcripts/claude-code/tool_heavy.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	run("git", "init", "-q")
	run(bin, "init")
	run(bin, "scan", tr) // drafts written, bookmark taken: nothing new after this
	const runs = 101
	var version, rescan []time.Duration
	b.ResetTimer()
	for range b.N {
		for range runs {
			t0 := time.Now()
			_ = exec.Command(bin, "--version").Run() // exit 2 while lore has no --version: start-up and flag parsing alone
			version = append(version, time.Since(t0))
			t0 = time.Now()
			run(bin, "scan", tr)
			rescan = append(rescan, time.Since(t0))
		}
	}
	b.StopTimer()
	v, r := median(version), median(rescan)
	b.ReportMetric(float64(v.Microseconds())/1000, "version-ms")
	b.ReportMetric(float64(r.Microseconds())/1000, "rescan-ms")
	b.ReportMetric(float64(r)/float64(v), "rescan/version")
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
