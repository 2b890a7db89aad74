package redact

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/synthetic"
)

// TestHitSpansPerLine: searching each literal once over the whole text
// (keywordHits, hitSpans) finds the spans reading every line for every
// literal (lineSpans) finds, in the same order, over sampleTexts.
func TestHitSpansPerLine(t *testing.T) {
	found := 0
	for _, s := range sampleTexts(t) {
		lower := strings.ToLower(s)
		fast, err := heuristicSpans(s, lower, keywordHits(lower)[len(gitleaksRules):])
		if err != nil {
			t.Fatal(err)
		}
		if slow := perLineSpans(s); !slices.Equal(fast, slow) {
			t.Fatalf("%q:\nhit spans  %v\nper line   %v", s, fast, slow)
		}
		found += len(fast)
	}
	if found < 1000 {
		t.Fatalf("only %d spans: the texts do not exercise the heuristics", found)
	}
}

// TestKeywordHitsEveryOccurrence: keywordHits' one pass finds where each
// keyword of each rule, and each literal of two bytes or more of each
// heuristic, occurs, as searching for each one does.
func TestKeywordHitsEveryOccurrence(t *testing.T) {
	words := make([][]string, 0, len(gitleaksRules)+len(heuristics))
	for _, r := range gitleaksRules {
		words = append(words, r.Keywords)
	}
	for _, h := range heuristics {
		words = append(words, slices.DeleteFunc(slices.Clone(h.literal), func(l string) bool { return len(l) < 2 }))
	}
	for _, s := range sampleTexts(t) {
		lower := strings.ToLower(s)
		hits := keywordHits(lower)
		for r, ws := range words {
			var want []int
			for _, w := range ws {
				for off := 0; ; off++ {
					i := strings.Index(lower[off:], w)
					if i < 0 {
						break
					}
					off += i
					want = append(want, off)
				}
			}
			slices.Sort(want)
			if !slices.Equal(hits[r], want) {
				t.Fatalf("%q: keyword %v at %v, want %v", s, ws, hits[r], want)
			}
		}
	}
}

// sampleTexts are gitleaks' rule examples (alone and run together, as
// lint reads a file), a synthetic store's items, ordinary prose and
// texts made to put literals at line edges.
func sampleTexts(t *testing.T) []string {
	texts := []string{"", "\n", "password=hunter2x9", "a\n\npassword :\n= x\ntoken\n: abcdef12345678\n",
		"key\n=sk-abcdefghij1234567890\nkey-0123456789abcdefghijklmnopqrstuv\nACabcdef0123456789abcdef0123456789ab",
		"each sid: AC0123456789abcdef0123456789abcdef\nback AC0123456789ABCDEF0123456789abcdef\nACAC0123456789abcdef0123456789abcdef.",
		"\"password\"\n: \"x\"\nexport API_TOKEN=a8f9e2b1c4d7\nDB_PASSWORD = 's3cr3t-Value'\n\n",
		// Lower-casing moves these bytes but keeps the length (Ⱥ grows by
		// one, the Kelvin sign shrinks by two): offsets are still s's.
		"ȺȺ password=hunter2x9 \u212a\ntoken: abcdef12345678\nȺ\u212aȺ secret = q8Zr2LmN4pX7\n"}
	var long strings.Builder
	for _, ex := range readGitleaksExamples(t, false) {
		texts = append(texts, ex.Text)
		if long.WriteString(ex.Text + "\n"); long.Len() > 8<<10 {
			texts = append(texts, long.String())
			long.Reset()
		}
	}
	files := synthetic.Files(2000)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		texts = append(texts, string(files[p]))
	}
	ordinary, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		t.Fatal(err)
	}
	return append(texts, string(ordinary), long.String())
}

// lineSpans appends the spans the pattern finds on the lines of s whose
// lower-case text (in lower) its literals allow: the straightforward
// reading the hit-driven one must equal.
func (h *heuristic) lineSpans(out []Span, re *regexp.Regexp, s, lower string, lines [][2]int) []Span {
	for _, l := range lines {
		if ls, le := l[0], l[1]; h.allows(lower[ls:le]) && (h.literal != nil || envLine(s[ls:le])) {
			out = append(out, h.spans(re, s, ls, le)...)
		}
	}
	return out
}

// allows says the pattern can match the lower-case line l: one of its
// literals occurs there (as an assignment, for a pattern with assign).
func (h *heuristic) allows(l string) bool {
	if h.assign {
		return assigned(l, h.literal)
	}
	return containsAny(l, h.literal)
}

// assigned: one of the words is followed by : or =, past any quotes,
// backslashes and blanks (key: v, "key": "v", key = v, \"key\":).
func assigned(s string, words []string) bool {
	for _, w := range words {
		if assignedWord(s, w) {
			return true
		}
	}
	return false
}

func assignedWord(s, w string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		if assignedAt(s, off+i+len(w)) {
			return true
		}
		off += i + 1
	}
}

// perLineSpans is heuristicSpans reading each line for each heuristic.
func perLineSpans(s string) []Span {
	lower := strings.ToLower(s)
	var out []Span
	for i := range heuristics {
		h := &heuristics[i]
		if h.kind == "private-key" {
			if containsAny(lower, h.literal) {
				out = append(out, h.spans(heurRes[i], s, 0, len(s))...)
			}
			continue
		}
		out = h.lineSpans(out, heurRes[i], s, lower, splitLines(s))
	}
	return out
}

// splitLines are the byte ranges of s's lines, found apart from
// lineRanges (an empty last line after a final newline included: no
// pattern matches one).
func splitLines(s string) [][2]int {
	var out [][2]int
	start := 0
	for _, l := range strings.Split(s, "\n") {
		out = append(out, [2]int{start, start + len(l)})
		start += len(l) + 1
	}
	return out
}
