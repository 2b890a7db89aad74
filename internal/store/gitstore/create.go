package gitstore

import (
	"fmt"
	"os"
	"path"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
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
	it, data, err := s.newItem(kind, ref, build, nil)
	if err != nil {
		return "", nil, err
	}
	if err := s.WriteLocked(it.Path, data); err != nil {
		return "", nil, err
	}
	return it.Path, it, nil
}

// CreateDraftLocked creates a draft that a scan or an observation
// proposes, for a caller that holds the store lock: its ref is the next
// one of kind ("" for lessons), its file is named by ref and the finding's
// title (which names it even where the item's own title is a stand-in or
// clipped) and free on disk, and it is written as built, unvalidated: a
// draft carries what a transcript said, review and lint report what it
// lacks, and one bad glob in a session does not stop a scan. It returns
// the new file's repo-relative path and bytes.
func (s *Store) CreateDraftLocked(kind, title string, build func(ref string) ([]byte, error)) (string, []byte, error) {
	ref, err := s.freeRef(kind, "")
	if err != nil {
		return "", nil, err
	}
	data, err := build(ref)
	if err != nil {
		return "", nil, err
	}
	rel := s.freeName(lorepath.InDir(markdown.Folder(kind)), markdown.FileName(ref, title), nil)
	if err := s.WriteLocked(rel, data); err != nil {
		return "", nil, err
	}
	return rel, data, nil
}

// newItem builds the item of kind with ref, parses and validates it, and
// names its file by ref and title, free on disk and of the planned names
// (a dry run's): what Create writes and what a Recorder reports.
func (s *Store) newItem(kind, ref string, build func(ref string) ([]byte, error), planned map[string]bool) (*markdown.Item, []byte, error) {
	data, err := build(ref)
	if err != nil {
		return nil, nil, err
	}
	folder := lorepath.InDir(markdown.Folder(kind))
	it, err := markdown.Parse(path.Join(folder, markdown.FileName(ref, titleOf(data))), data)
	if err != nil {
		return nil, nil, err
	}
	if errs := markdown.Validate(it); len(errs) > 0 {
		return nil, nil, errs[0]
	}
	if it.Kind != kind {
		return nil, nil, fmt.Errorf("%s:%d: kind: the item says %q, not %q", it.Path, it.KeyLine("kind"), it.Kind, kind)
	}
	it.Path = s.freeName(folder, markdown.FileName(it.Ref, it.Title), planned)
	return it, data, nil
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
		taken, err := s.refsInUse(kind)
		if err != nil {
			return "", err
		}
		if !taken[n] {
			return markdown.FormatRef(kind, n), nil
		}
	}
	return s.NextRef(kind)
}

// refsInUse is the set of PF-/ADR- numbers of kind, by file name or ref
// key (a Recorder names from it the numbers it would take).
func (s *Store) refsInUse(kind string) (map[int]bool, error) {
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

// freeName is markdown.FreeName in folder: free on disk and of the names
// in planned (those a Recorder handed out).
func (s *Store) freeName(folder, name string, planned map[string]bool) string {
	return markdown.FreeName(folder, name, func(rel string) bool {
		_, err := os.Lstat(s.Path(rel))
		return !os.IsNotExist(err) || planned[rel]
	})
}
