package githooks_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/integrate/githooks"
)

// standIn is a fake lore that records each call: args|cwd|HEAD|GIT_INDEX_FILE|GIT_OPTIONAL_LOCKS.
const standIn = `#!/bin/sh
printf '%s|%s|%s|%s|%s\n' "$*" "$PWD" "$(git rev-parse HEAD)" "${GIT_INDEX_FILE-unset}" "${GIT_OPTIONAL_LOCKS-}" >>"$LORE_LOG"
exit "${LORE_EXIT:-0}"
`

type env struct {
	t    *testing.T
	dir  string // the repository
	log  string // the stand-in's log
	bin  string // holds the stand-in lore
	path string // PATH without the stand-in
}

// newEnv isolates git from the machine, puts a stand-in lore on PATH, makes
// the hooks run lore in the foreground, and creates a repository with one
// commit that has .lore/.
func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, dir: filepath.Join(root, "repo"), log: filepath.Join(root, "lore.log"), bin: filepath.Join(root, "bin"), path: os.Getenv("PATH")}
	home := filepath.Join(root, "home")
	for _, d := range []string{home, e.bin, e.dir} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(e.bin, "lore"), []byte(standIn), 0o755))
	for k, v := range map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com",
		"PATH": e.bin + string(os.PathListSeparator) + e.path, "LORE_LOG": e.log, "LORE_GITHOOK_SYNC": "1",
		"LORE_DISABLE": "", "LORE_EXIT": "", "GIT_DIR": "", "GIT_INDEX_FILE": "", "GIT_WORK_TREE": "",
	} {
		t.Setenv(k, v)
	}
	for _, k := range []string{"LORE_DISABLE", "LORE_EXIT", "GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"} {
		must(t, os.Unsetenv(k))
	}
	e.git("init", "-q", "-b", "main")
	e.write(".lore/lessons/a.md", "a\n")
	e.write("README", "r\n")
	e.commit("first")
	return e
}

func (e *env) target() githooks.Target {
	return githooks.Target{Dir: filepath.Join(e.dir, ".git", "hooks"), Root: e.dir, Private: filepath.Join(e.dir, ".git", githooks.PrivateDir)}
}

func (e *env) gitIn(dir string, args ...string) string {
	e.t.Helper()
	out, err := e.run(dir, "", args...)
	if err != nil {
		e.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

func (e *env) git(args ...string) string { e.t.Helper(); return e.gitIn(e.dir, args...) }

// run runs git with stdin and returns its combined output.
func (e *env) run(dir, stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (e *env) write(rel, content string) {
	e.t.Helper()
	p := filepath.Join(e.dir, rel)
	must(e.t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(e.t, os.WriteFile(p, []byte(content), 0o644))
}

func (e *env) commit(msg string) { e.t.Helper(); e.git("add", "-A"); e.git("commit", "-q", "-m", msg) }

// builds returns the stand-in's log lines and empties it.
func (e *env) builds() []string {
	e.t.Helper()
	data, err := os.ReadFile(e.log)
	if err != nil && !os.IsNotExist(err) {
		e.t.Fatal(err)
	}
	_ = os.Remove(e.log)
	return strings.Fields(strings.ReplaceAll(string(data), " ", "_"))
}

func (e *env) install() githooks.Report {
	e.t.Helper()
	r, err := githooks.Install(e.target())
	must(e.t, err)
	return r
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func states(r githooks.Report) string {
	var s []string
	for _, h := range r.Hooks {
		s = append(s, h.Name+"="+string(h.State))
	}
	return strings.Join(s, " ")
}

// snapshot records every entry under a folder: path, mode, and content or
// link target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	must(t, filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		var content string
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			content, err = os.Readlink(p)
		case !fi.IsDir():
			var b []byte
			b, err = os.ReadFile(p)
			content = string(b)
		}
		rel, _ := filepath.Rel(dir, p)
		snap[rel] = fi.Mode().String() + " " + content
		return err
	}))
	return snap
}

