package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lore-agents/lore/internal/store/gitstore"
)

// crashCase is one writing command and the repository it runs in.
type crashCase struct {
	name  string
	files map[string]string   // template path <- crash.txtar file
	setup [][]string          // commands that build the template ("git ..." or lore arguments)
	run   []string            // the command under test
	keep  map[string][]string // path <- texts every state holds byte for byte (a user's text around a managed block)
}

var crashCases = []crashCase{
	{name: "init", run: []string{"init"}},
	{name: "add-lesson", setup: [][]string{{"init"}}, run: []string{"add", "lesson", "pytest hangs", "--tools", "Bash", "--command", `\bpytest\b`, "--mistake", "Bare pytest hangs.", "--fix", "Use --no-header."}},
	{name: "add-pitfall", setup: [][]string{{"init"}, {"add", "pitfall", "first", "--issue", "One."}}, run: []string{"add", "pitfall", "npm ci wipes node_modules", "--issue", "It deletes them.", "--avoid", "Use npm install."}},
	{name: "add-learning", setup: [][]string{{"init"}, {"add", "learning", "Old entry", "--body", "Kept as it was."}}, run: []string{"add", "learning", "Lint before commit", "--body", "Run make lint before each commit."}},
	{name: "lint-fix", files: map[string]string{
		".lore/pitfalls/PF-0001-npm-ci.md": "pf-a.md", ".lore/pitfalls/PF-0001-go-generate.md": "pf-b.md", ".lore/lessons/pytest.md": "lookahead.md"},
		setup: [][]string{{"init"}}, run: []string{"lint", "--fix"}},
	{name: "promote", files: map[string]string{".lore/lessons/make-test.md": "draft.md"}, setup: [][]string{{"init"}},
		run: []string{"promote", "make-test", "--priority", "high", "--tools", "Bash"}},
	{name: "archive", files: map[string]string{".lore/lessons/make-test.md": "draft.md"}, setup: [][]string{{"init"}}, run: []string{"archive", "make-test"}},
	{name: "reject", files: map[string]string{".lore/lessons/make-test.md": "draft.md"}, setup: [][]string{{"init"}}, run: []string{"reject", "make-test"}},
	{name: "consolidate", files: map[string]string{".lore/config.yaml": "consolidate.yaml"}, setup: [][]string{{"init"},
		{"add", "learning", "Flaky network tests", "--as", "pitfall", "--body", "Network tests flake on CI runners; mark them with the network tag."},
		{"add", "learning", "Network tests on CI", "--as", "pitfall", "--body", "Network tests flake on CI runners; mark them with the network tag and retry."},
		{"add", "learning", "Lint before commit", "--body", "Run make lint before each commit."}},
		run: []string{"consolidate", "--today", "2026-03-01"}},
	{name: "consolidate-split", files: map[string]string{".lore/config.yaml": "split.yaml", "docs/deploy.md": "deploy.md"}, setup: [][]string{{"init"},
		{"add", "learning", "Deploy on Fridays", "--body", "Deploy only before noon on Fridays, with the on-call engineer told."},
		{"add", "learning", "Deploy cache warmup", "--body", "Warm the CDN cache right after each deploy finishes."}},
		run: []string{"consolidate", "--today", "2026-03-01"}},
	{name: "render", setup: [][]string{{"init"},
		{"observe", "pitfall", "npm ci wipes node_modules", "--at", "2026-03-01", "--details", "Use npm install in a dev shell."},
		{"observe", "pitfall", "npm ci wipes node_modules", "--at", "2026-03-02"},
		{"observe", "workflow", "release notes from the changelog", "--count", "3", "--at", "2026-03-02"}},
		run: []string{"render"}},
	{name: "reconcile", setup: [][]string{{"init"},
		{"observe", "pitfall", "npm ci wipes node_modules", "--at", "2026-03-01"}, {"observe", "pitfall", "npm ci wipes node_modules", "--at", "2026-03-02"},
		{"render"}, {"rm", ".lore/pitfalls/PF-0001-npm-ci-wipes-node-modules.md"}},
		run: []string{"reconcile"}},
	{name: "observe", setup: [][]string{{"init"}, {"observe", "pitfall", "npm ci wipes node_modules", "--at", "2026-03-01"}},
		run: []string{"observe", "pitfall", "npm ci wipes node_modules", "--at", "2026-03-02"}},
	{name: "scan", files: map[string]string{"t/session.jsonl": "session.jsonl"}, setup: [][]string{{"init"}}, run: []string{"scan", "t/session.jsonl"}},
	{name: "learn", files: map[string]string{"summary.md": "summary.md"}, setup: [][]string{{"init", "--no-git-hooks"}}, run: []string{"learn", "--key", "phase-3", "--from", "summary.md"}},
	{name: "signal", setup: [][]string{{"init"}, {"signal", "emit", "FEEDBACK", "an older signal to keep around"}}, run: []string{"signal", "emit", "REDIRECT", "stop running the full suite; run go test ./pkg/..."}},
	{name: "aggregate", files: map[string]string{".lore/lessons/s1.md": "skill1.md", ".lore/lessons/s2.md": "skill2.md",
		".lore/lessons/s3.md": "skill3.md", ".lore/lessons/s4.md": "skill4.md", ".lore/lessons/s5.md": "skill5.md"},
		setup: [][]string{{"init"}}, run: []string{"aggregate"}},
	// An ADR folder (one superseding another) and a Cursor rules folder
	// that holds a file lore exported: an import is idempotent through the
	// imported: key, so a rerun creates what the killed run did not.
	{name: "import-adr", files: map[string]string{"docs/adr/0001-record-architecture-decisions.md": "adr1.md",
		"docs/adr/0002-keep-the-cache-in-sqlite.md": "adr2.md", "docs/adr/0003-keep-the-cache-in-files.md": "adr3.md"},
		setup: [][]string{{"init"}, {"add", "decision", "Use make", "--decision", "Make drives the build."}}, run: []string{"import", "adr"}},
	{name: "import-cursor", files: map[string]string{".cursor/rules/go-errors.mdc": "cursor-a.mdc", ".cursor/rules/force-push.mdc": "cursor-b.mdc"},
		setup: [][]string{{"init"}, {"add", "lesson", "Run the linter first", "--fix", "Run make lint."}, {"export", "cursor"}},
		run:   []string{"import", "cursor"}},
	// A managed block between a user's text (replaced, the text kept), and
	// a rule folder with a file to write, one to remove and the user's own.
	{name: "export-agents", files: map[string]string{"AGENTS.md": "agents.md"},
		setup: [][]string{{"init"}, {"add", "lesson", "Run the linter first", "--fix", "Run make lint.", "--tools", "Bash", "--command", `^make\b`},
			{"add", "pitfall", "npm ci wipes node_modules", "--issue", "It deletes them.", "--avoid", "Use npm install."}},
		run:  []string{"export", "agents"},
		keep: map[string][]string{"AGENTS.md": {"# Agents\n\nBuild with make; run the tests with make test.\n\n<!-- lore:begin", "<!-- lore:end -->\n\n## Review\n\nAsk for one review; keep this text as it is.\n"}}},
	{name: "export-cursor", files: map[string]string{".cursor/rules/my-rule.mdc": "my-rule.mdc"},
		setup: [][]string{{"init"}, {"add", "lesson", "Old rule", "--fix", "Old."}, {"add", "lesson", "Kept rule", "--fix", "Kept."}, {"export", "cursor"},
			{"archive", "old-rule"}, {"add", "pitfall", "npm ci wipes node_modules", "--issue", "It deletes them."},
			{"add", "decision", "Use make", "--decision", "Make drives the build."}},
		run:  []string{"export", "cursor"},
		keep: map[string][]string{".cursor/rules/my-rule.mdc": {"---\ndescription: my own rule\nalwaysApply: true\n---\n\nWritten by hand: lore must never touch it.\n"}}},
}

