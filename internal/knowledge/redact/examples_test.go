package redact

import (
	"strings"
	"testing"
)

// TestGitleaksExamples: no secret gitleaks reports in its own rule
// examples survives redaction (docs/design.md, Secrets).
func TestGitleaksExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle suite: every gitleaks rule example; make test runs it")
	}
	rules, leaked, n := map[string]bool{}, map[string]int{}, 0
	var long strings.Builder // the examples in long texts, as lint reads a file
	var longSecrets []string
	checkLong := func() {
		out, err := String(long.String())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range longSecrets {
			if strings.Contains(out, s) {
				t.Errorf("%q survives in a long text", s)
			}
		}
		long.Reset()
		longSecrets = nil
	}
	for _, ex := range readGitleaksExamples(t, false) {
		long.WriteString("Some words between examples.\n\n" + ex.Text + "\n\nMore words.\n")
		longSecrets = append(longSecrets, ex.Secrets...)
		if long.Len() > 8<<10 {
			checkLong()
		}
		n++
		rules[ex.Rule] = true
		out, err := String(ex.Text)
		if err != nil {
			t.Fatal(err)
		}
		if n%8 == 0 { // every 8th: the check doubles the cost
			if again, err := String(out); err != nil || again != out {
				t.Errorf("%s: not idempotent: %q -> %q", ex.Rule, out, again)
			}
		}
		for _, s := range ex.Secrets {
			if strings.Contains(out, s) {
				if leaked[ex.Rule]++; leaked[ex.Rule] == 1 {
					t.Errorf("%s: %q survives in %q", ex.Rule, s, out)
				}
			}
		}
	}
	checkLong()
	if n < 6000 || len(rules) < 216 {
		t.Fatalf("only %d examples of %d rules", n, len(rules))
	}
	t.Logf("%d examples of %d rules, %d rules leak", n, len(rules), len(leaked))
}
