package match

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// normText lowercases s and collapses every run of white space to one
// space, so phrases match across line breaks and double spaces.
func normText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// hasPhrase reports whether the normalized text holds the normalized phrase
// as a whole phrase: where the phrase starts (ends) with a word character,
// the text must not continue the word before (after) it.
func hasPhrase(text, phrase string) bool {
	if phrase == "" {
		return false
	}
	first, _ := utf8.DecodeRuneInString(phrase)
	last, _ := utf8.DecodeLastRuneInString(phrase)
	for from := 0; from <= len(text)-len(phrase); {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		j := i + len(phrase)
		if bounded(text, i, j, first, last) {
			return true
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		from = i + n
	}
	return false
}

// bounded reports whether text[i:j], a phrase that starts with first and
// ends with last, is not part of a longer word.
func bounded(text string, i, j int, first, last rune) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[j:])
	okBefore := i == 0 || !isWord(first) || !isWord(before)
	okAfter := j == len(text) || !isWord(last) || !isWord(after)
	return okBefore && okAfter
}

// phraseHits returns the phrases found in any of the normalized texts.
func phraseHits(phrases []string, texts ...string) []string {
	var hits []string
	for _, p := range phrases {
		np := normText(p)
		for _, t := range texts {
			if hasPhrase(t, np) {
				hits = append(hits, p)
				break
			}
		}
	}
	return hits
}
