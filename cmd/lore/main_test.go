package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lore-agents/lore/internal/inject/hooks"
	"github.com/lore-agents/lore/internal/testrepo"
)

func TestMain(m *testing.M) {
	testscript.Main(ownTemp{m}, map[string]func(){
		"lore":      func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"lore-hook": func() { os.Exit(hooks.MainExiting(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// ownTemp runs the tests in an environment of their own (testrepo.Hermetic;
// the scripts' commands get theirs from testscript).
type ownTemp struct{ m *testing.M }

// Run keeps on PATH the folder testscript.Main put first there, where lore
// and lore-hook are this test binary: Hermetic takes every folder that
// holds a lore off PATH.
func (o ownTemp) Run() int {
	own, _, _ := strings.Cut(os.Getenv("PATH"), string(os.PathListSeparator))
	return testrepo.Hermetic(func() int {
		if _, err := os.Stat(filepath.Join(own, "lore")); err == nil {
			os.Setenv("PATH", own+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
		return o.m.Run()
	})
}

// TestScript runs the end-to-end scripts in testdata/script: the real lore
// binary (this test binary re-executed) against real git repositories.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup:               setupScriptEnv,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"commitat": cmdCommitAt,
			"waitfor":  cmdWaitFor,
		},
	})
}

// setupScriptEnv isolates git and lore from the machine's configuration.
func setupScriptEnv(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, ".home")
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"XDG_CACHE_HOME":      filepath.Join(home, ".cache"), // fetched organisation stores
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Lore Test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_COMMITTER_NAME":  "Lore Test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
		"NO_COLOR":            "1",
		"EDITOR":              "false",
		"TZ":                  "UTC",
		"XDG_RUNTIME_DIR":     filepath.Join(env.WorkDir, ".tmp"), // the hooks' session state, in the script's own temp dir
		// A hook waits for a rebuild a share of its deadline (0.5 s and
		// 1.5 s of the default 2 s): a minute gives a build on a loaded
		// machine the time it takes.
		"LORE_HOOK_DEADLINE": "1m",
	} {
		env.Setenv(k, v)
	}
	// Real transcripts the scripts read in place (lore stats, replay).
	pair, err := filepath.Abs(filepath.Join("..", "..", "internal", "capture", "scan", "testdata", "pair"))
	if err != nil {
		return err
	}
	env.Setenv("PAIR", pair)
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[init]\n\tdefaultBranch = main\n"), 0o644)
}

// cmdCommitAt stages everything and commits with fixed author and committer
// dates: commitat <date> <message> (date as git accepts it, e.g.
// 2026-03-01T10:00:00+02:00).
func cmdCommitAt(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: commitat <date> <message>")
	}
	ts.Check(ts.Exec("git", "add", "-A"))
	ts.Setenv("GIT_AUTHOR_DATE", args[0])
	ts.Setenv("GIT_COMMITTER_DATE", args[0])
	err := ts.Exec("git", "commit", "-q", "--allow-empty", "-m", args[1])
	ts.Setenv("GIT_AUTHOR_DATE", "")
	ts.Setenv("GIT_COMMITTER_DATE", "")
	if neg != (err != nil) {
		ts.Fatalf("commitat: %v", err)
	}
}

// cmdWaitFor waits up to 20 s for a file matching a glob to appear (and,
// with a regexp, to contain a match), for work lore starts in the
// background: waitfor <glob> [regexp].
func cmdWaitFor(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 || neg {
		ts.Fatalf("usage: waitfor <glob> [regexp]")
	}
	var re *regexp.Regexp
	if len(args) == 2 {
		re = regexp.MustCompile(args[1])
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m, _ := filepath.Glob(ts.MkAbs(args[0]))
		for _, f := range m {
			if data, err := os.ReadFile(f); re == nil || err == nil && re.Match(data) {
				return
			}
		}
	}
	ts.Fatalf("waitfor: nothing matches %s %v after 20s", args[0], args[1:])
}
