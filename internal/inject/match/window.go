package match

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
)

// windowMin is the added text from which a content pattern is run only on
// the lines that hold one of its literals: under it the whole text is cheap.
const windowMin = 4 << 10

// lineWindows reports whether pat can only match within one line and
// anchors nowhere but at line edges, and returns the literals, lowercased, one of
// which every match contains (nil: none, run the pattern on the whole text). Go's
// regexp has no literal prefix to skip to when a pattern starts with `\b`
// or `(?m)^`, so over a 64 KiB Write it steps its automaton on every byte;
// on the lines around the literals it gives the same answer.
func lineWindows(pat string) [][]byte {
	re, err := syntax.Parse(pat, syntax.Perl)
	if err != nil || !lineBound(re) {
		return nil
	}
	var lits [][]byte
	for _, l := range RegexLiterals(pat) {
		lits = append(lits, asciiLower(l))
	}
	return lits
}

// addedMatches reports whether the content pattern re (source pat)
// matches the text the call adds.
func (e *eval) addedMatches(re *regexp.Regexp, pat string) bool {
	if len(e.added) < windowMin {
		return re.MatchString(e.added)
	}
	lits := lineWindows(pat)
	if lits == nil {
		return re.MatchString(e.added)
	}
	if e.addedLow == nil {
		e.addedLow = asciiLower(e.added)
	}
	return matchLines(re, lits, e.added, e.addedLow)
}

// lineBound reports whether no match of re can contain a newline or depend
// on where the text starts or ends (\A, \z, and ^ or $ without (?m)): then
// the pattern matches a text exactly when it matches one of its lines.
func lineBound(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpBeginText, syntax.OpEndText:
		return false
	case syntax.OpLiteral:
		return !strings.ContainsRune(string(re.Rune), '\n')
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return false
			}
		}
	}
	for _, sub := range re.Sub {
		if !lineBound(sub) {
			return false
		}
	}
	return true
}

// matchLines runs re on each line of text that holds one of lits (ASCII
// case-insensitively: low is text and lits are ASCII-lowercased): a match of a
// line-bound pattern lies on one line and contains one of its literals.
func matchLines(re *regexp.Regexp, lits [][]byte, text string, low []byte) bool {
	next := make([]int, len(lits)) // where each literal occurs next, -1 never again
	for i := range next {
		next[i] = -2 // not searched yet
	}
	for done := 0; done < len(text); {
		at := -1
		for i, l := range lits {
			if next[i] == -2 || next[i] >= 0 && next[i] < done {
				next[i] = -1
				if j := bytes.Index(low[done:], l); j >= 0 {
					next[i] = done + j
				}
			}
			if next[i] >= 0 && (at < 0 || next[i] < at) {
				at = next[i]
			}
		}
		if at < 0 {
			return false
		}
		start, end := strings.LastIndexByte(text[:at], '\n')+1, len(text)
		if j := strings.IndexByte(text[at:], '\n'); j >= 0 {
			end = at + j
		}
		if re.MatchString(text[start:end]) {
			return true
		}
		done = end + 1
	}
	return false
}

// asciiLower lowercases ASCII letters only, so offsets stay those of s.
func asciiLower(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}
