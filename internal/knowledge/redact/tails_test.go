package redact

import (
	"os"
	"strings"
	"testing"
)

// TestTailsAreNecessary: wherever a rule with a tail check matches one of
// gitleaks' examples (every example, in every rule's text: the generic
// rule matches many), some occurrence of its keywords passes the check,
// so skipping the rule on texts where none does loses nothing; and the
// .env pattern without literals matches only lines envLine allows.
func TestTailsAreNecessary(t *testing.T) {
	matched := map[string]int{}
	envRe := heuristicRe(t, "env", nil)
	texts := [][]string{{ // the checks' edges: shortest values, = values
		"api_key = 0123456789", "key: ==========", "key: ========== x", "TOKEN ::= 'aB3dE5gH7j'",
		"my.secret-key \t\"=>\" aB3dE5gH7j", "vault s." + strings.Repeat("a1", 12), "hvs." + strings.Repeat("a-_1", 23),
	}}
	for _, ex := range readGitleaksExamples(t, testing.Short()) {
		texts = append(texts, []string{ex.Text, "x " + ex.Text + " y", strings.ToUpper(ex.Text)})
	}
	for _, group := range texts {
		for _, text := range group {
			lower := strings.ToLower(text)
			hits := keywordHits(lower)
			for i, r := range gitleaksRules {
				if tails[r.ID] == nil || hits[i] == nil {
					continue
				}
				r.once.Do(r.compile)
				if r.re.MatchString(text) {
					matched[r.ID]++
					if !tailAllows(r, lower, hits[i]) {
						t.Errorf("%s matches %q, but its tail check skips it", r.ID, text)
					}
				}
			}
			for _, l := range strings.Split(text, "\n") {
				if envRe.MatchString(l) && !envLine(l) {
					t.Errorf("the .env pattern matches %q, but envLine skips it", l)
				}
			}
		}
	}
	for id := range tails {
		if matched[id] == 0 {
			t.Errorf("no example matched %s: the check was not tested", id)
		}
	}
}

// TestTailsSkipOrdinaryText: in ordinary prose the keywords of the two
// checked rules occur, but no occurrence passes, so their regexps do not
// run; nor does the .env pattern on prose lines.
func TestTailsSkipOrdinaryText(t *testing.T) {
	data, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]int{}
	for _, text := range []string{string(data), "The key to the kingdom is trust.\nSee tests.go for details."} {
		lower := strings.ToLower(text)
		hits := keywordHits(lower)
		for i, r := range gitleaksRules {
			if tails[r.ID] != nil && hits[i] != nil && !tailAllows(r, lower, hits[i]) {
				skipped[r.ID]++
			}
		}
	}
	if skipped["generic-api-key"] == 0 || skipped["vault-service-token"] == 0 {
		t.Errorf("tail checks skipped %v, want both rules skipped on prose", skipped)
	}
	for _, l := range []string{"Run the tests: all of them.", "  plain = words", "exporter: x", "export db=1"} {
		if envLine(l) {
			t.Errorf("envLine(%q) = true, want the .env pattern skipped", l)
		}
	}
	for _, l := range []string{"DB_PASSWORD=x", "  _X.Y-2 : y", "export\tDB=1"} {
		if !envLine(l) {
			t.Errorf("envLine(%q) = false", l)
		}
	}
}

// heuristicRe is the compiled pattern of the heuristic of kind with the
// given literals.
func heuristicRe(t *testing.T, kind string, literal []string) interface{ MatchString(string) bool } {
	t.Helper()
	heurOnce.Do(compileHeuristics)
	for i, h := range heuristics {
		if h.kind == kind && strings.Join(h.literal, ",") == strings.Join(literal, ",") {
			return heurRes[i]
		}
	}
	t.Fatalf("no %s heuristic with literals %v", kind, literal)
	return nil
}
