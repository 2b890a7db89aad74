package scan

import "strings"

// phrases is a list of lowercase phrases found on word boundaries in
// ASCII-lowercased text. A phrase ending in "*" may continue with letters
// (overwr* matches overwrite, overwrote). Phrase lists replaced
// case-insensitive regexps that took a sixth of a scan's time.
type phrases []string

// lowerASCII lowercases A-Z only, so byte offsets stay those of s.
func lowerASCII(s string) string {
	i := firstUpper(s)
	if i < 0 {
		return s
	}
	b := []byte(s)
	for j := i; j < len(b); j++ {
		if isUpper(b[j]) {
			b[j] += 'a' - 'A'
		}
	}
	return string(b)
}

// firstUpper is the index of the first of A-Z in s, or -1.
func firstUpper(s string) int {
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			return i
		}
	}
	return -1
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isWordByte(c byte) bool { return wordBytes[c] }

// index returns the byte range of the earliest phrase in lower (already
// lowercased with lowerASCII), or nil.
func (ps phrases) index(lower string) []int {
	var best []int
	for _, p := range ps {
		if i := find(lower, p); i >= 0 && (best == nil || i < best[0]) {
			best = []int{i, i + len(strings.TrimSuffix(p, "*"))}
		}
	}
	return best
}

// find is where the phrase p first occurs on word boundaries in lower, or
// -1.
func find(lower, p string) int {
	prefix := strings.HasSuffix(p, "*")
	p = strings.TrimSuffix(p, "*")
	for from := 0; ; {
		i := strings.Index(lower[from:], p)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(p)
		okStart := i == 0 || !isWordByte(lower[i-1]) || !isWordByte(p[0])
		okEnd := prefix || end == len(lower) || !isWordByte(lower[end]) || !isWordByte(p[len(p)-1])
		if okStart && okEnd {
			return i
		}
		from = i + 1
	}
}

func (ps phrases) in(text string) bool { return ps.index(lowerASCII(text)) != nil }

var (
	causalPhrases = phrases{"because", "root cause", "the issue is", "the issue was", "the problem is",
		"the problem was", "due to", "caused by"}
	dataLossPhrases = phrases{"data loss", "lost the", "lost all", "lost my", "deleted", "overwr*",
		"silently", "wiped", "corrupt*"}
	diagnosisPhrases = phrases{"the issue is", "the issue was", "the problem is", "the problem was",
		"the error is", "the error was", "the bug is", "the bug was", "the cause is", "the cause was",
		"root cause", "the reason is", "the reason was", "the reason it", "fails because", "failed because",
		"failing because", "hangs because", "hung because", "that's why", "that’s why", "turns out",
		"i see the issue", "i see the problem"}
	explicitPhrases = phrases{"lesson learned", "lessons learned", "note for future", "note for the future",
		"note to future", "note to the future", "note to self", "going forward", "from now on", "in the future,"}
)
