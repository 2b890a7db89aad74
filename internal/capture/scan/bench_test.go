package scan

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// replicate copies the fixture transcripts into dir until they total at
// least size bytes, and returns the file list.
func replicate(b *testing.B, dir string, size int64) []string {
	b.Helper()
	src, err := Files([]string{"testdata/transcripts"})
	if err != nil || len(src) == 0 {
		b.Fatalf("fixtures: %v", err)
	}
	var total int64
	var out []string
	for i := 0; total < size; i++ {
		for _, f := range src {
			dst := filepath.Join(dir, fmt.Sprintf("%03d-%s", i, filepath.Base(f)))
			n, err := copyFile(f, dst)
			if err != nil {
				b.Fatal(err)
			}
			total += n
			out = append(out, dst)
		}
	}
	return out
}

func copyFile(src, dst string) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// BenchmarkScan measures a full scan (both tiers) of 20 MB and 200 MB of
// transcripts (LORE_BENCH_LARGE=1 adds 2 GB) against `grep -c '#lesson'`
// over the same files in the same run, and a re-scan with nothing new
// against the full scan. Ratios are reported as metrics: grep-ratio is scan
// throughput / grep throughput (bar >= 0.5 at 200 MB), rescan-ratio is
// re-scan time / full scan time.
func BenchmarkScan(b *testing.B) {
	if _, err := exec.LookPath("grep"); err != nil {
		b.Fatal("grep is needed as the baseline")
	}
	sizes := []int64{20 << 20, 200 << 20}
	if os.Getenv("LORE_BENCH_LARGE") != "" {
		sizes = append(sizes, 2<<30)
	}
	for _, size := range sizes {
		b.Run(fmt.Sprintf("size=%dMB", size>>20), func(b *testing.B) { benchScan(b, size) })
	}
}

// grepBaseline is `grep -c '#lesson'` over files, the baseline of the
// scan benchmarks.
type grepBaseline []string

// warm flushes the copies (writeback would otherwise compete with the
// first timed run) and warms the page cache and grep.
func (g grepBaseline) warm() {
	syscall.Sync()
	_ = exec.Command("grep", g...).Run()
}

// run times one grep.
func (g grepBaseline) run() time.Duration {
	t0 := time.Now()
	cmd := exec.Command("grep", g...)
	cmd.Stdout = io.Discard
	_ = cmd.Run() // exit 1 when nothing matches
	return time.Since(t0)
}

func newGrep(files []string) grepBaseline { return append([]string{"-c", "#lesson"}, files...) }

func benchScan(b *testing.B, size int64) {
	dir := b.TempDir()
	files := replicate(b, dir, size)
	grep := newGrep(files)
	grep.warm()
	if _, err := Scan(files, nil, Options{}); err != nil {
		b.Fatal(err)
	}
	var grepT, scanT, rescanT time.Duration
	var bytes int64
	b.ResetTimer()
	for range b.N {
		grepT += grep.run()
		t0 := time.Now()
		res, err := Scan(files, nil, Options{})
		if err != nil {
			b.Fatal(err)
		}
		scanT += time.Since(t0)
		bytes = res.Stats.Bytes

		t0 = time.Now()
		again, err := Scan(files, res.Bookmarks, Options{})
		if err != nil {
			b.Fatal(err)
		}
		rescanT += time.Since(t0)
		if again.Stats.Files != 0 {
			b.Fatalf("re-scan read %d files", again.Stats.Files)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(bytes)/(1<<20)/(scanT.Seconds()/n), "scan-MB/s")
	b.ReportMetric(float64(bytes)/(1<<20)/(grepT.Seconds()/n), "grep-MB/s")
	b.ReportMetric(grepT.Seconds()/scanT.Seconds(), "grep-ratio")
	b.ReportMetric(rescanT.Seconds()/scanT.Seconds(), "rescan-ratio")
}
