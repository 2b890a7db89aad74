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
	"path/filepath"
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
	WriteFile(r.t, r.Path(rel), content)
}

// WriteFile writes content to the file at path (outside a repository
// too: a user's store, a transcript), creating its folders.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
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

// Hermetic runs a package's tests (a TestMain's m.Run) in an environment
// of their own, so that nothing on the developer's machine changes an
// answer (docs/architecture.md, Tests):
//   - TMPDIR and XDG_RUNTIME_DIR are a fresh folder, removed after (the
//     hooks' session state and every t.TempDir stay out of the machine's
//     folders), and HOME is in it, with the XDG config, cache, data and
//     state folders under it: no global store, config or cache is read;
//   - git reads no system config and an empty global one
//     (GIT_CONFIG_GLOBAL, which `git config --global` then writes), and
//     commits as a fixed identity;
//   - PATH leaves out the folders that hold a lore or lore-hook: an
//     installed lore would answer what tests expect unanswered (tests that
//     want one put their own first);
//   - no GIT_ or LORE_ variable of the shell gets through (GIT_DIR from a
//     git hook the tests run under, LORE_DISABLE), nor VISUAL; EDITOR is
//     false, so an editor opened by mistake fails instead of waiting;
//   - Go keeps its own build and module caches and settings (GOCACHE,
//     GOPATH, GOENV as they were): the tests that build binaries do not
//     start from empty ones.
func Hermetic(run func() int) int {
	dir, err := os.MkdirTemp("", "lore-test-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	defer restoreEnv(os.Environ())
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		panic(err)
	}
	env := goEnv()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "LORE_") {
			env[k] = ""
		}
	}
	for k, v := range map[string]string{
		"TMPDIR": dir, "XDG_RUNTIME_DIR": dir, "HOME": home,
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
		"XDG_DATA_HOME": filepath.Join(home, ".local", "share"), "XDG_STATE_HOME": filepath.Join(home, ".local", "state"),
		"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": filepath.Join(home, ".gitconfig"),
		"GIT_AUTHOR_NAME": "Lore Test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "Lore Test", "GIT_COMMITTER_EMAIL": "test@example.com",
		"PATH": withoutLore(os.Getenv("PATH")), "VISUAL": "", "EDITOR": "false",
	} {
		env[k] = v
	}
	for k, v := range env {
		if v == "" {
			err = os.Unsetenv(k)
		} else {
			err = os.Setenv(k, v)
		}
		if err != nil {
			panic(err)
		}
	}
	return run()
}

// restoreEnv puts back the environment saved, as os.Environ gave it.
func restoreEnv(saved []string) {
	os.Clearenv()
	for _, kv := range saved {
		k, v, _ := strings.Cut(kv, "=")
		_ = os.Setenv(k, v)
	}
}

// goEnv is where Go keeps its build cache, modules and settings, as they
// are before HOME moves (each is derived from HOME when unset).
func goEnv() map[string]string {
	env := map[string]string{}
	if v := os.Getenv("GOCACHE"); v != "" {
		env["GOCACHE"] = v
	} else if d, err := os.UserCacheDir(); err == nil {
		env["GOCACHE"] = filepath.Join(d, "go-build")
	}
	if v := os.Getenv("GOENV"); v != "" {
		env["GOENV"] = v
	} else if d, err := os.UserConfigDir(); err == nil {
		env["GOENV"] = filepath.Join(d, "go", "env")
	}
	if v := os.Getenv("GOPATH"); v != "" {
		env["GOPATH"] = v
	} else if h, err := os.UserHomeDir(); err == nil {
		env["GOPATH"] = filepath.Join(h, "go")
	}
	return env
}

// withoutLore is the PATH list without the folders that hold a lore or a
// lore-hook.
func withoutLore(path string) string {
	var kept []string
	for _, dir := range filepath.SplitList(path) {
		if !exists(filepath.Join(dir, "lore")) && !exists(filepath.Join(dir, "lore-hook")) {
			kept = append(kept, dir)
		}
	}
	return strings.Join(kept, string(os.PathListSeparator))
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
