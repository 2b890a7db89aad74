// Package benchproc times whole processes for the benchmarks that report
// ratios against a baseline run in the same benchmark (docs/design.md,
// Performance and quality bars): one way to run and time a command, one median.
package benchproc

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// Run runs cmd, with its stdout and stderr captured, and returns how long
// it took and what it printed; a failure ends the benchmark with the output.
func Run(tb testing.TB, cmd *exec.Cmd) (time.Duration, []byte) {
	tb.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		tb.Fatalf("%v: %v\n%s", cmd.Args, err, out.Bytes())
	}
	return d, out.Bytes()
}

// Median is the middle duration of ds (the upper one of an even count).
func Median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// Build builds pkgs into dir (go build -o dir/) as `make build` does, with
// CGO_ENABLED=0: lore's one cgo package is os/user, through kong, and a
// binary that needs the dynamic loader and libc starts 0.6 ms slower.
func Build(tb testing.TB, dir string, pkgs ...string) {
	tb.Helper()
	cmd := exec.Command("go", append([]string{"build", "-o", dir + string(os.PathSeparator)}, pkgs...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %v: %v\n%s", pkgs, err, out)
	}
}
