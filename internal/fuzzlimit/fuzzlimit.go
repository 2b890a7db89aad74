// Package fuzzlimit gives each fuzz input a time limit, so that an input
// that makes a hand-written parser loop is a failing input, saved to the
// corpus, rather than a fuzz run or a test that never ends
// (docs/design.md, Reliability and security).
package fuzzlimit

import (
	"fmt"
	"runtime/debug"
	"testing"
	"time"
)

// Limit is far over what any parser takes on a fuzz-sized input, even on a
// loaded machine: only a loop, or a blow-up as bad as one, reaches it.
const Limit = 2 * time.Second

// Run calls parse and fails t if it has not returned within Limit. parse
// runs on its own goroutine: it should only compute, and leave assertions
// (t.Fatal) to the caller, after Run returns. A panic in parse is raised
// again on the caller's goroutine, with parse's stack.
func Run(t testing.TB, parse func()) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() {
			r := recover()
			if r != nil {
				r = fmt.Sprintf("%v\n%s", r, debug.Stack())
			}
			done <- r
		}()
		parse()
	}()
	timer := time.NewTimer(Limit)
	defer timer.Stop()
	select {
	case r := <-done:
		if r != nil {
			panic(r)
		}
	case <-timer.C:
		// The goroutine still spins; the failed input ends this run anyway.
		t.Fatalf("no answer within %v: this input makes the parser loop", Limit)
	}
}
