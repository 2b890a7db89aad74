// Package lazyre holds package-level regular expressions that compile on
// first use: every command links every package, and one that compiled its
// expressions at init made `lore --version` pay for all of them
// (docs/design.md, Performance and quality bars).
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// (panicking, as regexp.MustCompile does, on a bad expression) and returns
// the same *regexp.Regexp from then on, safely from any goroutine.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