func TestScriptsAreOneScript(t *testing.T) {
	first := githooks.Script(githooks.Names[0])
	for _, name := range githooks.Names[1:] {
		if !bytes.Equal(githooks.Script(name), first) {
			t.Errorf(".githooks/%s differs from .githooks/%s: keep the four copies identical", name, githooks.Names[0])
		}
	}
	if out, err := exec.Command("sh", "-n", "../../../.githooks/post-commit").CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v\n%s", err, out)
	}
}

func TestInstallIdempotentUninstallRestoresBytes(t *testing.T) {
	e := newEnv(t)
	hooks := e.target().Dir
	must(t, os.WriteFile(filepath.Join(hooks, "post-commit"), []byte("#!/bin/sh\necho mine\n"), 0o700))
	must(t, os.WriteFile(filepath.Join(hooks, "post-checkout"), []byte("not executable\n"), 0o640))
	must(t, os.Symlink("../../scripts/merge-hook", filepath.Join(hooks, "post-merge")))
	before := snapshot(t, hooks)

	r := e.install()
	if got, want := states(r), "post-commit=chained post-merge=chained post-checkout=chained post-rewrite=lore"; got != want {
		t.Fatalf("install: %s, want %s", got, want)
	}
	if fi, err := os.Stat(filepath.Join(hooks, "post-rewrite")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("post-rewrite: %v %v, want mode 0755", fi, err)
	}
	installed := snapshot(t, hooks)
	r = e.install()
	for _, h := range r.Hooks {
		if h.Changed != "" {
			t.Errorf("second install changed %s: %s", h.Name, h.Changed)
		}
	}
	if again := snapshot(t, hooks); !equal(again, installed) {
		t.Errorf("second install changed the folder:\n%v\n%v", installed, again)
	}
	st, err := githooks.Status(e.target())
	must(t, err)
	if got := states(st); got != states(r) {
		t.Errorf("status %s, install said %s", got, states(r))
	}

	r, err = githooks.Uninstall(e.target())
	must(t, err)
	if got, want := states(r), "post-commit=foreign post-merge=foreign post-checkout=foreign post-rewrite=missing"; got != want {
		t.Errorf("uninstall: %s, want %s", got, want)
	}
	if after := snapshot(t, hooks); !equal(after, before) {
		t.Errorf("uninstall did not restore the folder:\nbefore %v\nafter  %v", before, after)
	}
}