// TestCrashAtEveryWriteStep runs every writing command once per write step
// (create, write, fsync, rename, folder fsync, remove, append) of the store,
// stopping the real lore process at that step (LORE_TEST_CRASH_AT), and
// checks the state it leaves: every file is its old or its new content (an
// append log may end in a broken line), lint names every stray temp file;
// then the same command run again ends as a clean run does (or as a clean
// run followed by that rerun does), with no temp file left anywhere. The
// number of kill points is the number of write steps of the command (a few
// dozen at most with these small repositories).
func TestCrashAtEveryWriteStep(t *testing.T) {
	if testing.Short() {
		t.Skip("crash suite: kills every write at every step; make test runs it")
	}
	fixtures := crashFixtures(t)
	for _, c := range crashCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tmpl := crashTemplate(t, c, fixtures)
			old := snapshot(t, tmpl)
			code1, ref1 := runCopy(t, tmpl, c.run, "")
			code2, ref2 := runCopy(t, ref1.dir, c.run, "")
			checkKept(t, 0, old, c.keep)
			checkKept(t, 0, ref1, c.keep)
			temps := 0
			n := 1
			for ; ; n++ {
				code, crashed := runCopy(t, tmpl, c.run, fmt.Sprint(n))
				if code != gitstore.CrashExit {
					if code != code1 || !sameTree(crashed, ref1) {
						t.Fatalf("no crash at step %d, yet the run differs from a clean one (exit %d, want %d)", n, code, code1)
					}
					break
				}
				checkOldOrNew(t, n, crashed, old, ref1)
				checkKept(t, n, crashed, c.keep)
				temps += checkTempsReported(t, n, crashed)
				code, rerun := runIn(t, crashed.dir, c.run, "")
				if !(code == code1 && sameTree(rerun, ref1)) && !(code == code2 && sameTree(rerun, ref2)) {
					t.Fatalf("step %d: the rerun (exit %d) ends neither as a clean run (exit %d) nor as a clean run run twice (exit %d):\n%s",
						n, code, code1, code2, treeDiff(rerun, ref1))
				}
				checkKept(t, n, rerun, c.keep)
				if left := strayTemps(rerun.dir); len(left) > 0 {
					t.Fatalf("step %d: temp files after the rerun: %v", n, left)
				}
			}
			if n < 3 {
				t.Fatalf("only %d write steps: the command under test wrote nothing", n-1)
			}
			t.Logf("%s: %d kill points, %d stray temp files (each reported by lint, none after the rerun)", c.name, n-1, temps)
		})
	}
}

