package gitstore

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/markdown"
)

// Create writes a new item of kind under the store lock: build gets the
// ref the item will have (decided under the lock: want when that number is
// free, else the next one; "" for lessons) and returns the file. The file
// is parsed and validated before anything is written, and named by its ref
// and title (-2, -3, ... when the name is taken). It returns the new file's
// repo-relative path and the item.
func (s *Store) Create(kind, want string, build func(ref string) ([]byte, error)) (string, *markdown.Item, error) {
	unlock, err := s.Lock()
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	return s.CreateLocked(kind, want, build)
}

// CreateLocked is Create for a caller that holds the store lock (an import
// that must read which items exist and create the missing ones in one
// window, or two parallel imports would both create them).
func (s *Store) CreateLocked(kind, want string, build func(ref string) ([]byte, error)) (string, *markdown.Item, error) {
	ref, err := s.freeRef(kind, want)
	if err != nil {
		return "", nil, err
	}
	data, err := build(ref)
	if err != nil {
		return "", nil, err
	}
	folder := lorepath.InDir(markdown.Folder(kind))
	it, err := markdown.Parse(path.Join(folder, markdown.FileName(ref, titleOf(data))), data)
	if err != nil {
		return "", nil, err
	}
	if errs := markdown.Validate(it); len(errs) > 0 {
		return "", nil, errs[0]
	}
	if it.Kind != kind {
		return "", nil, fmt.Errorf("%s:%d: kind: the item says %q, not %q", it.Path, it.KeyLine("kind"), it.Kind, kind)
	}
	rel := s.freeName(folder, markdown.FileName(it.Ref, it.Title))
	it.Path = rel
	if err := s.WriteLocked(rel, data); err != nil {
		return "", nil, err
	}
	return rel, it, nil
}

// titleOf reads the title for the provisional name in parse messages.
func titleOf(data []byte) string {
	if it, err := markdown.Parse("", data); err == nil {
		return it.Title
	}
	return ""
}

// freeRef is want when its number is free for kind, else NextRef.
func (s *Store) freeRef(kind, want string) (string, error) {
	if markdown.RefPrefix(kind) == "" {
		return "", nil
	}
	if n := markdown.RefNumber(want); n > 0 {
		taken, err := s.RefsInUse(kind)
		if err != nil {
			return "", err
		}
		if !taken[n] {
			return markdown.FormatRef(kind, n), nil
		}
	}
	return s.NextRef(kind)
}

// RefsInUse is the set of PF-/ADR- numbers of kind, by file name or ref
// key (an import's dry run names from it the numbers it would take).
func (s *Store) RefsInUse(kind string) (map[int]bool, error) {
	files, err := s.ItemFiles()
	if err != nil {
		return nil, err
	}
	taken := map[int]bool{}
	for _, rel := range files {
		if path.Base(path.Dir(rel)) != markdown.Folder(kind) {
			continue
		}
		taken[markdown.RefNumber(path.Base(rel))] = true
		if it, err := s.LoadFile(rel); err == nil {
			taken[markdown.RefNumber(it.Ref)] = true
		}
	}
	return taken, nil
}

// freeName appends -2, -3, ... to the stem until the name is free.
func (s *Store) freeName(folder, name string) string { return s.FreeName(folder, name, nil) }

// FreeName is freeName past the names in planned too (those a dry run
// already handed out), so that a dry run names the files an import writes.
func (s *Store) FreeName(folder, name string, planned map[string]bool) string {
	stem := strings.TrimSuffix(name, ".md")
	rel := path.Join(folder, name)
	for i := 2; ; i++ {
		if _, err := os.Lstat(s.Path(rel)); os.IsNotExist(err) && !planned[rel] {
			return rel
		}
		rel = path.Join(folder, fmt.Sprintf("%s-%d.md", stem, i))
	}
}
