package match

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// VetoedAlways says why unless vetoes every shell call an item's commands
// match ("" when that is not shown): for each command, an unless pattern
// matches a text that every call the command matches contains (`--unless
// mypy` beside `\bmypy\b`, or `--unless .`). Shown only where it is sure:
// an unless pattern with an anchor or a word boundary could fail inside a
// longer text, and an item with paths or content has other calls.
func VetoedAlways(t manifest.Triggers) string {
	if len(t.Commands) == 0 || len(t.Unless) == 0 || len(t.Paths)+len(t.Content) > 0 {
		return ""
	}
	first := ""
	for _, c := range t.Commands {
		u := vetoOf(c, t.Unless)
		if u == "" {
			return ""
		}
		if first == "" {
			first = u
		}
	}
	return fmt.Sprintf("can never fire: unless `%s` matches every command its commands match; narrow it to what marks a call as already right (a flag, a variable)", first)
}

// vetoOf is the first unless pattern that matches every call cmd matches.
func vetoOf(cmd string, unless []string) string {
	a := analyse(cmd)
	if !a.parsed {
		return ""
	}
	folds, lits := a.folds, a.required // lits: ASCII-lowercased
	for _, u := range unless {
		re := plainRegexp(u)
		if re == nil {
			continue
		}
		if re.MatchString("") {
			return u
		}
		for _, l := range lits {
			// The call holds l as the pattern spells it: lowercase when
			// the pattern has it so, any case when it folds.
			if !folds && !strings.Contains(cmd, l) {
				continue
			}
			if re.MatchString(l) && (!folds || re.MatchString(strings.ToUpper(l)) && re.MatchString(titled(l))) {
				return u
			}
		}
	}
	return ""
}

func titled(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// plainRegexps memoizes plainRegexp: a build asks for every item's unless.
var plainRegexps sync.Map // pattern -> *regexp.Regexp, nil for none

// plainRegexp compiles an unless pattern that has no anchor or word
// boundary, which matches within any longer text wherever it matches a
// part of it; nil for any other pattern.
func plainRegexp(pat string) *regexp.Regexp {
	if v, ok := plainRegexps.Load(pat); ok {
		return v.(*regexp.Regexp)
	}
	var out *regexp.Regexp
	if re, err := syntax.Parse(pat, syntax.Perl); err == nil && !asserts(re) {
		out, _ = regexp.Compile(pat)
	}
	plainRegexps.Store(pat, out)
	return out
}

// asserts says whether a parsed pattern has an anchor or a word boundary.
func asserts(r *syntax.Regexp) bool {
	switch r.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, s := range r.Sub {
		if asserts(s) {
			return true
		}
	}
	return false
}
