package match

import (
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// minLiteral is the shortest literal worth gating on (the manifest's grams
// are three bytes).
const minLiteral = 3

// maxAlternatives bounds an any-of literal set; more is no useful gate.
const maxAlternatives = 16

// RegexLiterals returns strings of which at least one occurs in every text
// the RE2 pattern matches (compared ASCII case-insensitively), or nil when
// no such set of useful literals exists. The manifest uses them so the hook
// compiles only the regexes whose literals occur in the command.
func RegexLiterals(pat string) []string {
	return bestSet(RegexLiteralSets(pat))
}

// RequiredLiterals returns literals that every text the RE2 pattern matches
// contains, ASCII-lowercased (nil when none is known): the sets of one
// literal of RegexLiteralSets. A pattern that folds the case of k or s has
// none, since it also matches the Kelvin sign and the long s, which ASCII
// lowercasing does not map.
func RequiredLiterals(pat string) []string {
	return slices.Clone(analyse(pat).required)
}

// analysis is what the index and the hook's records need of a pattern.
type analysis struct {
	sets     [][]string
	required []string
	parsed   bool // the pattern parses
	folds    bool // some part of it matches any case (VetoedAlways)
}

// analysed memoizes analyse by pattern for the life of the process: a
// build asks for each item's patterns twice (its record, the index), and a
// store repeats patterns (every `git push` lesson), so parsing each once
// saved a fifth of a 10,000-item build. It holds one entry per pattern a
// store has, for as long as the process (lore mcp) serves it.
var analysed sync.Map // pattern -> analysis

func analyse(pat string) analysis {
	if a, ok := analysed.Load(pat); ok {
		return a.(analysis)
	}
	re, err := syntax.Parse(pat, syntax.Perl)
	var a analysis
	if err == nil {
		a.parsed, a.folds = true, foldsAny(re)
		a.sets = literalSetsOf(re)
		if !foldsKS(re) {
			a.required = requiredOf(a.sets)
		}
	}
	analysed.Store(pat, a)
	return a
}

// requiredOf is the sets of one literal, ASCII-lowercased, once each.
func requiredOf(sets [][]string) []string {
	var out []string
	for _, o := range sets {
		if len(o) != 1 {
			continue // any of several: not required one by one
		}
		if l := string(asciiLower(o[0])); !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// foldsAny reports whether some part of re matches any case.
func foldsAny(re *syntax.Regexp) bool {
	return re.Flags&syntax.FoldCase != 0 || slices.ContainsFunc(re.Sub, foldsAny)
}

// foldsKS reports whether a case-folded literal of re holds k or s.
func foldsKS(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase != 0 && strings.ContainsAny(strings.ToLower(string(re.Rune)), "ks") {
		return true
	}
	return slices.ContainsFunc(re.Sub, foldsKS)
}

// bestSet returns the set better than the others (nil when there is none).
func bestSet(sets [][]string) []string {
	var best []string
	for _, o := range sets {
		if better(o, best) {
			best = o
		}
	}
	return best
}

// RegexLiteralSets returns every literal set that gates the pattern as
// RegexLiterals' does (`git\s+push\b.*--force` has {git}, {push} and
// {--force}), so the index can pick the one fewest items share.
func RegexLiteralSets(pat string) [][]string {
	sets := analyse(pat).sets
	if len(sets) == 0 {
		return nil
	}
	out := make([][]string, len(sets))
	for i, o := range sets {
		out[i] = slices.Clone(o)
	}
	return out
}

// literalSetsOf is RegexLiteralSets of a parsed pattern.
func literalSetsOf(re *syntax.Regexp) [][]string {
	var out [][]string
	for _, o := range options(re.Simplify()) {
		if minLen(o) >= minLiteral {
			out = append(out, o)
		}
	}
	return out
}

// options computes the any-of literal sets of a regex node, each a gate on
// its own.
func options(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		return literalOptions(re)
	case syntax.OpCapture, syntax.OpPlus:
		return options(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return options(re.Sub[0])
		}
	case syntax.OpAlternate:
		return alternateOptions(re)
	case syntax.OpConcat:
		return concatOptions(re)
	}
	return nil
}

func literalOptions(re *syntax.Regexp) [][]string {
	s := string(re.Rune)
	if re.Flags&syntax.FoldCase != 0 && !isASCII(s) {
		return nil // unicode folding is not what the ASCII grams compare
	}
	return [][]string{{s}}
}

// alternateOptions is one any-of set: the best set of every alternative.
func alternateOptions(re *syntax.Regexp) [][]string {
	var out []string
	for _, sub := range re.Sub {
		best := bestSet(options(sub))
		if best == nil {
			return nil
		}
		out = append(out, best...)
	}
	if len(out) > maxAlternatives {
		return nil
	}
	return [][]string{out}
}

// concatOptions joins runs of literals and takes the sets of the other
// parts, each of which gates the whole.
func concatOptions(re *syntax.Regexp) [][]string {
	var out [][]string
	run := ""
	for _, sub := range re.Sub {
		if sub.Op == syntax.OpLiteral {
			if lit := options(sub); lit != nil {
				run += lit[0][0]
				continue
			}
		}
		if run != "" {
			out = append(out, []string{run})
			run = ""
		}
		out = append(out, options(sub)...)
	}
	if run != "" {
		out = append(out, []string{run})
	}
	return out
}

// better prefers the set whose shortest literal is longer, then fewer
// alternatives.
func better(a, b []string) bool {
	if b == nil {
		return true
	}
	if ma, mb := minLen(a), minLen(b); ma != mb {
		return ma > mb
	}
	return len(a) < len(b)
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// GlobLiterals returns the longest literal run of a doublestar glob that
// every matching path contains (slashes next to ** trimmed, because a
// leading **/ also matches at the root), or nil when there is none.
func GlobLiterals(glob string) []string {
	var runs []string
	var cur strings.Builder
	flush := func() {
		if s := strings.Trim(cur.String(), "/"); s != "" {
			runs = append(runs, s)
		}
		cur.Reset()
	}
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*', '?':
			flush()
		case '\\':
			flush()
			i++
		case '[', '{':
			flush()
			i = groupEnd(glob, i)
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	best := ""
	for _, r := range runs {
		if len(r) > len(best) {
			best = r
		}
	}
	if len(best) < minLiteral {
		return nil
	}
	return []string{best}
}

// groupEnd returns where the [...] class or {...} alternation that opens
// at i ends (its closer, or the last byte).
func groupEnd(glob string, i int) int {
	c := glob[i]
	closer := byte(']')
	if c == '{' {
		closer = '}'
	}
	depth := 1
	for i++; i < len(glob) && depth > 0; i++ {
		switch glob[i] {
		case c:
			depth++
		case closer:
			depth--
		case '\\':
			i++
		}
	}
	return i - 1
}

// phraseLiteral returns the longest ASCII word of a keyword phrase: present
// in any prompt that holds the phrase, whatever its spacing.
func phraseLiteral(phrase string) string {
	best := ""
	for _, w := range strings.FieldsFunc(phrase, func(r rune) bool { return unicode.IsSpace(r) }) {
		if isASCII(w) && len(w) > len(best) {
			best = w
		}
	}
	return best
}
