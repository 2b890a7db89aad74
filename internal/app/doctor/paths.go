package doctor

import (
	"os"
	"path/filepath"
	"strings"
)

// pathForms are a path with its symbolic links resolved and as given: the
// agents look a folder up under both.
func pathForms(p string) []string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil || real == p {
		return []string{p}
	}
	return []string{real, p}
}

// trustKeys are the paths under which an agent may have recorded its trust
// in the work tree at root: root itself, then, for a linked worktree, the
// main checkout (Codex trusts a repository's worktrees with it).
func trustKeys(root string) []string {
	keys := pathForms(root)
	if main := mainCheckout(root); main != "" {
		keys = append(keys, pathForms(main)...)
	}
	return keys
}

// mainCheckout is the main work tree of a linked worktree at root (whose
// .git is a file naming its git dir), "" otherwise.
func mainCheckout(root string) string {
	data, err := os.ReadFile(filepath.Join(root, ".git"))
	if err != nil {
		return "" // a folder (a main checkout) or none
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir = abs(root, strings.TrimSpace(gitdir))
	common, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return ""
	}
	dir := abs(gitdir, strings.TrimSpace(string(common)))
	if filepath.Base(dir) != ".git" {
		return "" // a bare repository has no main work tree
	}
	return filepath.Dir(dir)
}

func abs(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}
