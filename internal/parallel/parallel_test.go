package parallel

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

// Every index is called exactly once, whatever the number of cores.
func TestEachCallsEveryIndexOnce(t *testing.T) {
	for _, procs := range []int{1, 4} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, n := range []int{0, 1, 3, 1000} {
			calls := make([]atomic.Int32, n)
			Each(n, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("GOMAXPROCS %d, n %d: index %d called %d times", procs, n, i, c)
				}
			}
		}
	}
}

// Map keeps the results of the calls that succeeded, in order, and the
// errors of the others.
func TestMapKeepsSuccessesInOrder(t *testing.T) {
	got, errs := Map(10, func(i int) (int, error) {
		if i%3 == 0 {
			return -1, fmt.Errorf("call %d", i)
		}
		return i, nil
	})
	if want := []int{1, 2, 4, 5, 7, 8}; !slices.Equal(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
	if len(errs) != 4 || errs[0].Error() != "call 0" || errs[3].Error() != "call 9" {
		t.Errorf("errors %v, want those of calls 0, 3, 6, 9", errs)
	}
}
