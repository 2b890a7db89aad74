package redact

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// gitleaks' default rule set (v8.30.1, MIT, see gitleaks/LICENSE), carried
// as data: importing the gitleaks module costs every lore process about
// 1.7-2.7 ms of package initialisation and 4-10 MB of binary, so lore
// reads its rules file instead and compiles a rule only when one of its
// keywords occurs in the text.
//
//go:embed gitleaks/gitleaks.toml
var gitleaksTOML string

// glConfig is the part of gitleaks.toml that decides a finding in text
// without a file name: paths and commits cannot apply to transcript text.
type glConfig struct {
	Allowlist  glAllowlist   `toml:"allowlist"`
	Allowlists []glAllowlist `toml:"allowlists"`
	Rules      []*glRule     `toml:"rules"`
}

type glRule struct {
	ID          string        `toml:"id"`
	Regex       string        `toml:"regex"`
	SecretGroup int           `toml:"secretGroup"`
	Entropy     float64       `toml:"entropy"`
	Keywords    []string      `toml:"keywords"`
	Allowlists  []glAllowlist `toml:"allowlists"`

	once sync.Once
	re   *regexp.Regexp
	err  error
}

type glAllowlist struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`

	re *regexp.Regexp
}

var (
	glOnce  sync.Once
	glCfg   *glConfig
	glAllow []*glAllowlist // global allowlists, compiled
	glErr   error
)

func loadGitleaks() {
	var c glConfig
	if _, err := toml.Decode(gitleaksTOML, &c); err != nil {
		glErr = fmt.Errorf("redact: gitleaks rules: %w", err)
		return
	}
	if c.Allowlist.Regexes != nil || c.Allowlist.StopWords != nil {
		c.Allowlists = append(c.Allowlists, c.Allowlist)
	}
	for i := range c.Allowlists {
		if err := c.Allowlists[i].compile(); err != nil {
			glErr = fmt.Errorf("redact: gitleaks global allowlist: %w", err)
			return
		}
		glAllow = append(glAllow, &c.Allowlists[i])
	}
	var rules []*glRule
	for _, r := range c.Rules {
		if r.Regex == "" {
			continue // a path-only rule: text has no file name
		}
		for i, k := range r.Keywords {
			r.Keywords[i] = strings.ToLower(k)
		}
		rules = append(rules, r)
	}
	c.Rules = rules
	glCfg = &c
}

func (a *glAllowlist) compile() error {
	if len(a.Regexes) > 0 {
		re, err := regexp.Compile("(?:" + strings.Join(a.Regexes, "|") + ")")
		if err != nil {
			return err
		}
		a.re = re
	}
	for i, w := range a.StopWords {
		a.StopWords[i] = strings.ToLower(w)
	}
	return nil
}

func (r *glRule) compile() {
	r.re, r.err = regexp.Compile(r.Regex)
	for i := range r.Allowlists {
		if r.err == nil {
			r.err = r.Allowlists[i].compile()
		}
	}
	if r.err != nil {
		r.err = fmt.Errorf("redact: gitleaks rule %s: %w", r.ID, r.err)
	}
}

// gitleaksSpans returns the secrets gitleaks' rules find in s, as gitleaks
// decides them: keyword prefilter, secret group, entropy floor, allowlists.
func gitleaksSpans(s string) ([]span, error) {
	glOnce.Do(loadGitleaks)
	if glErr != nil {
		return nil, glErr
	}
	lower := strings.ToLower(s)
	var out []span
	for _, r := range glCfg.Rules {
		if !r.mayMatch(lower) {
			continue
		}
		r.once.Do(r.compile)
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, r.find(s)...)
	}
	return out, nil
}

func (r *glRule) mayMatch(lower string) bool {
	for _, k := range r.Keywords {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return len(r.Keywords) == 0
}

func (r *glRule) find(s string) []span {
	var out []span
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		from, to := m[0], m[1]
		// gitleaks trims newlines from the match; the secret is the
		// configured group, else the first non-empty one.
		for from < to && s[from] == '\n' {
			from++
		}
		for to > from && s[to-1] == '\n' {
			to--
		}
		match := s[from:to]
		sf, st := from, to
		if r.SecretGroup > 0 && 2*r.SecretGroup+1 < len(m) {
			sf, st = m[2*r.SecretGroup], m[2*r.SecretGroup+1]
		} else {
			for g := 1; 2*g+1 < len(m); g++ {
				if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
					sf, st = m[2*g], m[2*g+1]
					break
				}
			}
		}
		if sf < 0 || st <= sf {
			continue
		}
		secret := s[sf:st]
		if r.Entropy != 0 && shannon(secret) <= r.Entropy {
			continue
		}
		line := lineAround(s, from, to)
		if allowed(glAllow, secret, match, line) || allowed(ptrs(r.Allowlists), secret, match, line) {
			continue
		}
		out = append(out, span{sf, st, r.ID})
	}
	return out
}

func ptrs(as []glAllowlist) []*glAllowlist {
	out := make([]*glAllowlist, len(as))
	for i := range as {
		out[i] = &as[i]
	}
	return out
}

// allowed applies gitleaks' allowlist semantics to text with no path or
// commit: an AND list that names paths or commits can never be satisfied.
func allowed(lists []*glAllowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		regexOK := a.re != nil && target != "" && a.re.FindString(target) != ""
		stopOK := false
		ls := strings.ToLower(secret)
		for _, w := range a.StopWords {
			if strings.Contains(ls, w) {
				stopOK = true
				break
			}
		}
		if strings.EqualFold(a.Condition, "AND") {
			if len(a.Paths) > 0 || len(a.Commits) > 0 {
				continue
			}
			if (len(a.Regexes) == 0 || regexOK) && (len(a.StopWords) == 0 || stopOK) {
				return true
			}
			continue
		}
		if regexOK || stopOK {
			return true
		}
	}
	return false
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
