package observe

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// BenchmarkReconcile is the between-sessions cost: a log of 2,000 sightings
// over 200 patterns, 100 of them rendered, nothing changed on disk.
func BenchmarkReconcile(b *testing.B) {
	l := newLog(b, "")
	var recs []Record
	for i := 0; i < 2000; i++ {
		recs = append(recs, mustSight(b, Pitfall, fmt.Sprintf("pattern number %d", i%200), 1, day0.Add(time.Duration(i)*time.Minute), i%200 < 100))
	}
	appendRecords(b, l, recs)
	out, _, err := l.Render(day0.Add(48 * time.Hour))
	if err != nil || len(out) != 100 {
		b.Fatalf("render: %v, %d", err, len(out))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := l.Reconcile(day0.Add(72 * time.Hour))
		if err != nil || rep.Unchanged != 100 {
			b.Fatalf("%v %+v", err, rep)
		}
	}
}

// BenchmarkLoad reads and folds the same 2,000-line log.
func BenchmarkLoad(b *testing.B) {
	l := newLog(b, "")
	var recs []Record
	for i := 0; i < 2000; i++ {
		recs = append(recs, mustSight(b, Workflow, fmt.Sprintf("pattern number %d", i%200), 1, day0, true))
	}
	appendRecords(b, l, recs)
	fi, _ := os.Stat(l.s.Path(l.Rel()))
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if obs, _, err := l.Load(); err != nil || len(obs) != 200 {
			b.Fatalf("%v %d", err, len(obs))
		}
	}
}

// appendRecords writes recs at the end of the log as they are (not
// folded), under the store lock: a log as many sessions leave it.
func appendRecords(tb testing.TB, l *Log, recs []Record) {
	tb.Helper()
	unlock, err := l.s.Lock()
	if err != nil {
		tb.Fatal(err)
	}
	defer unlock()
	if err := l.appendLocked(recs); err != nil {
		tb.Fatal(err)
	}
}
