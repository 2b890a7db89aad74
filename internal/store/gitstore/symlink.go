package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// ErrSymlink is wrapped by every write lore refuses because the path goes
// through a symbolic link inside the work tree.
var ErrSymlink = errors.New("is a symbolic link: lore never writes through a link inside the work tree; remove the link")

// roots are the work trees this process opened (Open registers them).
// Only the root git found is trusted: a walk up from the file to the
// nearest .git would take a linked folder whose target holds a .git (a
// sibling checkout) for the work tree.
var roots struct {
	sync.Mutex
	list []string
}

func registerRoot(root string) {
	roots.Lock()
	defer roots.Unlock()
	if !slices.Contains(roots.list, root) {
		roots.list = append(roots.list, root)
	}
}

// openedRoot is the longest opened work tree that holds abs, or "".
func openedRoot(abs string) string {
	roots.Lock()
	defer roots.Unlock()
	best := ""
	for _, r := range roots.list {
		if rel, err := filepath.Rel(r, abs); err == nil && filepath.IsLocal(rel) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// NoSymlink refuses a write to path when the path itself, or any folder
// between it and the work tree that holds it, is a symbolic link: a
// committed `.lore/cache -> /somewhere` (or a linked item, folder or
// learnings file) would otherwise send lore's writes out of the
// repository. Links above the work tree root (a home folder on another
// disk) are the user's own and fine. The work tree is one Open found in
// this process; a path in none is not checked (every writer opens one).
func NoSymlink(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	root := openedRoot(abs)
	if root == "" {
		return nil
	}
	link := ""
	for p := abs; p != root; p = filepath.Dir(p) {
		if isLink(p) {
			link = p // keep walking: the outermost link is the one to remove
		}
	}
	if link == "" {
		return nil
	}
	rel, _ := filepath.Rel(root, link)
	return fmt.Errorf("gitstore: write %s: %s %w", path, filepath.ToSlash(rel), ErrSymlink)
}

func isLink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// Links lists, repo-relative, the symbolic links lore would not write
// through: every link under .lore (the folder itself included) and along
// the given repo-relative paths (the configured learnings file, say).
func (s *Store) Links(paths ...string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(abs string) {
		if rel := s.Rel(abs); !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	if err := walkLinks(s.Dir, add); err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	for _, rel := range paths {
		if p := s.firstLink(rel); p != "" {
			add(p)
		}
	}
	return out, nil
}

// walkLinks hands every link under dir (dir itself included) to add; a
// missing dir has none.
func walkLinks(dir string, add func(string)) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return nil
		}
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			add(p)
		}
		return nil
	})
}

// firstLink is the outermost link along a repo-relative path ("" for none).
func (s *Store) firstLink(rel string) string {
	p := s.Root
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/") {
		p = filepath.Join(p, part)
		if isLink(p) {
			return p
		}
	}
	return ""
}
