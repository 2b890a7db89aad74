package scan

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wrongEvidence checks every evidence line of the Tier 2 candidates
// against the session file it names: the line must exist there and hold
// what the evidence quotes. It returns the lines that do not.
func wrongEvidence(t *testing.T, cands []Candidate) []string {
	t.Helper()
	lines := map[string][]string{}
	var bad []string
	for _, c := range cands {
		if c.Tier != 2 {
			continue
		}
		for _, e := range c.Evidence {
			if strings.HasSuffix(e.File, ".json") {
				continue // a Gemini chat file: lines are message numbers
			}
			if _, ok := lines[e.File]; !ok {
				lines[e.File] = readLines(t, e.File)
			}
			ls := lines[e.File]
			if e.Line < 1 || e.Line > len(ls) || !strings.Contains(jsonStrings(ls[e.Line-1]), quoted(e.Text)) {
				bad = append(bad, filepath.Base(e.File)+":"+itoa(e.Line)+": "+clip(e.Text, 80))
			}
		}
	}
	return bad
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []string
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// jsonStrings is every string value in a JSONL line, joined, with
// literal \n turned into line breaks as the scanner reads them.
func jsonStrings(line string) string {
	var v any
	if json.Unmarshal([]byte(line), &v) != nil {
		return line
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(literalNewlines(x))
			if strings.HasPrefix(strings.TrimSpace(x), "{") || strings.HasPrefix(strings.TrimSpace(x), "[") {
				b.WriteString(jsonStrings(x)) // Codex arguments are JSON in a string
			}
			b.WriteByte('\n')
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return b.String()
}

// quoted is the start of what an evidence line quotes: past its "who:"
// prefix, its first line, at most 24 characters, before any cut.
func quoted(text string) string {
	if _, rest, ok := strings.Cut(text, ": "); ok {
		text = rest
	}
	text, _, _ = strings.Cut(text, "\n")
	text, _, _ = strings.Cut(text, "…")
	text = strings.TrimSpace(text)
	if r := []rune(text); len(r) > 24 {
		text = string(r[:24])
	}
	return text
}

// TestEvidenceNamesItsSession: an incident seen in two sessions cites
// each piece in the session it was seen in, and every evidence line of
// the real sessions' drafts is in its file and holds what it quotes.
func TestEvidenceNamesItsSession(t *testing.T) {
	res, err := scanDir(t, filepath.Join("testdata", "transcripts", "claude-code"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var push *Candidate
	for i, c := range res.Candidates {
		if strings.Contains(c.Title, "no upstream branch") {
			push = &res.Candidates[i]
		}
	}
	if push == nil {
		t.Fatal("no draft for the git push without an upstream")
	}
	found := false
	for _, e := range push.Evidence {
		found = found || filepath.Base(e.File) == "fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl" && e.Line == 632
	}
	if !found {
		t.Errorf("the push in fa812bfe at line 632 is not cited there: %+v", push.Evidence)
	}
	if bad := wrongEvidence(t, res.Candidates); len(bad) > 0 {
		t.Errorf("%d evidence lines point at the wrong file or line:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

// TestDiagnosisFixedByEditProposed: a failing test the agent diagnosed
// ("The idempotency test is failing because ..."), then fixed with an
// Edit and ran again green, is proposed (commit bffbb95 dropped it as a
// bug fixed in the code).
func TestDiagnosisFixedByEditProposed(t *testing.T) {
	c := candidateAt(t, "claude-code/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl", 1024)
	if c.Signal != SignalSelfDiagnosis || !strings.Contains(c.Mistake, "failing because the `write_session_jsonl` helper") {
		t.Errorf("the diagnosed test failure: %s, mistake %q", c.Signal, c.Mistake)
	}
}
