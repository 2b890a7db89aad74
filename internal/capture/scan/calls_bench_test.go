package scan

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkReadCalls measures the calls pass (lore stats' read of the
// transcripts) over the same 20 MB and 200 MB as BenchmarkScan, against
// `grep -c '#lesson'` in the same run, and a re-read with nothing new.
// grep-ratio is calls throughput / grep throughput; reread-ms is the
// re-read's time.
func BenchmarkReadCalls(b *testing.B) {
	if _, err := exec.LookPath("grep"); err != nil {
		b.Fatal("grep is needed as the baseline")
	}
	for _, size := range []int64{20 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("size=%dMB", size>>20), func(b *testing.B) { benchCalls(b, size) })
	}
}

func benchCalls(b *testing.B, size int64) {
	files := replicate(b, b.TempDir(), size)
	grep := newGrep(files)
	grep.warm()
	if _, err := ReadCalls(files, nil, Options{}); err != nil {
		b.Fatal(err)
	}
	var grepT, readT, rereadT time.Duration
	var bytes int64
	calls := 0
	b.ResetTimer()
	for range b.N {
		grepT += grep.run()
		t0 := time.Now()
		res, err := ReadCalls(files, nil, Options{})
		if err != nil {
			b.Fatal(err)
		}
		readT += time.Since(t0)
		bytes, calls = res.Stats.Bytes, 0
		marks := ParseBookmarks(nil)
		for _, f := range res.Files {
			marks.Files[f.Key] = f.Mark
			calls += len(f.Calls)
		}

		t0 = time.Now()
		again, err := ReadCalls(files, marks, Options{})
		if err != nil {
			b.Fatal(err)
		}
		rereadT += time.Since(t0)
		if len(again.Files) != 0 {
			b.Fatalf("re-read read %d files", len(again.Files))
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(bytes)/(1<<20)/(readT.Seconds()/n), "calls-MB/s")
	b.ReportMetric(float64(bytes)/(1<<20)/(grepT.Seconds()/n), "grep-MB/s")
	b.ReportMetric(grepT.Seconds()/readT.Seconds(), "grep-ratio")
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(rereadT.Seconds()*1000/n, "reread-ms")
}
