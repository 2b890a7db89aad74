package consolidate

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/lore-agents/lore/internal/textcut"
)

// Thresholds of the deterministic checks (docs/design.md, Consolidation).
// Scores are shares of normalized content words (lowercase, stop words and
// negations removed, a light suffix stem), so they are comparable across
// checks.
const (
	// TopicMin is the topic overlap from which two texts are about the same
	// thing: supersession pairs (overlap coefficient) and contradiction
	// candidates (share of the entry's words in a target section).
	TopicMin = 0.5
	// SentenceMin is the overlap of two sentences that say the same thing
	// with possibly opposite polarity.
	SentenceMin = 0.6
	// RedundantMin is the share of an entry's words a target section must
	// already contain for the entry to be dropped as said.
	RedundantMin = 0.8
	// minWords: shorter entries carry too little to drop or escalate on.
	minWords = 3
)

// stopWords are left out of the words two entries are compared on.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then else of to in on at by for with from into onto
	is are was were be been being it its this that these those there here as so than too very can could should
	would will shall may might must do does did done have has had having we you they he she i me my our your
	their them us what which who whom when where why how all any each every some such only own same also just
	use using used via per about after before again more most other out over under up down off while because
	entry learning learnings`) {
		m[w] = true
	}
	return m
})

// negation marks a sentence as saying "do not" rather than "do".
var negation = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(not|no|never|cannot|can't|don't|doesn't|didn't|isn't|aren't|won't|shouldn't|mustn't|avoid|avoids|stop|without|instead)\b`)
})

// figures are the numbers a text states ("12", "1.5", "v3").
var figures = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\d+(?:\.\d+)*`)
})

// replacement marks a newer entry that replaces an older one.
var replacement = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(no longer|instead of|instead|replaces|replaced|supersedes|superseded|obsolete|deprecated|outdated|turns out|actually|now)\b`)
})

func lowerText(s string) string {
	return strings.ToLower(strings.NewReplacer("’", "'", "‘", "'").Replace(s))
}

// words returns the normalized content words of a text as a set.
func words(s string) map[string]bool {
	set := map[string]bool{}
	s = negation().ReplaceAllString(lowerText(s), " ")
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) < 3 || stopWords()[w] {
			continue
		}
		set[stem(w)] = true
	}
	return set
}

// hasFigures says whether text states every number entry does, as often:
// "learning 1 of round 1" is not "learning 0 of round 1".
func hasFigures(text, entry string) bool {
	have := map[string]int{}
	for _, n := range figures().FindAllString(text, -1) {
		have[n]++
	}
	for _, n := range figures().FindAllString(entry, -1) {
		if have[n]--; have[n] < 0 {
			return false
		}
	}
	return true
}

// stem strips a common English suffix so "hangs", "hanging" and "hang" meet.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

func common(a, b map[string]bool) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// overlap is the overlap coefficient |A∩B| / min(|A|,|B|).
func overlap(a, b map[string]bool) float64 {
	m := min(len(a), len(b))
	if m == 0 {
		return 0
	}
	return float64(common(a, b)) / float64(m)
}

// coverage is the share of a's words that b contains.
func coverage(a, b map[string]bool) float64 {
	if len(a) == 0 {
		return 0
	}
	return float64(common(a, b)) / float64(len(a))
}

// sentenceEnd splits prose into sentences, list items and headings.
var sentenceEnd = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[.!?;](\s+|$)|\n\s*([-*+]|\d+\.)\s+|\n\s*#+\s|\n\s*\n`)
})

func sentences(s string) []string {
	var out []string
	for _, x := range sentenceEnd().Split(s, -1) {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func negated(s string) bool { return negation().MatchString(lowerText(s)) }

// flip finds the pair of sentences, one from a and one from b, that say the
// same thing (overlap >= SentenceMin) with opposite polarity; ok is false
// when there is none.
func flip(a, b string) (sa, sb string, score float64, ok bool) {
	for _, x := range sentences(a) {
		wx := words(x)
		if len(wx) < 2 {
			continue
		}
		for _, y := range sentences(b) {
			wy := words(y)
			if len(wy) < 2 {
				continue
			}
			if s := overlap(wx, wy); s >= SentenceMin && negated(x) != negated(y) && s > score {
				sa, sb, score, ok = textcut.OneLine(x), textcut.OneLine(y), s, true
			}
		}
	}
	return sa, sb, score, ok
}
