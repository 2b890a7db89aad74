package scan

import (
	"path/filepath"
	"strings"
	"testing"
)

// candidateAt scans one real transcript and returns its Tier 2 candidate
// at line, failing the test when there is none.
func candidateAt(t *testing.T, file string, line int) Candidate {
	t.Helper()
	res, err := scanDir(t, filepath.Join("testdata", "transcripts", file), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		if c.Tier == 2 && c.Line == line {
			return c
		}
	}
	t.Fatalf("no draft at %s:%d", file, line)
	return Candidate{}
}

// TestFixIsWhatResolvedIt: the fix is the command the error named (a
// pre-commit hook's "Run 'mix format' to fix"), not the next successful
// git add 118 lines later; a failure fixed by an edit names the file
// edited; a diagnosis is trimmed to the diagnosis.
func TestFixIsWhatResolvedIt(t *testing.T) {
	const spotter = "claude-code/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"
	format := candidateAt(t, spotter, 1115)
	if format.Fix != "mix format 2>&1" || format.Trigger != "git commit -m …" {
		t.Errorf("pre-commit format failure: fix %q, trigger %q; want mix format 2>&1 on git commit -m …", format.Fix, format.Trigger)
	}
	dialyzer := candidateAt(t, spotter, 1370)
	if dialyzer.Signal != SignalSelfDiagnosis || dialyzer.Mistake != "Dialyzer says `LLMChain.run` returns `{:error, %LLMChain{}, ...}` — the error is a 3-tuple with the chain." {
		t.Errorf("diagnosis not trimmed to itself: %s %q", dialyzer.Signal, dialyzer.Mistake)
	}
	if dialyzer.Fix != "Edit `lib/spotter/services/waiting_summary.ex`; the same run then passed" {
		t.Errorf("dialyzer fix = %q, want the edit named", dialyzer.Fix)
	}
	credo := candidateAt(t, "claude-code/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl", 512)
	if !strings.HasPrefix(credo.Fix, "Edit `lib/spotter/services/active_session_registry.ex`") {
		t.Errorf("credo finding fixed by an edit: fix %q", credo.Fix)
	}
}

// TestUnknownFixLowersConfidence: a diagnosis with no fix seen drafts no
// fix and stays at the heuristic base; one the edit then fixed gets the
// fix bonus.
func TestUnknownFixLowersConfidence(t *testing.T) {
	res, err := scanDir(t, filepath.Join("testdata", "labelled", "claude"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var unfixed *Candidate
	for i, c := range res.Candidates {
		if c.Signal == SignalSelfDiagnosis && strings.Contains(c.Mistake, "Makefile uses spaces") {
			unfixed = &res.Candidates[i]
		}
	}
	if unfixed == nil {
		t.Fatal("the Makefile diagnosis is not drafted")
	}
	fixed := candidateAt(t, "claude-code/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl", 1024)
	if unfixed.Fix != "" || unfixed.Confidence >= fixed.Confidence {
		t.Errorf("unfixed diagnosis: fix %q confidence %.2f; fixed one %.2f", unfixed.Fix, unfixed.Confidence, fixed.Confidence)
	}
}

func TestTrimDiagnosis(t *testing.T) {
	for in, want := range map[string]string{
		"Dialyzer says X returns a 3-tuple — the error is a 3-tuple with the chain. Let me fix the pattern:": "Dialyzer says X returns a 3-tuple — the error is a 3-tuple with the chain.",
		"Now it wants the alias. The root cause is the compiler. I'll suppress it.":                          "The root cause is the compiler.",
		"The test is failing because uuid is nil. Let me check — the JSONL has none.":                        "The test is failing because uuid is nil.",
	} {
		if got := trimDiagnosis(in); got != want {
			t.Errorf("trimDiagnosis(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestChangeSaid: a changed retry's fix says what changed, then the
// command that worked.
func TestChangeSaid(t *testing.T) {
	for _, tc := range []struct{ failed, fixed, want string }{
		{"git show 8312232 --no-stat", "git show 8312232", "Leave out --no-stat: git show 8312232"},
		{"gh pr diff 104 --stat", "gh pr diff 104 --name-only", "Use --name-only instead of --stat: gh pr diff 104 --name-only"},
		{"git push 2>&1", "git push --set-upstream origin x 2>&1", "Add --set-upstream origin x: git push --set-upstream origin x 2>&1"},
		{"golangci-lint run ./...", "mise exec -- golangci-lint run ./...", "Run it through `mise exec --`: mise exec -- golangci-lint run ./..."},
		{"mise run fmt", "mise trust && mise run fmt", "Run `mise trust` first: mise trust && mise run fmt"},
	} {
		if got := changeSaid(tc.failed, tc.fixed); got != tc.want {
			t.Errorf("changeSaid(%q, %q) = %q, want %q", tc.failed, tc.fixed, got, tc.want)
		}
	}
}

// TestRetryIsTheSameOperation: a later call of the program on something
// else is not a retry (git diff main...HEAD --no-stat, then git diff
// docs/architecture/ 40 lines on), and a step of the failed chain run
// alone is not its fix.
func TestRetryIsTheSameOperation(t *testing.T) {
	if sameOperation("git diff main...HEAD --no-stat", "git diff docs/architecture/") {
		t.Error("git diff of another thing taken as a retry")
	}
	if !sameOperation("git show 8312232 --no-stat", "git show 8312232") || !sameOperation("git push 2>&1", "git push -u origin x") {
		t.Error("a retry of the same operation not recognised")
	}
	res, err := scanDir(t, filepath.Join("testdata", "transcripts", "entire"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		if strings.HasSuffix(c.File, "189d8afc-493f-49af-b59e-6a1ee9676a6e.jsonl") && c.Line == 11 ||
			strings.HasSuffix(c.File, "f6833005-7be4-4178-bb37-a0e9feadc36b.jsonl") && c.Line == 55 ||
			strings.HasSuffix(c.File, "266b3f40-6f1d-491c-aeca-825cbb3fcbc5.jsonl") && c.Line == 340 {
			t.Errorf("drafted with a fix that is not one: %s:%d %q fix %q", filepath.Base(c.File), c.Line, c.Title, c.Fix)
		}
	}
}
