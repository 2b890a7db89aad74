package gitstore

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/lore-agents/lore/internal/filewrite"
	"github.com/lore-agents/lore/internal/lorepath"
)

// The calls cache (docs/design.md, Evidence of effect) is one file per
// transcript in .lore/cache/calls/, named by a hash of the transcript's
// path: the file's first line is its bookmark, the rest its calls. Each
// file is replaced whole, so its bookmark and calls never disagree. It
// is derived: deleted, it is rebuilt from the transcripts.

// CallsFile is the name of the calls cache file of a transcript (its
// absolute path).
func CallsFile(transcript string) string {
	sum := sha1.Sum([]byte(transcript))
	return hex.EncodeToString(sum[:8]) + ".jsonl"
}

// ReadCalls returns the calls cache files by name (none: an empty map).
func (s *Store) ReadCalls() (map[string][]byte, error) {
	dir := s.Path(lorepath.Calls)
	if err := NoSymlink(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string][]byte{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	out := make(map[string][]byte, len(entries))
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue // temp files of a write cut short
		}
		data, err := os.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("gitstore: %w", err)
		}
		out[e.Name()] = data
	}
	return out, nil
}

// cacheOpts write the calls cache: atomic replaces without fsync (a cut
// leaves the old file or the new one; lost, it is read again).
var cacheOpts = filewrite.Options{Step: step}

// WriteCalls replaces the named calls cache files, under the store lock.
func (s *Store) WriteCalls(files map[string][]byte) error {
	if len(files) == 0 {
		return nil
	}
	if err := s.MkdirAll(lorepath.Calls); err != nil {
		return err
	}
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	for name, data := range files {
		if path.Base(name) != name || !strings.HasSuffix(name, ".jsonl") {
			return fmt.Errorf("gitstore: calls cache: bad file name %q", name)
		}
		p := s.Path(lorepath.Calls + "/" + name)
		if err := NoSymlink(p); err != nil {
			return err
		}
		if err := filewrite.Replace(p, data, cacheOpts); err != nil {
			return fmt.Errorf("gitstore: %w", err)
		}
	}
	return nil
}
