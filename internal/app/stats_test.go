package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/synthetic"
	"github.com/lore-agents/lore/internal/testrepo"
)

// BenchmarkStats measures lore stats over a store of synthetic items
// shaped like a real one (internal/synthetic), committed in 20 steps, and
// the scan's fixture transcripts copied to 20 and 200 MB: cold-s is a run
// from an empty calls cache (every transcript read), warm-s a run with
// nothing new. Both include the git walk for activations, the ledger and
// matching every call against every item.
func BenchmarkStats(b *testing.B) {
	for _, items := range []int{1000, 10000} {
		for _, mb := range []int64{20, 200} {
			b.Run(fmt.Sprintf("items=%d/MB=%d", items, mb), func(b *testing.B) { benchStats(b, items, mb<<20) })
		}
	}
}

func benchStats(b *testing.B, items int, size int64) {
	r := testrepo.New(b)
	s := r.Store()
	if _, err := Init(s, InitOptions{}); err != nil {
		b.Fatal(err)
	}
	files := synthetic.Files(items)
	i := 0
	for rel, data := range files {
		r.Write(rel, string(data))
		if i++; i%(len(files)/20) == 0 {
			r.Commit(time.Date(2026, 1, 1+i/(len(files)/20), 9, 0, 0, 0, time.UTC).Format(time.RFC3339), "lore: items")
		}
	}
	r.Commit("", "lore: the rest")
	dir, _ := copyTranscripts(b, size)
	var cold, warm time.Duration
	var calls int
	b.ResetTimer()
	for range b.N {
		if err := os.RemoveAll(s.Path(lorepath.Calls)); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		res, err := Stats(s, StatsOptions{Transcripts: []string{dir}})
		if err != nil {
			b.Fatal(err)
		}
		cold += time.Since(t0)
		calls = res.Report.Calls
		if len(res.Report.Items) < items {
			b.Fatalf("%d items reported, want %d", len(res.Report.Items), items)
		}
		t0 = time.Now()
		if _, err := Stats(s, StatsOptions{Transcripts: []string{filepath.Clean(dir)}}); err != nil {
			b.Fatal(err)
		}
		warm += time.Since(t0)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(cold.Seconds()/n, "cold-s")
	b.ReportMetric(warm.Seconds()/n, "warm-s")
}
