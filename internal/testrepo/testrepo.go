// Package testrepo builds throwaway git repositories for tests: a work tree
// in the test's temporary folder, git run with no system or global
// configuration and a fixed identity, files written and committed at fixed
// dates, and the store opened on it. Only tests import it (layers_test.go).
//
// gitstore's own internal tests cannot import it (testrepo imports
// gitstore); they keep their one helper.
package testrepo

import (
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Env is the environment git runs with: this process's, without the
// system and global git configuration, with a fixed identity, dates
// printed in UTC, and merges that never open an editor. Tests that run
// another program (lore) in the repository start from it.
func Env() []string {
	return append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "TZ=UTC", "GIT_MERGE_AUTOEDIT=no",
		"GIT_AUTHOR_NAME=Lore Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Lore Test", "GIT_COMMITTER_EMAIL=test@example.com")
}

// Repo is a git work tree at Dir.
type Repo struct {
	Dir string
	t   testing.TB
}

// New is a fresh repository (branch main, no commits) in t.TempDir().
func New(t testing.TB) *Repo {
	t.Helper()
	r := &Repo{Dir: t.TempDir(), t: t}
	r.Git("init", "-q", "-b", "main")
	return r
}

// NewStore is the store opened on a fresh repository with an empty .lore/.
func NewStore(t testing.TB) *gitstore.Store {
	t.Helper()
	r := New(t)
	r.Mkdir(lorepath.Dir)
	return r.Store()
}

// Store opens the store on the repository.
func (r *Repo) Store() *gitstore.Store {
	r.t.Helper()
	s, err := gitstore.Open(r.Dir)
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

// Git runs git in the repository and returns its combined output; a
// failure ends the test.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	out, err := r.Try(nil, args...)
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Try runs git in the repository with env added to Env(), and returns its
// combined output and error for the caller to judge.
func (r *Repo) Try(env []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = append(Env(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Dated is the environment that fixes a commit's author and committer
// date (as git accepts it, e.g. 2026-01-05T23:30:00+09:00).
func Dated(date string) []string {
	return []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}
}

// Commit stages everything and commits it (even when nothing changed) with
// the author and committer date fixed to date, or now when date is "";
// extra goes to git commit. It returns the new HEAD.
func (r *Repo) Commit(date, msg string, extra ...string) string {
	r.t.Helper()
	r.Git("add", "-A")
	var env []string
	if date != "" {
		env = Dated(date)
	}
	args := append([]string{"commit", "-q", "--allow-empty", "-m", msg}, extra...)
	if out, err := r.Try(env, args...); err != nil {
		r.t.Fatalf("git commit: %v\n%s", err, out)
	}
	return strings.TrimSpace(r.Git("rev-parse", "HEAD"))
}

// Clone clones the repository into dir (git clone flags first, e.g.
// --depth 3) and returns the clone.
func (r *Repo) Clone(dir string, flags ...string) *Repo {
	r.t.Helper()
	r.Git(append(append([]string{"clone", "-q"}, flags...), "file://"+r.Dir, dir)...)
	return &Repo{Dir: dir, t: r.t}
}

// Path is rel (slash-separated) under the work tree.
func (r *Repo) Path(rel string) string { return lorepath.Abs(r.Dir, rel) }

// Mkdir creates the folder rel and its parents.
func (r *Repo) Mkdir(rel string) {
	r.t.Helper()
	if err := os.MkdirAll(r.Path(rel), 0o755); err != nil {
		r.t.Fatal(err)
	}
}

// Write writes content to rel, creating its folders.
func (r *Repo) Write(rel, content string) {
	r.t.Helper()
	r.Mkdir(path.Dir(rel))
	if err := os.WriteFile(r.Path(rel), []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// Read is the content of rel; a missing file ends the test.
func (r *Repo) Read(rel string) string {
	r.t.Helper()
	data, err := os.ReadFile(r.Path(rel))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// OwnTempDir runs a package's tests (a TestMain's m.Run) with TMPDIR and
// XDG_RUNTIME_DIR set to a fresh folder, removed after: the hooks' session
// state (which prefers XDG_RUNTIME_DIR) and every t.TempDir then stay out
// of the machine's folders, where they would pile up run after run.
func OwnTempDir(run func() int) int {
	dir, err := os.MkdirTemp("", "lore-test-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	for _, k := range []string{"TMPDIR", "XDG_RUNTIME_DIR"} {
		if err := os.Setenv(k, dir); err != nil {
			panic(err)
		}
	}
	return run()
}
