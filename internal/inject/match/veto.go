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
	folds, ok := foldsCase(cmd)
	if !ok {
		return ""
	}
	lits := RequiredLiterals(cmd) // ASCII-lowercased
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

// folded memoizes foldsCase: 0 unparsed, 1 no fold, 2 folds.
var folded sync.Map // pattern -> int

// foldsCase says whether a pattern matches any case of some letter; ok is
// false when it does not parse.
func foldsCase(pat string) (folds, ok bool) {
	if v, done := folded.Load(pat); done {
		return v.(int) == 2, v.(int) != 0
	}
	folds, ok = parseFolds(pat)
	v := 0
	if ok {
		v = 1
		if folds {
			v = 2
		}
	}
	folded.Store(pat, v)
	return folds, ok
}

func parseFolds(pat string) (folds, ok bool) {
	re, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return false, false
	}
	var walk func(*syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		if r.Flags&syntax.FoldCase != 0 {
			return true
		}
		for _, s := range r.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(re), true
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
