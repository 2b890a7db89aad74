package gitstore_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/store/gitstore"
)

func hpGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestHooksPathMatchesGit checks HooksPath and GitDirs against the git CLI
// (rev-parse --git-path hooks, --absolute-git-dir, --git-common-dir) for the
// default folder, core.hooksPath set locally (relative, absolute, ~/) or
// globally, and a linked worktree.
func TestHooksPathMatchesGit(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	hpMust(t, os.MkdirAll(home, 0o755))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_WORK_TREE"} {
		t.Setenv(k, "")
		hpMust(t, os.Unsetenv(k))
	}
	repo := filepath.Join(root, "repo")
	hpMust(t, os.MkdirAll(repo, 0o755))
	hpGit(t, repo, "init", "-q", "-b", "main")
	hpGit(t, repo, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x")
	wt := filepath.Join(root, "wt")
	hpGit(t, repo, "worktree", "add", "-q", "-b", "w", wt)

	check := func(name, dir, wantSource string) {
		t.Helper()
		s, err := gitstore.Open(dir)
		hpMust(t, err)
		hp, err := s.HooksPath()
		hpMust(t, err)
		want := hpGit(t, dir, "rev-parse", "--git-path", "hooks")
		if !filepath.IsAbs(want) {
			want = filepath.Join(dir, want)
		}
		if hp.Dir != filepath.Clean(want) {
			t.Errorf("%s: HooksPath %q, git says %q", name, hp.Dir, want)
		}
		if hp.Source != wantSource {
			t.Errorf("%s: source %q, want %q", name, hp.Source, wantSource)
		}
		gitDir, common, err := s.GitDirs()
		hpMust(t, err)
		if w := hpGit(t, dir, "rev-parse", "--absolute-git-dir"); gitDir != w {
			t.Errorf("%s: git dir %q, git says %q", name, gitDir, w)
		}
		wc := hpGit(t, dir, "rev-parse", "--git-common-dir")
		if !filepath.IsAbs(wc) {
			wc = filepath.Join(dir, wc)
		}
		if common != filepath.Clean(wc) {
			t.Errorf("%s: common dir %q, git says %q", name, common, wc)
		}
	}
	local := filepath.Join(repo, ".git", "config")
	check("default", repo, "")
	check("default, linked worktree", wt, "")
	check("default, subfolder", hpMkdir(t, repo, "sub"), "")

	hpGit(t, repo, "config", "core.hooksPath", ".githooks")
	check("relative", repo, local)
	check("relative, linked worktree", wt, local)

	hpGit(t, repo, "config", "core.hooksPath", filepath.Join(root, "abs"))
	check("absolute", repo, local)

	hpGit(t, repo, "config", "core.hooksPath", "~/hooks")
	check("home", repo, local)

	hpGit(t, repo, "config", "--unset", "core.hooksPath")
	global := filepath.Join(home, ".gitconfig")
	hpMust(t, os.WriteFile(global, []byte("[core]\n\thooksPath = "+filepath.Join(root, "global-hooks")+"\n"), 0o644))
	check("global", repo, global)
	hpGit(t, repo, "config", "core.hooksPath", "local-hooks")
	check("local over global", repo, local)
}

func hpMkdir(t *testing.T, elem ...string) string {
	t.Helper()
	p := filepath.Join(elem...)
	hpMust(t, os.MkdirAll(p, 0o755))
	return p
}

func hpMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
