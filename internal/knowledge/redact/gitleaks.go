package redact

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

// gitleaks' default rule set (v8.30.1, MIT, see gitleaks/LICENSE) is
// carried as data: importing the gitleaks module would cost every lore
// process 1.7-2.7 ms of package initialisation and 4-10 MB of binary, and
// decoding its TOML file 18 ms wherever text is checked. gitleaks_rules.go
// holds the rules of gitleaks/gitleaks.toml as Go values (TestGitleaksTable
// -update writes it), so nothing is parsed at run time, and a rule's
// regexp is compiled only when one of its keywords occurs in the text.

// glRule is the part of a gitleaks rule that decides a finding in text
// without a file name: paths and commits cannot apply to transcript text,
// and path-only rules are left out.
type glRule struct {
	ID          string
	Regex       string
	SecretGroup int
	Entropy     float64
	Keywords    []string // lower case
	Allowlists  []*glAllowlist

	once sync.Once
	re   *regexp.Regexp
	err  error
}

type glAllowlist struct {
	And            bool // condition = "AND"
	RegexTarget    string
	Regexes        []string
	StopWords      []string // lower case
	PathsOrCommits bool     // an AND list with paths or commits never holds for text

	once sync.Once
	re   *regexp.Regexp
	err  error
}

func (a *glAllowlist) compile() {
	if len(a.Regexes) > 0 {
		a.re, a.err = regexp.Compile("(?:" + strings.Join(a.Regexes, "|") + ")")
	}
}

func (r *glRule) compile() {
	r.re, r.err = regexp.Compile(r.Regex)
	if r.err != nil {
		r.err = fmt.Errorf("redact: gitleaks rule %s: %w", r.ID, r.err)
	}
}

