package lint_test

import (
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// hookMatcher is what the app passes: the hook's own compile and matcher.
func hookMatcher(items []*markdown.Item, cfg config.Config) (lint.Matcher, error) {
	return compile.NewMatcher(items, cfg, true)
}

const pytestLesson = `---
id: 01JCZ0000000000000000PYTST
kind: lesson
title: pytest hangs without -x
status: %s
priority: high
triggers:
  tools: [Bash]
  commands: ['\bpytest\b']
examples:
  fire:
    - 'Bash: pytest -x tests'
    - 'Bash: cd api && pytest'
  quiet: ['Bash: go test ./...', 'Read: pytest.ini']
---
## Mistake
Ran pytest.

## Fix
Run pytest -x.
`

const forcePush = `---
id: 01JCZ0000000000000000DENYS
kind: pitfall
ref: PF-0001
title: never force-push main
status: active
priority: 10
enforce: deny
triggers: {tools: [Bash], commands: ['git\s+push\s+.*--force']}
examples:
  fire: ['Bash: git push --force origin main', 'Bash: echo "git push --force"']
  quiet:
    - Bash: git push origin feature
---
## Avoid
Push a branch and open a pull request.
`

const utcnow = `---
id: 01JCZ0000000000000000CNTNT
kind: lesson
title: datetime.utcnow is deprecated
status: active
priority: high
triggers:
  tools: [Edit, Write]
  content: ['datetime\.utcnow\(']
examples:
  fire: ['Edit: app/clock.py | now = datetime.utcnow()']
  quiet: ['Edit: app/clock.py | now = datetime.now(UTC)', 'Read: app/clock.py | datetime.utcnow()', 'WebFetch: https://x']
---
## Fix
Use datetime.now(UTC).
`

func checkFiles(t *testing.T, files ...lint.File) []lint.Finding {
	t.Helper()
	return lint.Check(lint.Store{Items: files, NewMatcher: hookMatcher})
}

// findings prints the findings of one key prefix.
func findings(fs []lint.Finding, key string) []string {
	var out []string
	for _, f := range fs {
		if strings.HasPrefix(f.Key, key) {
			out = append(out, f.String())
		}
	}
	return out
}

// hasPrefixes fails unless each finding starts with its wanted prefix.
func hasPrefixes(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got  %s\nwant %s...", got[i], want[i])
		}
	}
}

// TestExamplesAgree: an active item and a draft (judged as promote would
// make it) whose examples the matcher agrees with have no finding.
func TestExamplesAgree(t *testing.T) {
	for _, status := range []string{"active", "draft"} {
		src := strings.Replace(pytestLesson, "%s", status, 1)
		fs := checkFiles(t, lint.File{Path: ".lore/lessons/pytest.md", Data: []byte(src)})
		if got := findings(fs, "examples"); len(got) > 0 {
			t.Errorf("%s: %q", status, got)
		}
	}
}

// TestExamplesDisagree: each example the matcher disagrees with is an
// error naming the file, the example's line and the example, with why.
func TestExamplesDisagree(t *testing.T) {
	src := strings.Replace(pytestLesson, "%s", "active", 1)
	src = strings.Replace(src, "'Bash: cd api && pytest'", "'Bash: npm test'", 1)
	src = strings.Replace(src, "'Read: pytest.ini'", "'Bash: python -m pytest tests'", 1)
	got := findings(checkFiles(t, lint.File{Path: ".lore/lessons/pytest.md", Data: []byte(src)}), "examples")
	want := []string{
		".lore/lessons/pytest.md:13: examples.fire: `Bash: npm test` should fire this item and does not: ",
		".lore/lessons/pytest.md:14: examples.quiet: `Bash: python -m pytest tests` should leave this item quiet and fires it: ",
	}
	hasPrefixes(t, got, want)
	if !strings.Contains(got[0], "pytest") || !strings.Contains(got[1], "score") {
		t.Errorf("the reasons should come from the matcher: %q", got)
	}
}

