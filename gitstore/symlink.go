package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrSymlink is wrapped by every write lore refuses because the path goes
// through a symbolic link inside the work tree.
var ErrSymlink = errors.New("is a symbolic link: lore never writes through a link inside the work tree; remove the link")

// NoSymlink refuses a write to path when the path itself, or any folder
// between it and the work tree that holds it, is a symbolic link: a
// committed `.lore/cache -> /somewhere` (or a linked item, folder or
// learnings file) would otherwise send lore's writes out of the
// repository. Links above the work tree root (a home folder on another
// disk) are the user's own and fine; a path in no work tree is not checked.
func NoSymlink(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	link := ""
	for p := abs; ; {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			link = p // keep walking: the outermost link is the one to remove
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		if _, err := os.Lstat(filepath.Join(parent, ".git")); err == nil {
			if link == "" {
				return nil
			}
			rel, _ := filepath.Rel(parent, link)
			return fmt.Errorf("gitstore: write %s: %s %w", path, filepath.ToSlash(rel), ErrSymlink)
		}
		p = parent
	}
}

// Remove deletes a file of the work tree, refusing a path through a link
// (a linked folder would make it delete a file elsewhere).
func Remove(path string) error {
	if err := NoSymlink(filepath.Dir(path)); err != nil {
		return err
	}
	return os.Remove(path)
}

// OpenAppend opens a log file of the work tree for appending (and reading
// its tail), creating it and its folder, refusing a path through a link.
func OpenAppend(path string) (*os.File, error) {
	if err := NoSymlink(path); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	return f, nil
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
	err := filepath.WalkDir(s.Dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == s.Dir {
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
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	for _, rel := range paths {
		p := s.Root
		for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/") {
			p = filepath.Join(p, part)
			if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				add(p)
				break
			}
		}
	}
	return out, nil
}
