package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// gitleaksExample is one true example of a gitleaks rule, with the
// secrets gitleaks reports in it.
type gitleaksExample struct {
	Rule    string
	Text    string
	Secrets []string
}

// readGitleaksExamples reads testdata/gitleaks/examples.jsonl; short keeps
// the first three examples of each rule.
func readGitleaksExamples(t *testing.T, short bool) []gitleaksExample {
	t.Helper()
	f, err := os.Open("testdata/gitleaks/examples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var out []gitleaksExample
	per := map[string]int{}
	for sc.Scan() {
		var ex gitleaksExample
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		if per[ex.Rule]++; short && per[ex.Rule] > 3 {
			continue
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(per) < 216 {
		t.Fatalf("examples of only %d rules", len(per))
	}
	return out
}

// placements put an example where a transcript has it: in prose, in a
// shell command, and as a #lesson block's "key: value" field, its value
// redacted with Field (a line of its own is TestGitleaksExamples'; the
// drafts a scan writes are internal/capture/review's corpus test).
var placements = map[string]func(string) (string, error){
	"prose": func(s string) (string, error) {
		return String("We found " + s + " in the old config, so it was rotated.")
	},
	"command": func(s string) (string, error) { return String("$ echo " + s + " >> .env && source .env") },
	"field":   asField,
}

// TestGitleaksExamplesPlaced: no example's secret survives in any
// placement (docs/design.md, Secrets).
func TestGitleaksExamplesPlaced(t *testing.T) {
	leaks := map[string]int{}
	n := 0
	for _, ex := range readGitleaksExamples(t, testing.Short()) {
		for name, place := range placements {
			out, err := place(ex.Text)
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, s := range ex.Secrets {
				if strings.Contains(out, s) {
					if leaks[name+" "+ex.Rule]++; leaks[name+" "+ex.Rule] == 1 {
						t.Errorf("%s, %s: %q survives in %q", name, ex.Rule, s, out)
					}
				}
			}
		}
	}
	t.Logf("%d placed examples, %d rule placements leak", n, len(leaks))
}

// blockKey is a #lesson block's key line (internal/capture/scan).
var blockKey = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_\-]{0,40}):(?:\s|$)`)

// asField splits an example's first line at its first colon as a block
// field is split, and redacts the value with its key.
func asField(text string) (string, error) {
	first, rest, _ := strings.Cut(text, "\n")
	m := blockKey.FindStringSubmatch(first)
	if m == nil {
		return String(text)
	}
	v, err := Field(m[1], strings.TrimSpace(first[len(m[0]):])+"\n"+rest)
	return m[1] + ": " + v, err
}
