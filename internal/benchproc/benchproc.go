// Package benchproc times whole processes for the benchmarks that report
// ratios against a baseline run in the same benchmark (docs/design.md,
// Performance and quality bars): one way to run and time a command, one median.
package benchproc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
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
// binary that needs the dynamic loader and libc starts 0.6 ms slower. Each
// binary is then settled (Settle).
func Build(tb testing.TB, dir string, pkgs ...string) {
	tb.Helper()
	out := tb.TempDir()
	cmd := exec.Command("go", append([]string{"build", "-o", out + string(os.PathSeparator)}, pkgs...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %v: %v\n%s", pkgs, err, msg)
	}
	bins, err := os.ReadDir(out)
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range bins {
		Settle(tb, filepath.Join(out, b.Name()), filepath.Join(dir, b.Name()))
	}
}

// Settle writes the binary at from to to with plain writes, as a copy
// does. A binary the linker has just written (through its memory mapping)
// started 90-200 us slower here than the same bytes copied, for minutes
// after the build (measured on the hook, docs/performance.md): timed as
// built, a program built seconds ago is charged against one installed long
// ago (git) or a smaller one that pays less of it (the trivial program).
func Settle(tb testing.TB, from, to string) {
	tb.Helper()
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, data, 0o755)
	}
	if err != nil {
		tb.Fatal(err)
	}
}
