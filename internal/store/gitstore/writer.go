package gitstore

import "github.com/lore-agents/lore/internal/knowledge/markdown"

// Writer is the writes a command's plan is applied through, by a caller
// that holds the store lock. The Store writes; a Recorder, swapped in for a
// dry run, writes nothing (chezmoi's dry-run System), so one function
// applies a plan either way.
type Writer interface {
	// CreateLocked creates a new item (Store.CreateLocked).
	CreateLocked(kind, want string, build func(ref string) ([]byte, error)) (string, *markdown.Item, error)
	// WriteLocked writes a repo-relative file (Store.WriteLocked).
	WriteLocked(rel string, data []byte) error
}

var (
	_ Writer = (*Store)(nil)
	_ Writer = (*Recorder)(nil)
)

// Recorder is the Writer of a dry run: it writes nothing and takes no lock,
// and names each item it is asked to create as CreateLocked would, counting
// what it recorded before (PF-/ADR- numbers and file names), so a dry run
// reports the files the real run writes.
type Recorder struct {
	s     *Store
	refs  map[string]map[int]bool // numbers in use by kind: the store's (read once) and those handed out
	paths map[string]bool         // files recorded
}

// NewRecorder returns a Recorder over the store s.
func NewRecorder(s *Store) *Recorder {
	return &Recorder{s: s, refs: map[string]map[int]bool{}, paths: map[string]bool{}}
}

// CreateLocked builds, checks and names the item as Store.CreateLocked
// does, and records its file instead of writing it.
func (r *Recorder) CreateLocked(kind, want string, build func(ref string) ([]byte, error)) (string, *markdown.Item, error) {
	ref, err := r.freeRef(kind, want)
	if err != nil {
		return "", nil, err
	}
	it, _, err := r.s.newItem(kind, ref, build, r.paths)
	if err != nil {
		return "", nil, err
	}
	r.paths[it.Path] = true
	return it.Path, it, nil
}

// WriteLocked records the file instead of writing it.
func (r *Recorder) WriteLocked(rel string, _ []byte) error {
	r.paths[rel] = true
	return nil
}

// freeRef is Store.freeRef over the numbers the store and this recorder
// use: want when its number is free, else the one after the highest.
func (r *Recorder) freeRef(kind, want string) (string, error) {
	if markdown.RefPrefix(kind) == "" {
		return "", nil
	}
	taken, ok := r.refs[kind]
	if !ok {
		var err error
		if taken, err = r.s.refsInUse(kind); err != nil {
			return "", err
		}
		r.refs[kind] = taken
	}
	n := markdown.RefNumber(want)
	if n <= 0 || taken[n] {
		n = 0
		for k := range taken {
			n = max(n, k)
		}
		n++
	}
	taken[n] = true
	return markdown.FormatRef(kind, n), nil
}