// TestExamplesDeny: a deny item's fire example must be denied; a mention
// of the command in quotes is injected, not denied, so it fails.
func TestExamplesDeny(t *testing.T) {
	got := findings(checkFiles(t, lint.File{Path: ".lore/pitfalls/PF-0001-force.md", Data: []byte(forcePush)}), "examples")
	want := ".lore/pitfalls/PF-0001-force.md:11: examples.fire: `Bash: echo \"git push --force\"` should be denied and is not: "
	if len(got) != 1 || !strings.HasPrefix(got[0], want) || !strings.Contains(got[0], "quotes") {
		t.Errorf("got %q\nwant %s...", got, want)
	}
}

// TestExamplesContentAndTools: an edit's added text follows ` | `; a
// Read adds none, and a tool without a target takes no input.
func TestExamplesContentAndTools(t *testing.T) {
	got := findings(checkFiles(t, lint.File{Path: ".lore/lessons/utcnow.md", Data: []byte(utcnow)}), "examples")
	want := []string{
		".lore/lessons/utcnow.md:12: examples.quiet: `Read: app/clock.py | datetime.utcnow()` adds text, and a Read call adds none",
		".lore/lessons/utcnow.md:12: examples.quiet: `WebFetch: https://x` has an input",
	}
	hasPrefixes(t, got, want)
}

// TestExamplesPrompt: a Prompt example is decided as a user prompt.
func TestExamplesPrompt(t *testing.T) {
	src := "---\nid: 01JCZ0000000000000000KEYWD\nkind: lesson\ntitle: releases need a changelog\nstatus: active\npriority: high\n" +
		"triggers:\n  keywords: [release]\nexamples:\n  fire: ['Prompt: cut a release today']\n  quiet: ['Prompt: fix the login bug', 'Prompt: release the lock']\n---\n## Fix\nWrite the changelog first.\n"
	got := findings(checkFiles(t, lint.File{Path: ".lore/lessons/release.md", Data: []byte(src)}), "examples")
	if len(got) != 1 || !strings.HasPrefix(got[0], ".lore/lessons/release.md:11: examples.quiet: `Prompt: release the lock` should leave this item quiet") {
		t.Errorf("got %q", got)
	}
}

// TestDenyWithoutExamples: a deny item without both kinds of example is
// warned about; with both it is not.
func TestDenyWithoutExamples(t *testing.T) {
	noQuiet := strings.Replace(forcePush, "  quiet:\n    - Bash: git push origin feature\n", "", 1)
	noQuiet = strings.Replace(noQuiet, ", 'Bash: echo \"git push --force\"'", "", 1)
	none := strings.Replace(noQuiet, "examples:\n  fire: ['Bash: git push --force origin main']\n", "", 1)
	for _, tc := range []struct{ src, want string }{
		{noQuiet, ".lore/pitfalls/PF-0001-force.md:10: warning: examples: enforce: deny blocks calls"},
		{none, ".lore/pitfalls/PF-0001-force.md:8: warning: examples: enforce: deny blocks calls"},
	} {
		got := findings(checkFiles(t, lint.File{Path: ".lore/pitfalls/PF-0001-force.md", Data: []byte(tc.src)}), "examples")
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("got %q\nwant %s...", got, tc.want)
		}
	}
}

// TestExamplesNotRunWithoutMatcher: lint.Check without a NewMatcher (an
// import's fit check) runs no example, and an item the build leaves out
// is not run either: its errors say why.
func TestExamplesNotRunWithoutMatcher(t *testing.T) {
	src := strings.Replace(strings.Replace(pytestLesson, "%s", "active", 1), "'Bash: cd api && pytest'", "'Bash: npm test'", 1)
	if got := findings(lint.Check(lint.Store{Items: []lint.File{{Path: ".lore/lessons/pytest.md", Data: []byte(src)}}}), "examples"); len(got) > 0 {
		t.Errorf("without a matcher: %q", got)
	}
	broken := strings.Replace(src, "priority: high", "priority: high\nconfidence: 7", 1)
	fs := checkFiles(t, lint.File{Path: ".lore/lessons/pytest.md", Data: []byte(broken)})
	if got := findings(fs, "examples"); len(got) > 0 || len(findings(fs, "confidence")) != 1 {
		t.Errorf("an item with errors: %v", fs)
	}
}
