package match

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// FuzzLiterals: the hand-written glob reader and the regex literal walk end
// on any pattern, and what they return is a sound pre-filter: a command or
// path the pattern matches contains one of its literals (ASCII case aside),
// or the index would hide the item from a call it should fire on; and it
// contains every required literal, or the hook would skip a pattern that
// matches.
func FuzzLiterals(f *testing.F) {
	f.Add(`\bgit\s+push\b.*--force`, "git push origin --force", "src/**/migrations/*.py", "src/a/migrations/x.py")
	f.Add(`(?i)docker\s+build`, "DOCKER build .", "**/{a,b}[xy]z/**", "b/az/q")
	f.Add(`(pytest|pyright)`, "pyright .", `\*x{*,y}`, "*xy")
	f.Add(`(?i)--force\s+kubectl`, "--force \u212aubectl", "", "")
	f.Add(`Ärger\s+über`, "Ärger über", "", "")
	f.Fuzz(func(t *testing.T, pat, cmd, glob, path string) {
		var lits, required, globLits []string
		fuzzlimit.Run(t, func() {
			lits = RegexLiterals(pat)
			required = RequiredLiterals(pat)
			globLits = GlobLiterals(glob)
			hasPhrase(normText(cmd), normText(pat))
			phraseLiteral(pat)
		})
		if re, err := regexp.Compile(pat); err == nil && lits != nil && re.MatchString(cmd) && !containsOne(cmd, lits) {
			t.Fatalf("%q matches %q, which has none of its literals %q", pat, cmd, lits)
		}
		if re, err := regexp.Compile(pat); err == nil && re.MatchString(cmd) {
			for _, l := range required {
				if !containsOne(cmd, []string{l}) {
					t.Fatalf("%q matches %q, which lacks its required literal %q", pat, cmd, l)
				}
			}
		}
		if ok, err := doublestar.Match(glob, path); err == nil && ok && globLits != nil && !containsOne(path, globLits) {
			t.Fatalf("%q matches %q, which has none of its literals %q", glob, path, globLits)
		}
	})
}

func containsOne(s string, lits []string) bool {
	low := strings.Map(lowerASCII, s)
	for _, l := range lits {
		if strings.Contains(low, strings.Map(lowerASCII, l)) {
			return true
		}
	}
	return false
}

func lowerASCII(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

func TestRequiredLiterals(t *testing.T) {
	for pat, want := range map[string][]string{
		`\bgit\s+push\b.*--force`:    {"git", "push", "--force"},
		`\bpytest\b.*tests/unit\b`:   {"pytest", "tests/unit"},
		`(?i)Cargo\s+run`:            {"cargo", "run"},
		`(?i)kubectl\s+logs`:         nil, // k and s fold to non-ASCII letters
		`(pytest|pyright)\s+-x`:      nil, // any of two; -x is too short
		`python\s+-m\s+pytest\b`:     {"python", "pytest"},
		`\bpytest\b.*\bpytest\b`:     {"pytest"},
		`Ärger\s+über`:               {"Ärger", "über"},
		`[`:                          nil,
		`(?m)^[ \t]*\w+\.fetch_json`: {".fetch_json"},
	} {
		if got := RequiredLiterals(pat); !slices.Equal(got, want) {
			t.Errorf("RequiredLiterals(%q) = %q, want %q", pat, got, want)
		}
	}
}
