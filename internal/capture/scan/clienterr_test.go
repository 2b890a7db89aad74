package scan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// TestClientErrorOncePerKind: in the Claude Code 1.0 session, 13 Edit,
// Write and MultiEdit calls are refused with "File has not been read
// yet", each fixed by a Read: one draft, with every refusal counted and
// the Read as its fix.
func TestClientErrorOncePerKind(t *testing.T) {
	res, err := scanDir(t, filepath.Join("testdata", "transcripts", "claude-code-1.0"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []Candidate
	for _, c := range res.Candidates {
		if c.Signal == SignalClientError {
			got = append(got, c)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d client-error drafts, want 1: %+v", len(got), got)
	}
	c := got[0]
	if c.Occurrences != 13 || !strings.HasPrefix(c.Fix, "Read the file before") || !hasTag(c.Tags, "client-error:read-first") || !c.signals.fixConfirmed {
		t.Errorf("read-first draft: %d occurrences, fix %q, tags %v, confirmed %v", c.Occurrences, c.Fix, c.Tags, c.signals.fixConfirmed)
	}
	if bad := wrongEvidence(t, got); len(bad) > 0 {
		t.Errorf("wrong evidence: %v", bad)
	}
}

// TestClientErrorKinds: the clients' own words for a refused call, from
// Claude Code, Gemini CLI (edit tool) and Codex (apply_patch), each read
// as its kind; a command's output with the same words inside is not.
func TestClientErrorKinds(t *testing.T) {
	for text, want := range map[string]string{
		"<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>":                                               "read-first",
		"File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.":                             "stale-read",
		"<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>":                                                             "no-match",
		"Failed to edit, 0 occurrences found for old_string in /w/app/main.py. No edits made.":                                                           "no-match",
		"apply_patch verification failed: Failed to find expected lines in src/lib.rs:\nold line":                                                        "no-match",
		"<tool_use_error>Found 3 matches of the string to replace, but replace_all is false.</tool_use_error>":                                           "many-matches",
		"Permission to use Bash with command rm -rf build has been denied.":                                                                              "permission",
		"<tool_use_error>InputValidationError: Edit failed due to the following issue:\nThe required parameter `old_string` is missing</tool_use_error>": "invalid-input",
		"params must have required property 'file_path'":                                                                                                 "invalid-input",
		"Exit code 1\nbash: ./deploy.sh: Permission to use the socket denied":                                                                            "",
		"Exit code 2\nFAIL: TestParse (0.00s)":                                                                                                           "",
	} {
		got := ""
		if k := clientErrorKind(text); k != nil {
			got = k.kind
		}
		if got != want {
			t.Errorf("clientErrorKind(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestSameSessionTwiceCountsOnce: the same session given twice (the
// fixtures folder and a copy) counts each refusal once.
func TestSameSessionTwiceCountsOnce(t *testing.T) {
	f := filepath.Join("testdata", "transcripts", "claude-code-1.0", "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")
	dup := filepath.Join(t.TempDir(), "copy.jsonl")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	testrepo.WriteFile(t, dup, string(data))
	res, err := Scan([]string{f, dup}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		if c.Signal == SignalClientError && c.Occurrences != 13 {
			t.Errorf("read-first counted %d times, want 13", c.Occurrences)
		}
	}
}

// TestClientErrorAcrossClients: an apply_patch Codex refused ("Failed to
// find expected lines") and a replace Gemini CLI refused ("could not find
// the string to replace") are one no-match lesson with both as evidence.
func TestClientErrorAcrossClients(t *testing.T) {
	res, err := scanDir(t, filepath.Join("testdata", "labelled"), nil)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	n := 0
	for _, c := range res.Candidates {
		if hasTag(c.Tags, "client-error:no-match") {
			n++
			for _, e := range c.Evidence {
				files[filepath.Base(e.File)] = true
			}
		}
	}
	if n != 1 || !files["rollout-2026-01-03T00-00-00-codex-3.jsonl"] || !files["session-2026-01-03-gem3.json"] {
		t.Errorf("%d no-match drafts citing %v, want one citing the Codex and the Gemini session", n, files)
	}
}