// crashFixtures are the files of testdata/crash.txtar by name.
func crashFixtures(t *testing.T) map[string][]byte {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "crash.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	fixtures := map[string][]byte{}
	for _, f := range ar.Files {
		fixtures[f.Name] = f.Data
	}
	return fixtures
}

// testEnv isolates lore and git from the machine (as the scripts do).
func testEnv(dir string, extra ...string) []string {
	home := filepath.Join(filepath.Dir(dir), "home")
	return append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Lore Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Lore Test", "GIT_COMMITTER_EMAIL=test@example.com", "NO_COLOR=1", "TZ=UTC",
		"LORE_NOW=2026-03-02T12:00:00Z",
		// the hooks' state in the package's own temp dir (TestMain)
		"TMPDIR=" + os.TempDir(), "XDG_RUNTIME_DIR=" + os.Getenv("XDG_RUNTIME_DIR")}, extra...)
}

// run runs lore (or git, or rm) in dir, stopped at write step crashAt
// unless that is "": the exit code and the output.
func run(t *testing.T, dir, crashAt string, args ...string) (int, string) {
	t.Helper()
	var extra []string
	if crashAt != "" {
		extra = append(extra, "LORE_TEST_CRASH_AT="+crashAt)
	}
	code, out := runEnv(t, dir, args, extra...)
	if code < 0 {
		t.Fatal(out)
	}
	return code, out
}

// runEnv is run with more environment; it may be called from any
// goroutine: a command that cannot start is exit code -1.
func runEnv(t *testing.T, dir string, args []string, extra ...string) (int, string) {
	name := "lore"
	if args[0] == "git" || args[0] == "rm" {
		name, args = args[0], args[1:]
	}
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, testEnv(dir, extra...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	case err != nil:
		return -1, fmt.Sprintf("%s %v: %v", name, args, err)
	}
	return 0, string(out)
}

func crashTemplate(t *testing.T, c crashCase, fixtures map[string][]byte) string {
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(filepath.Dir(dir), "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "home", ".gitconfig"), []byte("[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out := run(t, dir, "", "git", "init", "-q"); code != 0 {
		t.Fatalf("git init: %s", out)
	}
	for rel, name := range c.files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fixtures[name], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range c.setup {
		if code, out := run(t, dir, "", args...); code != 0 {
			t.Fatalf("setup %v: exit %d\n%s", args, code, out)
		}
	}
	return dir
}

// tree is a work tree's files (not .git/) with what varies between two
// runs of the same command (ULIDs, timestamps) normalized.
type tree struct {
	dir   string
	files map[string]string
}

var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b[0-9A-HJKMNP-TV-Z]{26}\b`), "<ulid>"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`), "<time>"},
	{regexp.MustCompile(`sha256:[0-9a-f]{64}`), "<hash>"},
	// What a rerun says about the run it completes.
	{regexp.MustCompile(` \(already there: written by an interrupted consolidation\)`), ""},
	{regexp.MustCompile(`,"healed":true`), ""},
}

// derived are cache files that hold hashes of volatile bytes, and the
// consolidation report, which says what its own run did (a rerun reports
// the entries it found placed, not the split that placed them): compared by
// presence only.
var derived = regexp.MustCompile(`^\.lore/cache/(manifest(\.stamp)?|history-.*|.*\.lock)$|^tmp/consolidation-report\.md$`)

