package scan

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSignalFromTheFailure: git push failing on a branch named
// fix-timeouts is the no-upstream incident (merged with the same failure
// on spotter-dov), not a hang; the "Lesson learned:" said right after it
// about something else is a candidate of its own, not that draft's
// evidence.
func TestSignalFromTheFailure(t *testing.T) {
	files := []string{filepath.Join("testdata", "signals", "fix-timeouts.jsonl"),
		filepath.Join("testdata", "transcripts", "claude-code", "4d5611e5-241a-462a-8d15-5122611a9569.jsonl")}
	res, err := Scan(files, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var push []Candidate
	var lesson *Candidate
	for i, c := range res.Candidates {
		if strings.Contains(c.Title, "git push") {
			push = append(push, c)
		}
		if strings.Contains(c.Fix, "DATABASE_URL") {
			lesson = &res.Candidates[i]
		}
	}
	if len(push) != 1 {
		t.Fatalf("%d git push drafts, want the one no-upstream draft: %+v", len(push), push)
	}
	p := push[0]
	if p.Signal != SignalErrorFix || hasTag(p.Tags, "severity:hang") || len(p.Sessions) != 2 {
		t.Errorf("push on fix-timeouts: signal %s tags %v sessions %v; want error-fix, no hang, merged across 2 sessions", p.Signal, p.Tags, p.Sessions)
	}
	for _, e := range p.Evidence {
		if strings.Contains(e.Text, "DATABASE_URL") {
			t.Errorf("the unrelated lesson landed in the push draft's evidence: %q", e.Text)
		}
	}
	if lesson == nil || lesson.Signal != SignalExplicit || lesson.Line != 18 || lesson.Fix != "Lesson learned: always export DATABASE_URL before the integration tests." {
		t.Fatalf("the explicit lesson is not a candidate of its own at line 18: %+v", lesson)
	}
}

func TestTimeoutWordsNotInNames(t *testing.T) {
	for text, want := range map[string]bool{
		"fatal: The current branch fix-timeouts has no upstream branch.": false,
		"error: pathspec 'src/timeout_handler.go' did not match":         false,
		"Command timed out after 2m 0.0s":                                true,
		"Error: timeout waiting for the server":                          true,
		"[Request interrupted by user for tool use]":                     true,
		"context deadline exceeded":                                      true,
	} {
		if got := timeoutText(text); got != want {
			t.Errorf("timeoutText(%q) = %v, want %v", text, got, want)
		}
	}
	if dataLossPhrases.in("error: pathspec 'fix-deleted-rows' did not match") || !dataLossPhrases.in("the migration deleted the table") {
		t.Error("data loss is read from names instead of words")
	}
}
