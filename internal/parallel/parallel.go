// Package parallel runs independent work over all cores: a build reads,
// checks and renders each of up to tens of thousands of item files, and
// one at a time that was most of its time (docs/design.md, Incremental
// build).
package parallel

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Each calls f(0), ..., f(n-1), over all cores, and returns when every
// call has. The calls must be independent (each writes only its own
// result); they are handed out one at a time, so uneven ones balance.
func Each(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}

// Map calls f(0), ..., f(n-1) as Each does and returns, in order, the
// results of the calls that succeeded and the errors of those that
// failed: n files read, the ones that could not be, said.
func Map[T any](n int, f func(i int) (T, error)) ([]T, []error) {
	out := make([]T, n)
	errs := make([]error, n)
	Each(n, func(i int) { out[i], errs[i] = f(i) })
	kept := out[:0]
	for i, v := range out {
		if errs[i] == nil {
			kept = append(kept, v)
		}
	}
	return kept, slices.DeleteFunc(errs, func(err error) bool { return err == nil })
}
