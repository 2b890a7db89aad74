// Package redact removes secrets from transcript text before lore writes or
// prints it: cloud keys, GitHub tokens, sk- API keys, JWTs, PEM private keys,
// passwords in URLs, .env-style KEY=value lines and high-entropy strings all
// become [REDACTED:<kind>]. It is pure and stdlib-only; its patterns are
// compiled on first use, so importing it costs a process nothing.
package redact

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

// rule is one detector: a pattern and the kind it reports. When group > 0
// only that submatch is replaced (the key name of KEY=value stays readable).
type rule struct {
	kind  string
	re    string
	group int
}

// Order matters: specific kinds first, so a GitHub token inside a .env line
// is reported as github-token.
var rules = []rule{
	{"private-key", `-----BEGIN[ A-Z0-9]*PRIVATE KEY-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY-----|\z)`, 0},
	{"jwt", `\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`, 0},
	{"aws-key", `\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b`, 0},
	{"gcp-key", `\bAIza[0-9A-Za-z_\-]{35}`, 0},
	{"gcp-key", `\bya29\.[0-9A-Za-z_\-]{20,}`, 0},
	{"github-token", `\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`, 0},
	{"api-key", `(?:^|[^A-Za-z0-9_\-])(sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_\-]{20,})`, 1},
	{"slack-token", `\bxox[abposr]-[A-Za-z0-9\-]{10,}`, 0},
	{"url-password", `[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@"'<>]+:([^\s@/"'<>]+)@`, 1},
	{"env", `(?im)^[ \t]*(?:export[ \t]+)?[A-Z][A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH)[A-Z0-9_]*[ \t]*[=:][ \t]*["']?([^\s"'#]{4,})`, 1},
	{"aws-secret", `(?i)aws_?secret_?access_?key["']?\s*[=:]\s*["']?([A-Za-z0-9/+=]{40})`, 1},
	{"password", `(?i)\b(?:password|passwd|secret|api_?key|access_?token)["']?\s*[=:]\s*["']([^"'\s]{6,})["']`, 1},
}

var (
	once     sync.Once
	compiled []*regexp.Regexp
	initErr  error
)

func compile() {
	defer func() {
		if r := recover(); r != nil {
			initErr = fmt.Errorf("redact: %v", r)
		}
	}()
	for _, r := range rules {
		re, err := regexp.Compile(r.re)
		if err != nil {
			initErr = fmt.Errorf("redact: rule %s: %w", r.kind, err)
			return
		}
		compiled = append(compiled, re)
	}
}

// Placeholder is what a secret of a kind is replaced by.
func Placeholder(kind string) string { return "[REDACTED:" + kind + "]" }

// String returns s with every secret replaced by its placeholder. An error
// means the detector could not run; the caller must then write nothing
// (fail closed) and the returned string is empty.
func String(s string) (out string, err error) {
	once.Do(compile)
	if initErr != nil {
		return "", initErr
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("redact: %v", r)
		}
	}()
	lower := strings.ToLower(s)
	for i, re := range compiled {
		if mayMatch(rules[i].kind, s, lower) {
			s = replace(re, rules[i], s)
		}
	}
	return highEntropy(s), nil
}

func replace(re *regexp.Regexp, r rule, s string) string {
	ph := Placeholder(r.kind)
	if r.group == 0 {
		return re.ReplaceAllLiteralString(s, ph)
	}
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		from, to := m[2*r.group], m[2*r.group+1]
		if from < 0 || strings.HasPrefix(s[from:to], "[REDACTED:") {
			continue
		}
		b.WriteString(s[last:from])
		b.WriteString(ph)
		last = to
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// mayMatch is a literal test that lets the common no-secret text skip a
// rule's regexp; lower is s lowercased.
func mayMatch(kind, s, lower string) bool {
	switch kind {
	case "private-key":
		return strings.Contains(s, "PRIVATE KEY-----")
	case "aws-key":
		return strings.Contains(s, "A")
	case "gcp-key":
		return strings.Contains(s, "AIza") || strings.Contains(s, "ya29.")
	case "github-token":
		return strings.Contains(s, "gh") || strings.Contains(s, "github_pat_")
	case "api-key":
		return strings.Contains(s, "sk-")
	case "jwt":
		return strings.Contains(s, "eyJ")
	case "url-password":
		return strings.Contains(s, "://")
	case "slack-token":
		return strings.Contains(s, "xox")
	case "env":
		for _, w := range []string{"KEY", "SECRET", "TOKEN", "PASSW", "PWD", "CREDENTIAL", "AUTH"} {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	case "aws-secret":
		return strings.Contains(lower, "secret")
	case "password":
		for _, w := range []string{"passw", "secret", "api", "token"} {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	return true
}

// highEntropy replaces long tokens that look random (base64/hex of a key)
// and are not ordinary identifiers, paths or placeholders. It walks runs
// of token characters by hand: a regexp here dominated a scan's profile.
func highEntropy(s string) string {
	var b strings.Builder
	last, start := 0, -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isTokenByte(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 32 {
			tok := s[start:i]
			if !strings.Contains(tok, "REDACTED") && looksRandom(tok) {
				b.WriteString(s[last:start])
				b.WriteString(Placeholder("high-entropy"))
				last = i
			}
		}
		start = -1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '_' || c == '-' || c == '=' || c == '.'
}

// looksRandom: mixed character classes and Shannon entropy above what
// words, paths and identifiers reach. Hex strings (git hashes) are allowed
// up to 40 characters, since commit ids are everywhere in transcripts.
func looksRandom(tok string) bool {
	var lower, upper, digit, other int
	for _, c := range tok {
		switch {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digit++
		default:
			other++
		}
	}
	if isHex(tok) {
		return len(tok) > 64
	}
	// Paths and snake_case names are mostly lowercase words between
	// separators; in a random key such words cover little of the token.
	words, covered := 0, 0
	for _, part := range strings.FieldsFunc(tok, func(r rune) bool { return r == '/' || r == '.' || r == '_' || r == '-' }) {
		if len(part) >= 3 && strings.Trim(part, "abcdefghijklmnopqrstuvwxyz") == "" {
			words++
			covered += len(part)
		}
	}
	if words >= 2 && covered*2 >= len(tok) {
		return false
	}
	if other > len(tok)/4 { // paths, dotted names, dashed-words
		return false
	}
	classes := 0
	for _, n := range []int{lower, upper, digit} {
		if n > 0 {
			classes++
		}
	}
	// Two classes pass only when they look drawn at random: digits with
	// letters in a long token, or mixed case with capitals far more often
	// than at word starts (CamelCase identifiers).
	mixedCase := lower > 0 && upper > 0 && digit == 0 && upper*4 >= lower+upper && entropy(tok) >= 4.2
	if classes < 3 && !(classes == 2 && digit > 0 && len(tok) >= 40) && !mixedCase {
		return false
	}
	return entropy(tok) >= 4.0
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func entropy(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	h, n := 0.0, float64(len(s))
	for _, f := range freq {
		if f > 0 {
			p := float64(f) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