// gitleaksSpans returns the secrets gitleaks' rules find in s, as gitleaks
// decides them: keyword prefilter, secret group, entropy floor, allowlists;
// hits are keywordHits(lower).
func gitleaksSpans(s, lower string, hits [][]int) ([]Span, error) {
	var out []Span
	for i, at := range hits[:len(gitleaksRules)] {
		if at == nil || !tailAllows(gitleaksRules[i], lower, at) {
			continue
		}
		var err error
		if out, err = gitleaksRules[i].spans(out, s, at); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// spans appends what the rule finds in s, around the places at which its
// keywords occur.
func (r *glRule) spans(out []Span, s string, at []int) ([]Span, error) {
	r.once.Do(r.compile)
	if r.err != nil {
		return nil, r.err
	}
	for _, w := range r.windows(s, at) {
		found, err := r.find(s[w[0]:w[1]])
		if err != nil {
			return nil, err
		}
		for _, sp := range found {
			out = append(out, Span{sp.Start + w[0], sp.End + w[0], sp.Kind})
		}
	}
	return out, nil
}

// keywordRef is one keyword of one rule, or one literal of two bytes or
// more of one heuristic (at len(gitleaksRules) plus the heuristic's
// index).
type keywordRef struct {
	keyword string
	rule    int
}

var (
	keywordOnce sync.Once
	// keywordSlot numbers each pair of first two bytes of keywords (by
	// the pair as a 16-bit number; 0: no keyword starts so), keywordRefs
	// holds the keywords of slot n at n-1: one array read per byte of
	// text, where a map lookup cost a third of the secret check.
	keywordSlot [1 << 16]uint16
	keywordRefs [][]keywordRef
	// keywordThird holds, for slot n at n-1, the bytes its keywords go
	// on with (all of them for a keyword of two bytes): most pairs of
	// prose (co, re, to) start keywords, few go on to one.
	keywordThird [][4]uint64
)

// keywordHits reads lower once and returns, for each rule and then for
// each heuristic, where its keywords (literals) occur (nil: nowhere, so
// the rule cannot match). A heuristic's literals of one byte are left to
// it.
func keywordHits(lower string) [][]int {
	keywordOnce.Do(indexKeywords)
	hits := newHits()
	for i := 0; i+1 < len(lower); i++ {
		n := keywordSlot[uint16(lower[i])<<8|uint16(lower[i+1])]
		if n == 0 || i+2 < len(lower) && keywordThird[n-1][lower[i+2]>>6]&(1<<(lower[i+2]&63)) == 0 {
			continue
		}
		for _, ref := range keywordRefs[n-1] {
			if strings.HasPrefix(lower[i:], ref.keyword) {
				hits[ref.rule] = append(hits[ref.rule], i)
			}
		}
	}
	return hits
}

// hitsPool recycles keywordHits' tables (one slice per rule and
// heuristic): allocating one for each text cost as much as reading it.
var hitsPool sync.Pool

// newHits is an empty table for keywordHits.
func newHits() [][]int {
	n := len(gitleaksRules) + len(heuristics)
	if p, ok := hitsPool.Get().(*[][]int); ok && len(*p) == n {
		clear(*p)
		return *p
	}
	return make([][]int, n)
}

// releaseHits hands back a table keywordHits returned, once read.
func releaseHits(hits [][]int) { hitsPool.Put(&hits) }

// indexKeywords builds the index afresh (a test adds a rule and indexes
// again).
func indexKeywords() {
	keywordSlot, keywordRefs, keywordThird = [1 << 16]uint16{}, nil, nil
	for i, r := range gitleaksRules {
		for _, k := range r.Keywords {
			indexKeyword(k, i)
		}
	}
	for i, h := range heuristics {
		for _, l := range h.literal {
			if len(l) > 1 {
				indexKeyword(l, len(gitleaksRules)+i)
			}
		}
	}
}

func indexKeyword(k string, rule int) {
	pair := uint16(k[0])<<8 | uint16(k[1])
	if keywordSlot[pair] == 0 {
		keywordRefs = append(keywordRefs, nil)
		keywordThird = append(keywordThird, [4]uint64{})
		keywordSlot[pair] = uint16(len(keywordRefs))
	}
	n := keywordSlot[pair] - 1
	keywordRefs[n] = append(keywordRefs[n], keywordRef{k, rule})
	if len(k) == 2 {
		keywordThird[n] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	} else {
		keywordThird[n][k[2]>>6] |= 1 << (k[2] & 63)
	}
}

// windowLines is how many lines around a keyword a rule's match can reach
// (curl-auth-user allows five line breaks of up to two characters).
const windowLines = 10

// windows are the parts of a long text a rule has to read: the lines
// around each place at which one of its keywords occurs, since each of
// its matches holds one. A short text, and a rule whose match can span
// any number of lines (a private key block), are read whole.
func (r *glRule) windows(s string, at []int) [][2]int {
	if len(s) < 1024 || strings.Contains(r.Regex, `[\s\S`) || strings.Contains(r.Regex, "(?s") {
		return [][2]int{{0, len(s)}}
	}
	var out [][2]int
	for _, i := range at {
		from, to := linesAround(s, i)
		if n := len(out); n > 0 && from <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], to)
		} else {
			out = append(out, [2]int{from, to})
		}
	}
	return out
}

// linesAround is the range of windowLines lines either side of s[i].
func linesAround(s string, i int) (from, to int) {
	from, to = i, i+1
	for n := 0; n <= windowLines && from > 0; n++ {
		from = strings.LastIndexByte(s[:from-1], '\n') + 1
	}
	for n := 0; n <= windowLines && to < len(s); n++ {
		if j := strings.IndexByte(s[to:], '\n'); j >= 0 {
			to += j + 1
		} else {
			to = len(s)
		}
	}
	return from, to
}

func (r *glRule) find(s string) ([]Span, error) {
	var out []Span
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		from, to := trimNewlines(s, m[0], m[1])
		sf, st := r.secretRange(m, from, to)
		if sf < 0 || st <= sf {
			continue
		}
		ok, err := r.finding(s[sf:st], s[from:to], lineAround(s, from, to))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, Span{sf, st, r.ID})
		}
	}
	return out, nil
}

