package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// LocalRel is this machine's state: scan bookmarks, the observation log
// and render manifest (unless shared), signals. It is gitignored like the
// cache, but unlike the cache it cannot be rebuilt, so it is kept apart
// from what "delete .lore/cache" may throw away.
const LocalRel = DirName + "/local"

// cacheRel is the gitignored folder of derived files.
const cacheRel = DirName + "/cache"

// Local returns the repo-relative path of name in .lore/local. State an
// older lore kept in the cache under the same name is moved there first,
// and .lore/.gitignore gets its local/ line if it lacks one.
func (s *Store) Local(name string) (string, error) {
	rel := path.Join(LocalRel, name)
	if err := s.ignoreLocal(); err != nil {
		return rel, err
	}
	if _, err := os.Lstat(s.Path(rel)); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return rel, nil
	}
	old := s.Path(path.Join(cacheRel, name))
	if _, err := os.Lstat(old); err != nil {
		return rel, nil
	}
	if err := os.MkdirAll(s.Path(LocalRel), 0o755); err != nil {
		return rel, fmt.Errorf("gitstore: %w", err)
	}
	// A rename: a second process racing this one finds nothing left to move.
	if err := os.Rename(old, s.Path(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rel, fmt.Errorf("gitstore: move %s to %s: %w", path.Join(cacheRel, name), rel, err)
	}
	return rel, nil
}

// ignoreLocal adds "local/" to an existing .lore/.gitignore once (lore
// init writes it for new stores), so this machine's state is never staged.
func (s *Store) ignoreLocal() error {
	p := s.Path(DirName + "/.gitignore")
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(l); t == "local/" || t == "local" || t == "/local/" {
			return nil
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return WriteAtomic(p, append(data, "# This machine's state: never committed.\nlocal/\n"...))
}
