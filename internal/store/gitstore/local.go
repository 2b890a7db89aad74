package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/lore-agents/lore/internal/lorepath"
)

// Local returns the repo-relative path of name in .lore/local. State an
// older lore kept in the cache under the same name is moved there first,
// and .lore/.gitignore gets its local/ line if it lacks one.
func (s *Store) Local(name string) (string, error) {
	rel := lorepath.InLocal(name)
	if err := s.ignoreLocal(); err != nil {
		return rel, err
	}
	if _, err := os.Lstat(s.Path(rel)); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return rel, nil
	}
	old := lorepath.InCache(name)
	if _, err := os.Lstat(s.Path(old)); err != nil {
		return rel, nil
	}
	// A rename: a second process racing this one finds nothing left to move.
	if err := s.RenameLocked(old, rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rel, err
	}
	return rel, nil
}

// ignoresLocal reports whether a .gitignore has a line for local/.
func ignoresLocal(data []byte) bool {
	for _, l := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(l); t == "local/" || t == "local" || t == "/local/" {
			return true
		}
	}
	return false
}

// ignoreLocal adds "local/" to an existing .lore/.gitignore once (lore
// init writes it for new stores), so this machine's state is never staged.
func (s *Store) ignoreLocal() error {
	data, err := os.ReadFile(s.Path(lorepath.Gitignore))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	if ignoresLocal(data) {
		return nil
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return s.WriteLocked(lorepath.Gitignore, append(data, "# This machine's state: never committed.\nlocal/\n"...))
}