// trimNewlines drops the newlines at either end of s[from:to], as
// gitleaks trims them from a match.
func trimNewlines(s string, from, to int) (int, int) {
	for from < to && s[from] == '\n' {
		from++
	}
	for to > from && s[to-1] == '\n' {
		to--
	}
	return from, to
}

// secretRange is where the secret of the match m (trimmed to from:to) is:
// the configured group, else the first non-empty one, else the match.
func (r *glRule) secretRange(m []int, from, to int) (int, int) {
	if r.SecretGroup > 0 && 2*r.SecretGroup+1 < len(m) {
		return m[2*r.SecretGroup], m[2*r.SecretGroup+1]
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
			return m[2*g], m[2*g+1]
		}
	}
	return from, to
}

// finding says a secret (in its match and line) is one gitleaks reports:
// random enough, holding key material for a private key, and not
// allowed by the global or the rule's allowlists.
func (r *glRule) finding(secret, match, line string) (bool, error) {
	if r.Entropy != 0 && shannon(secret) <= r.Entropy {
		return false, nil
	}
	if r.ID == "private-key" && !keyMaterial(secret) {
		return false, nil // two headers named in prose, no key between them
	}
	ok, err := allowed(gitleaksAllow, secret, match, line)
	if err == nil && !ok {
		ok, err = allowed(r.Allowlists, secret, match, line)
	}
	return !ok, err
}

// allowed applies gitleaks' allowlist semantics to text with no path or
// commit: an AND list that names paths or commits can never be satisfied.
func allowed(lists []*glAllowlist, secret, match, line string) (bool, error) {
	for _, a := range lists {
		a.once.Do(a.compile)
		if a.err != nil {
			return false, fmt.Errorf("redact: gitleaks allowlist: %w", a.err)
		}
		if a.allows(secret, match, line) {
			return true, nil
		}
	}
	return false, nil
}

// allows says the (compiled) allowlist lets the secret through: any of
// its regexes or stop words for an OR list, all of its kinds for an AND
// list.
func (a *glAllowlist) allows(secret, match, line string) bool {
	regexOK := a.matches(a.target(secret, match, line))
	stopOK := a.stopped(secret)
	if !a.And {
		return regexOK || stopOK
	}
	return !a.PathsOrCommits && (len(a.Regexes) == 0 || regexOK) && (len(a.StopWords) == 0 || stopOK)
}

// matches says one of the allowlist's regexes matches the target.
func (a *glAllowlist) matches(target string) bool {
	return a.re != nil && target != "" && a.re.FindString(target) != ""
}

// stopped says the secret holds one of the allowlist's stop words.
func (a *glAllowlist) stopped(secret string) bool {
	return len(a.StopWords) > 0 && containsAny(strings.ToLower(secret), a.StopWords)
}

// target is the text the allowlist's regexes test.
func (a *glAllowlist) target(secret, match, line string) string {
	switch a.RegexTarget {
	case "match":
		return match
	case "line":
		return line
	}
	return secret
}

func lineAround(s string, from, to int) string {
	start := strings.LastIndexByte(s[:from], '\n') + 1
	end := strings.IndexByte(s[to:], '\n')
	if end < 0 {
		return s[start:]
	}
	return s[start : to+end]
}

// shannon is gitleaks' entropy: over runes, divided by the byte length.
func shannon(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	h, inv := 0.0, 1/float64(len(s))
	for _, n := range counts {
		p := float64(n) * inv
		h -= p * math.Log2(p)
	}
	return h
}

// keyMaterial reports whether a private key match holds a run of 40 or
// more base64 characters: the key itself, not only its BEGIN/END lines.
func keyMaterial(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if base64Bytes[c] {
			if run++; run >= 40 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
