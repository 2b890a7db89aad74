package signals

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkSessionStart is the hook's SessionStart work on a log of n
// signals: parse with jsonparser, decay, sort, render.
func BenchmarkSessionStart(b *testing.B) {
	for _, n := range []int{10, 200} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchSessionStart(b, n) })
	}
}

func benchSessionStart(b *testing.B, n int) {
	var sigs []Signal
	for i := 0; i < n; i++ {
		typ := Feedback
		if i%5 == 0 {
			typ = Redirect
		}
		sigs = append(sigs, Signal{ID: fmt.Sprint(i), Type: typ, Text: fmt.Sprintf("signal %d says something worth acting on", i),
			Strength: 0.5, HalfLife: 6 * time.Hour, Created: t0.Add(time.Duration(i) * time.Minute), Source: "cli"})
	}
	data := Marshal(sigs)
	now := t0.Add(4 * time.Hour)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, _ := Parse(data)
		if Render(s, now) == "" {
			b.Fatal("nothing rendered")
		}
	}
}
