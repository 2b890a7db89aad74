package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestGitleaksExamples: no secret gitleaks reports in its own rule
// examples survives redaction (DESIGN section 13).
func TestGitleaksExamples(t *testing.T) {
	f, err := os.Open("testdata/gitleaks/examples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	rules, leaked, n := map[string]bool{}, map[string]int{}, 0
	for sc.Scan() {
		var ex struct {
			Rule    string
			Text    string
			Secrets []string
		}
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		n++
		rules[ex.Rule] = true
		out, err := String(ex.Text)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := String(out); err != nil || again != out {
			t.Errorf("%s: not idempotent: %q -> %q", ex.Rule, out, again)
		}
		for _, s := range ex.Secrets {
			if strings.Contains(out, s) {
				if leaked[ex.Rule]++; leaked[ex.Rule] == 1 {
					t.Errorf("%s: %q survives in %q", ex.Rule, s, out)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 6000 || len(rules) < 216 {
		t.Fatalf("only %d examples of %d rules", n, len(rules))
	}
	t.Logf("%d examples of %d rules, %d rules leak", n, len(rules), len(leaked))
}