func TestOutdatedScriptIsUpdatedForeignConflictRefused(t *testing.T) {
	e := newEnv(t)
	hooks := e.target().Dir
	must(t, os.WriteFile(filepath.Join(hooks, "post-commit"), []byte("#!/bin/sh\n# lore-githook: 0\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(hooks, "post-merge"), []byte("#!/bin/sh\necho user\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(hooks, "post-merge"+githooks.ChainSuffix), []byte("#!/bin/sh\necho older\n"), 0o755))
	st, err := githooks.Status(e.target())
	must(t, err)
	if got, want := states(st), "post-commit=outdated post-merge=foreign post-checkout=missing post-rewrite=missing"; got != want {
		t.Fatalf("status %s, want %s", got, want)
	}
	if _, err := githooks.Install(e.target()); err == nil || !strings.Contains(err.Error(), "post-merge") {
		t.Fatalf("install with both post-merge and post-merge.lore-chained: %v, want an error naming post-merge", err)
	}
	if b, _ := os.ReadFile(filepath.Join(hooks, "post-commit")); !bytes.Equal(b, githooks.Script("post-commit")) {
		t.Errorf("outdated post-commit not rewritten")
	}
	if b, _ := os.ReadFile(filepath.Join(hooks, "post-merge")); string(b) != "#!/bin/sh\necho user\n" {
		t.Errorf("post-merge touched: %q", b)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestChainedHookGetsArgsStdinAndItsStatusPropagates(t *testing.T) {
	e := newEnv(t)
	hooks := e.target().Dir
	rec := filepath.Join(t.TempDir(), "rec")
	// The user's hooks: post-rewrite records its args and stdin; post-checkout fails with 7.
	must(t, os.WriteFile(filepath.Join(hooks, "post-rewrite"), []byte("#!/bin/sh\n{ echo \"args=$*\"; cat; } >>"+rec+"\nexit 3\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(hooks, "post-checkout"), []byte("#!/bin/sh\necho \"checkout $3\" >>"+rec+"\nexit 7\n"), 0o755))
	// Without lore, the failing post-checkout fails git checkout (git maps it to 1).
	_, errBefore := e.run(e.dir, "", "checkout", "-q", "-b", "before")
	codeBefore := exitCode(errBefore)
	if codeBefore == 0 {
		t.Fatalf("the user's failing post-checkout did not fail git checkout")
	}
	_, _ = e.run(e.dir, "", "checkout", "-q", "main") // fails the same way
	must(t, os.Remove(rec))
	e.install()

	e.write(".lore/lessons/b.md", "b\n")
	e.git("add", "-A")
	old := e.git("rev-parse", "HEAD")
	e.git("commit", "-q", "--amend", "-m", "amended")
	got, _ := os.ReadFile(rec)
	if want := "args=amend\n" + old + " " + e.git("rev-parse", "HEAD") + "\n"; string(got) != want {
		t.Errorf("chained post-rewrite saw %q, want %q", got, want)
	}
	if b := e.builds(); len(b) != 1 {
		t.Errorf("amend touching .lore: %d builds %v, want 1 (post-commit; post-rewrite amend adds none)", len(b), b)
	}

	// git checkout's exit status follows post-checkout's: as before lore.
	e.git("branch", "other")
	out, err := e.run(e.dir, "", "checkout", "-q", "other")
	if exitCode(err) != codeBefore {
		t.Errorf("git checkout with the chained hook exiting 7: %v (%s), want exit %d as without lore", err, out, codeBefore)
	}
	if got, _ := os.ReadFile(rec); !strings.HasSuffix(string(got), "checkout 1\n") {
		t.Errorf("chained post-checkout did not run with the branch flag: %q", got)
	}
}

func TestBuildsOnlyWhenLoreChanged(t *testing.T) {
	e := newEnv(t)
	e.install()
	e.write("README", "r2\n")
	e.commit("no lore change")
	if b := e.builds(); len(b) != 0 {
		t.Errorf("commit outside .lore: builds %v", b)
	}
	e.write(".lore/lessons/b.md", "b\n")
	e.commit("lore change")
	b := e.builds()
	if len(b) != 1 {
		t.Fatalf("commit in .lore: builds %v, want 1", b)
	}
	// args, cwd, HEAD, GIT_INDEX_FILE, GIT_OPTIONAL_LOCKS
	want := "build_--quiet|" + e.dir + "|" + e.git("rev-parse", "HEAD") + "|unset|0"
	if b[0] != strings.ReplaceAll(want, " ", "_") {
		t.Errorf("build call %q, want %q", b[0], want)
	}

	// A branch with a .lore change: checking it out builds, a branch
	// without one does not; merging it builds (post-merge).
	e.git("checkout", "-q", "-b", "feature")
	e.write(".lore/lessons/c.md", "c\n")
	e.commit("c")
	e.builds()
	e.git("checkout", "-q", "main")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("checkout across a .lore change: builds %v, want 1", b)
	}
	e.git("checkout", "-q", "-b", "same")
	if b := e.builds(); len(b) != 0 {
		t.Errorf("checkout with the same .lore: builds %v", b)
	}
	e.git("checkout", "-q", "main")
	e.git("merge", "-q", "feature")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("merge bringing .lore changes: builds %v, want 1", b)
	}
	// A file checkout may change anything: lore build decides.
	e.git("checkout", "HEAD", "--", "README")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("file checkout: builds %v, want 1", b)
	}
}

func TestMergeConflictCherryPick(t *testing.T) {
	e := newEnv(t)
	e.install()
	e.git("checkout", "-q", "-b", "feature")
	e.write(".lore/lessons/a.md", "feature\n")
	e.commit("feature a")
	e.write(".lore/lessons/p.md", "picked\n")
	e.commit("to pick")
	e.git("checkout", "-q", "main")
	e.write(".lore/lessons/a.md", "main\n")
	e.commit("main a")
	e.builds()

	if out, err := e.run(e.dir, "", "merge", "-q", "feature~1"); err == nil {
		t.Fatalf("merge should conflict: %s", out)
	}
	if b := e.builds(); len(b) != 0 {
		t.Errorf("a conflicted merge builds nothing yet: %v", b)
	}
	e.write(".lore/lessons/a.md", "resolved\n")
	e.commit("merge")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("committing the merge: builds %v, want 1", b)
	}

	e.git("cherry-pick", "feature")
	b := e.builds()
	if len(b) != 1 || !strings.Contains(b[0], e.git("rev-parse", "HEAD")) {
		t.Errorf("cherry-pick of a .lore commit: builds %v, want 1 at the new HEAD", b)
	}
}

func TestRebaseDefersToOneBuildAtPostRewrite(t *testing.T) {
	e := newEnv(t)
	e.install()
	e.git("checkout", "-q", "-b", "topic")
	for _, n := range []string{"x", "y", "z"} {
		e.write(".lore/lessons/"+n+".md", n+"\n")
		e.commit(n)
	}
	e.git("checkout", "-q", "main")
	e.write(".lore/lessons/m.md", "m\n")
	e.commit("m")
	e.git("checkout", "-q", "topic")
	e.builds()

	e.git("rebase", "-q", "main")
	b := e.builds()
	if len(b) != 1 || !strings.Contains(b[0], "|"+e.git("rev-parse", "HEAD")+"|") {
		t.Fatalf("rebase of 3 .lore commits: builds %v, want exactly 1 at the final HEAD", b)
	}
	if _, err := os.Stat(filepath.Join(e.dir, ".git", "lore-build-pending")); !os.IsNotExist(err) {
		t.Errorf("pending marker left after post-rewrite: %v", err)
	}

	// A rebase that only fast-forwards has no post-rewrite: its checkout builds.
	e.git("checkout", "-q", "-b", "behind", "main~1")
	e.builds()
	e.git("rebase", "-q", "main")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("fast-forward rebase: builds %v, want 1", b)
	}

	// A rebase that stops: nothing is built until it ends; an abort leaves
	// the build owed to the next hook.
	e.git("checkout", "-q", "-b", "stop", "main~1")
	e.write(".lore/lessons/m.md", "conflict\n")
	e.commit("conflicting m")
	e.builds()
	if out, err := e.run(e.dir, "", "rebase", "-q", "main"); err == nil {
		t.Fatalf("rebase should stop on the conflict: %s", out)
	}
	e.write(".lore/lessons/m.md", "resolved\n")
	e.git("add", "-A")
	e.git("-c", "core.editor=true", "commit", "-q", "-m", "resolved during rebase")
	if b := e.builds(); len(b) != 0 {
		t.Errorf("commit while a rebase is in progress: builds %v, want none", b)
	}
	e.git("rebase", "--abort")
	e.write("README", "later\n")
	e.commit("later, outside .lore")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("first hook after an aborted rebase: builds %v, want the owed 1", b)
	}
}

func TestLinkedWorktree(t *testing.T) {
	e := newEnv(t)
	e.install()
	wt := filepath.Join(filepath.Dir(e.dir), "wt")
	e.git("worktree", "add", "-q", "-b", "wtb", wt)
	b := e.builds()
	if len(b) != 1 || !strings.Contains(b[0], "|"+wt+"|") {
		t.Fatalf("worktree add: builds %v, want 1 in %s", b, wt)
	}
	must(t, os.WriteFile(filepath.Join(wt, ".lore", "lessons", "w.md"), []byte("w\n"), 0o644))
	e.gitIn(wt, "add", "-A")
	e.gitIn(wt, "commit", "-q", "-m", "w")
	b = e.builds()
	if len(b) != 1 || !strings.Contains(b[0], "|"+wt+"|"+e.gitIn(wt, "rev-parse", "HEAD")+"|unset|") {
		t.Errorf("commit in a linked worktree: builds %v, want 1 there, at its HEAD, GIT_INDEX_FILE unset", b)
	}
	// A rebase in the worktree defers on the worktree's own git dir.
	e.write(".lore/lessons/main.md", "main\n")
	e.commit("main")
	e.builds()
	e.gitIn(wt, "rebase", "-q", "main")
	if b := e.builds(); len(b) != 1 || !strings.Contains(b[0], "|"+wt+"|") {
		t.Errorf("rebase in a linked worktree: builds %v, want 1 there", b)
	}
}

func TestNeverFailsGit(t *testing.T) {
	e := newEnv(t)
	e.install()
	t.Setenv("LORE_EXIT", "1")
	e.write(".lore/lessons/f.md", "f\n")
	e.commit("lore fails") // git's exit status is checked by commit
	if b := e.builds(); len(b) != 1 {
		t.Errorf("failing lore was not called: %v", b)
	}

	// No lore on PATH: nothing happens, git succeeds, no output.
	t.Setenv("PATH", e.path)
	e.write(".lore/lessons/g.md", "g\n")
	e.git("add", "-A")
	out, err := e.run(e.dir, "", "commit", "-q", "-m", "no lore")
	if err != nil || out != "" {
		t.Errorf("commit without lore on PATH: %v %q", err, out)
	}
	out, err = e.run(e.dir, "", "checkout", "-q", "-b", "x")
	if err != nil || out != "" {
		t.Errorf("checkout without lore on PATH: %v %q", err, out)
	}

	// LORE_DISABLE=1 skips lore.
	t.Setenv("PATH", e.bin+string(os.PathListSeparator)+e.path)
	t.Setenv("LORE_DISABLE", "1")
	e.write(".lore/lessons/h.md", "h\n")
	e.commit("disabled")
	if b := e.builds(); len(b) != 0 {
		t.Errorf("LORE_DISABLE=1: builds %v", b)
	}
}

func TestHookNeverTakesTheIndexLock(t *testing.T) {
	e := newEnv(t)
	e.install()
	first := e.git("rev-parse", "HEAD")
	e.write(".lore/lessons/b.md", "b\n")
	e.commit("b")
	e.builds()
	// Someone holds the index lock; the hook still runs and leaves it alone.
	lock := filepath.Join(e.dir, ".git", "index.lock")
	must(t, os.WriteFile(lock, []byte("held"), 0o644))
	cmd := exec.Command(filepath.Join(e.target().Dir, "post-checkout"), first, e.git("rev-parse", "HEAD"), "1")
	cmd.Dir = e.dir
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Errorf("post-checkout with index.lock held: %v %q", err, out)
	}
	if b := e.builds(); len(b) != 1 {
		t.Errorf("builds %v, want 1", b)
	}
	if data, err := os.ReadFile(lock); err != nil || string(data) != "held" {
		t.Errorf("index.lock changed: %q %v", data, err)
	}
}

func TestBackgroundBuild(t *testing.T) {
	e := newEnv(t)
	e.install()
	t.Setenv("LORE_GITHOOK_SYNC", "")
	e.write(".lore/lessons/b.md", "b\n")
	e.commit("b") // returns without waiting for lore
	// The build happens after git returned; wait for it (not a timing assertion).
	deadline := time.Now().Add(20 * time.Second)
	for {
		if data, _ := os.ReadFile(e.log); len(data) > 0 {
			if !regexp.MustCompile(`^build --quiet\|`).Match(data) {
				t.Errorf("background build logged %q", data)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the background build never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// husky v9: core.hooksPath is .husky/_, whose scripts run the user's
// .husky/<hook>. lore writes nothing there, tells the user the line to add
// to .husky/<hook>, and once it is added, git runs lore through husky.
func TestHuskyOwnsItsFolder(t *testing.T) {
	e := newEnv(t)
	husky := filepath.Join(e.dir, ".husky")
	underscore := filepath.Join(husky, "_")
	must(t, os.MkdirAll(underscore, 0o755))
	must(t, os.WriteFile(filepath.Join(underscore, "h"), []byte("#!/usr/bin/env sh\nn=$(basename \"$0\")\ns=$(dirname \"$(dirname \"$0\")\")/$n\n[ ! -f \"$s\" ] && exit 0\nsh -e \"$s\" \"$@\"\n"), 0o755))
	for _, name := range githooks.Names {
		must(t, os.WriteFile(filepath.Join(underscore, name), []byte("#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n"), 0o755))
	}
	e.git("config", "core.hooksPath", ".husky/_")
	tg := githooks.Target{Dir: underscore, Root: e.dir, Private: filepath.Join(e.dir, ".git", githooks.PrivateDir)}
	before := snapshot(t, underscore)

	r, err := githooks.Install(tg)
	must(t, err)
	if r.Manager != "husky" || states(r) != "post-commit=managed post-merge=managed post-checkout=managed post-rewrite=managed" {
		t.Fatalf("install under husky: %s %s", r.Manager, states(r))
	}
	if after := snapshot(t, underscore); !equal(after, before) {
		t.Errorf("install wrote into .husky/_")
	}
	step := r.Hooks[0].Step
	line := step[strings.Index(step, ": ")+2:]
	if !strings.Contains(step, filepath.Join(".husky", "post-commit")) || !strings.Contains(line, githooks.PrivateDir+"/post-commit") {
		t.Fatalf("step %q", step)
	}
	// The user follows the step for post-commit.
	must(t, os.WriteFile(filepath.Join(husky, "post-commit"), []byte("echo user hook\n"+line+"\n"), 0o644))
	st, err := githooks.Status(tg)
	must(t, err)
	if states(st) != "post-commit=wired post-merge=managed post-checkout=managed post-rewrite=managed" {
		t.Errorf("status after wiring post-commit: %s", states(st))
	}
	e.write(".lore/lessons/h.md", "h\n")
	e.commit("through husky")
	if b := e.builds(); len(b) != 1 {
		t.Errorf("commit through husky: builds %v, want 1", b)
	}

	r, err = githooks.Uninstall(tg)
	must(t, err)
	if _, err := os.Stat(tg.Private); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s: %v", tg.Private, err)
	}
	if !strings.Contains(r.Hooks[0].Step, "remove the line") {
		t.Errorf("uninstall step for a wired hook: %q", r.Hooks[0].Step)
	}
}

func TestLefthookConfigMeansManaged(t *testing.T) {
	e := newEnv(t)
	e.write("lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      run: make lint\n")
	tg := e.target()
	r, err := githooks.Install(tg)
	must(t, err)
	if r.Manager != "lefthook" || r.Hooks[0].State != githooks.Managed || !strings.Contains(r.Hooks[0].Step, "lefthook.yml") {
		t.Fatalf("install with lefthook.yml: %s %+v", r.Manager, r.Hooks[0])
	}
	if _, err := os.Stat(filepath.Join(tg.Dir, "post-commit")); !os.IsNotExist(err) {
		t.Errorf("install wrote into lefthook's folder: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(tg.Private, "post-commit")); err != nil || !bytes.Equal(b, githooks.Script("post-commit")) {
		t.Errorf("lore's script not in %s: %v", tg.Private, err)
	}
	e.write("lefthook.yml", "pre-commit:\n  commands:\n    lint:\n      run: make lint\npost-merge:\n  commands:\n    lore:\n      run: sh \"$(git rev-parse --git-common-dir)/lore-hooks/post-merge\" {0}\n")
	st, err := githooks.Status(tg)
	must(t, err)
	if got := states(st); got != "post-commit=managed post-merge=wired post-checkout=managed post-rewrite=managed" {
		t.Errorf("status with post-merge wired: %s", got)
	}
}

func TestPreCommitHookIsChained(t *testing.T) {
	e := newEnv(t)
	script := "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nexit 0\n"
	must(t, os.WriteFile(filepath.Join(e.target().Dir, "post-checkout"), []byte(script), 0o755))
	r := e.install()
	h := r.Hooks[2]
	if h.Name != "post-checkout" || h.State != githooks.Chained || h.Owner != "pre-commit" {
		t.Errorf("pre-commit's post-checkout: %+v", h)
	}
}

// dispatcher is one script serving several hooks by the name it runs under,
// as many teams write them; an unknown name is an error.
const dispatcher = `#!/bin/sh
name=$(basename "$0")
case $name in
post-commit | post-checkout | post-merge | post-rewrite) echo "$name $*" >>"$DISPATCH_LOG" ;;
*)
	echo "dispatch: unknown hook $name" >&2
	exit 1
	;;
esac
`

// TestDispatcherHookRunsUnderItsOwnName chains a dispatcher installed the
// usual ways (symlinked under several names, relative and absolute, and
// copied) and drives real git commands: each must succeed and the
// dispatcher must see each hook's own name; uninstall restores every file
// and link text.
func TestDispatcherHookRunsUnderItsOwnName(t *testing.T) {
	e := newEnv(t)
	hooks := e.target().Dir
	log := filepath.Join(t.TempDir(), "dispatch.log")
	t.Setenv("DISPATCH_LOG", log)
	outside := filepath.Join(t.TempDir(), "dispatch.sh")
	must(t, os.WriteFile(outside, []byte(dispatcher), 0o755))
	must(t, os.WriteFile(filepath.Join(hooks, "dispatch"), []byte(dispatcher), 0o755))
	must(t, os.Symlink("dispatch", filepath.Join(hooks, "post-checkout")))
	must(t, os.Symlink("dispatch", filepath.Join(hooks, "post-rewrite")))
	must(t, os.Symlink(outside, filepath.Join(hooks, "post-commit")))
	must(t, os.WriteFile(filepath.Join(hooks, "post-merge"), []byte(dispatcher), 0o755))
	before := snapshot(t, hooks)
	if got, want := states(e.install()), "post-commit=chained post-merge=chained post-checkout=chained post-rewrite=chained"; got != want {
		t.Fatalf("install: %s, want %s", got, want)
	}
	// An older lore ran the chained hook through a link in RunDir: install
	// updates its script and removes the link.
	must(t, os.WriteFile(filepath.Join(hooks, "post-merge"), []byte("#!/bin/sh\n# lore-githook: 2\n"), 0o755))
	must(t, os.MkdirAll(filepath.Join(hooks, githooks.RunDir), 0o755))
	must(t, os.Symlink("../post-merge"+githooks.ChainSuffix, filepath.Join(hooks, githooks.RunDir, "post-merge")))
	if st, _ := githooks.Status(e.target()); !strings.Contains(states(st), "post-merge=outdated") {
		t.Fatalf("status after an older lore: %s", states(st))
	}
	if got := states(e.install()); strings.Contains(got, "outdated") {
		t.Fatalf("install after an older lore: %s", got)
	}
	if _, err := os.Lstat(filepath.Join(hooks, githooks.RunDir)); !os.IsNotExist(err) {
		t.Fatalf("install left the older lore's links: %v", err)
	}

	e.git("checkout", "-q", "-b", "topic")
	e.write(".lore/lessons/t.md", "t\n")
	e.commit("topic")
	e.git("checkout", "-q", "main")
	e.write("main.txt", "m\n")
	e.commit("main")
	e.git("merge", "-q", "--no-ff", "-m", "merge topic", "topic")
	e.git("checkout", "-q", "topic")
	e.write("topic.txt", "t2\n")
	e.commit("topic 2")
	e.git("checkout", "-q", "main")
	e.write("main.txt", "m2\n")
	e.commit("main 2")
	e.git("checkout", "-q", "topic")
	e.git("rebase", "-q", "main")
	e.git("checkout", "-q", "main")

	data, err := os.ReadFile(log)
	must(t, err)
	ran := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, _, _ := strings.Cut(line, " ")
		ran[name]++
	}
	for _, name := range githooks.Names {
		if ran[name] == 0 {
			t.Errorf("the dispatcher never ran as %s:\n%s", name, data)
		}
	}
	if len(ran) != len(githooks.Names) {
		t.Errorf("the dispatcher ran under other names: %v", ran)
	}
	if len(e.builds()) == 0 {
		t.Errorf("lore's part never ran")
	}

	_, err = githooks.Uninstall(e.target())
	must(t, err)
	if after := snapshot(t, hooks); !equal(after, before) {
		t.Errorf("uninstall did not restore the folder:\nbefore %v\nafter  %v", before, after)
	}
}