func snapshot(t *testing.T, dir string) tree {
	t.Helper()
	tr := tree{dir: dir, files: map[string]string{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := strings.ReplaceAll(string(data), dir, "<repo>")
		if derived.MatchString(rel) {
			s = "<derived>"
		}
		if appendLogs.MatchString(rel) {
			s = completeLines(s)
		}
		for _, v := range volatile {
			s = v.re.ReplaceAllString(s, v.with)
		}
		tr.files[rel] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// copies names the copies of a case's repositories, which sit next to the
// template and share its home folder.
var copies atomic.Int64

// runCopy copies src to a new folder and runs the command there.
func runCopy(t *testing.T, src string, args []string, crashAt string) (int, tree) {
	t.Helper()
	dst := filepath.Join(filepath.Dir(src), fmt.Sprintf("copy-%d", copies.Add(1)))
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	return runIn(t, dst, args, crashAt)
}

func runIn(t *testing.T, dir string, args []string, crashAt string) (int, tree) {
	t.Helper()
	code, _ := run(t, dir, crashAt, args...)
	return code, snapshot(t, dir)
}

func sameTree(a, b tree) bool {
	return treeDiff(a, b) == ""
}

func treeDiff(a, b tree) string {
	var out []string
	for p, s := range a.files {
		if t, ok := b.files[p]; !ok {
			out = append(out, "only in the first: "+p)
		} else if s != t {
			out = append(out, fmt.Sprintf("differs: %s\n%s\n---\n%s", p, s, t))
		}
	}
	for p := range b.files {
		if _, ok := a.files[p]; !ok {
			out = append(out, "only in the second: "+p)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// appendLogs are written by appending: a kill mid-write may leave a broken
// last line, which readers skip.
var appendLogs = regexp.MustCompile(`(^|/)observations\.jsonl$`)

// completeLines drops the lines of an append log a killed writer cut short
// (its readers skip them): what is left must be whole records.
func completeLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if json.Valid([]byte(strings.TrimSpace(l))) && strings.HasSuffix(l, "\n") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// checkOldOrNew: every file (but stray temp files) is as it was before the
// command or as a clean run leaves it (an append log's cut-short lines
// aside).
func checkOldOrNew(t *testing.T, n int, crashed, old, ref tree) {
	t.Helper()
	for p, s := range crashed.files {
		if isStrayTemp(p) {
			continue
		}
		o, inOld := old.files[p]
		r, inRef := ref.files[p]
		switch {
		case inOld && s == o, inRef && s == r, !inOld && s == "" && appendLogs.MatchString(p):
		default:
			t.Fatalf("step %d: %s is neither its old nor its new content:\n%s\n--- old (%v) ---\n%s\n--- new (%v) ---\n%s", n, p, s, inOld, o, inRef, r)
		}
	}
	for p := range old.files {
		if _, ok := crashed.files[p]; !ok {
			if _, inRef := ref.files[p]; inRef {
				t.Fatalf("step %d: %s is gone, though a clean run keeps it", n, p)
			}
		}
	}
}

// checkKept: every text a case keeps is in its file, byte for byte.
func checkKept(t *testing.T, n int, tr tree, keep map[string][]string) {
	t.Helper()
	for p, texts := range keep {
		data, err := os.ReadFile(filepath.Join(tr.dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("step %d: %v", n, err)
		}
		for _, text := range texts {
			if !bytes.Contains(data, []byte(text)) {
				t.Fatalf("step %d: %s lost the user's text %q:\n%s", n, p, text, data)
			}
		}
	}
}

var tempName = regexp.MustCompile(`^\..+[^0-9][0-9]+$`)

func isStrayTemp(rel string) bool { return tempName.MatchString(filepath.Base(rel)) }

func strayTemps(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && d.Type().IsRegular() && isStrayTemp(p) {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// checkTempsReported runs lore lint over a crashed state: it must name every
// stray temp file. It returns how many there were.
func checkTempsReported(t *testing.T, n int, crashed tree) int {
	t.Helper()
	temps := strayTemps(crashed.dir)
	if len(temps) == 0 {
		return 0
	}
	_, out := run(t, crashed.dir, "", "lint")
	for _, p := range temps {
		if !bytes.Contains([]byte(out), []byte(p+": temp file left by a killed lore write")) {
			t.Fatalf("step %d: lint does not report %s:\n%s", n, p, out)
		}
	}
	return len(temps)
}
