package fuzzlimit

import (
	"strings"
	"testing"
)

// fakeT records a failure instead of ending the test.
type fakeT struct {
	testing.TB
	failed string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = format
}

func TestRunFailsALoop(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	ft := &fakeT{}
	Run(ft, func() { <-stop })
	if !strings.Contains(ft.failed, "loop") {
		t.Fatalf("a parse that never returns was not failed: %q", ft.failed)
	}
}

func TestRunPassesAnswerAndPanic(t *testing.T) {
	ft := &fakeT{}
	n := 0
	Run(ft, func() { n = 42 })
	if ft.failed != "" || n != 42 {
		t.Fatalf("failed %q, n = %d", ft.failed, n)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "boom") {
			t.Fatalf("panic not raised again: %v", r)
		}
	}()
	Run(ft, func() { panic("boom") })
}
