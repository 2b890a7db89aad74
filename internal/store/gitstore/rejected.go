package gitstore

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/lore-agents/lore/internal/lorepath"
)

// Rejected reads the rejected hashes (none when the file does not exist).
func (s *Store) Rejected() (map[string]bool, error) {
	out := map[string]bool{}
	data, err := os.ReadFile(s.Path(lorepath.Rejected))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("gitstore: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			out[f[0]] = true
		}
	}
	return out, nil
}

// RejectLocked appends hash (with a title for the reader) to lorepath.Rejected
// unless it is there already, and the union merge line to .gitattributes
// once: a reject killed between the two writes completes when run again.
// The caller holds the lock.
func (s *Store) RejectLocked(hash, title string) error {
	have, err := s.Rejected()
	if err != nil {
		return err
	}
	if !have[hash] {
		old, err := os.ReadFile(s.Path(lorepath.Rejected))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("gitstore: %w", err)
		}
		if len(old) > 0 && old[len(old)-1] != '\n' {
			old = append(old, '\n')
		}
		line := hash + " " + strings.Join(strings.Fields(title), " ") + "\n"
		if err := s.WriteLocked(lorepath.Rejected, append(old, line...)); err != nil {
			return err
		}
	}
	return s.EnsureUnion(lorepath.Rejected)
}

// EnsureUnion adds the merge=union line of rel (one of lore's append-only
// committed files: git then merges two branches' versions by keeping both
// sides' lines) to the work tree's .gitattributes once.
func (s *Store) EnsureUnion(rel string) error {
	_, err := s.EnsureUnionAdded(rel)
	return err
}

// EnsureUnionAdded is EnsureUnion, saying whether the line was added now.
func (s *Store) EnsureUnionAdded(rel string) (bool, error) {
	line := lorepath.UnionLine(rel)
	data, err := os.ReadFile(s.Path(lorepath.Gitattributes))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("gitstore: %w", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == line {
			return false, nil
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return true, s.WriteLocked(lorepath.Gitattributes, append(data, line+"\n"...))
}
