package match

import (
	"regexp/syntax"
	"strings"
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
	re, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return nil
	}
	set := required(re.Simplify())
	if set == nil || minLen(set) < minLiteral {
		return nil
	}
	return set
}

// required computes the any-of literal set of a regex node (nil: none).
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if re.Flags&syntax.FoldCase != 0 && !isASCII(s) {
			return nil // unicode folding is not what the ASCII grams compare
		}
		return []string{s}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			s := required(sub)
			if s == nil {
				return nil
			}
			out = append(out, s...)
		}
		if len(out) > maxAlternatives {
			return nil
		}
		return out
	case syntax.OpConcat:
		var best []string
		consider := func(s []string) {
			if s != nil && better(s, best) {
				best = s
			}
		}
		run := ""
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral {
				if lit := required(sub); lit != nil {
					run += lit[0]
					continue
				}
			}
			if run != "" {
				consider([]string{run})
				run = ""
			}
			consider(required(sub))
		}
		if run != "" {
			consider([]string{run})
		}
		return best
	}
	return nil
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
			i--
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
