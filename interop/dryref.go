package interop

import (
	"path"

	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/markdown"
)

// dryRun names the file each draft of a dry run would be written to, as
// the store's CreateLocked decides it: the wanted PF-/ADR- number when it
// is free, else the one after the highest in use; the file name, else
// name-2, -3…; both counting what the drafts before it took.
type dryRun struct {
	s     *gitstore.Store
	taken map[string]map[int]bool // numbers by kind, read from the store once
	names map[string]bool         // paths handed out
}

func newDryRun(s *gitstore.Store) *dryRun {
	return &dryRun{s: s, taken: map[string]map[int]bool{}, names: map[string]bool{}}
}

// path is the store-relative path the draft's item would get.
func (r *dryRun) path(kind, want, title string) (string, error) {
	ref, err := r.ref(kind, want)
	if err != nil {
		return "", err
	}
	rel := r.s.FreeName(path.Join(gitstore.DirName, markdown.Folder(kind)), markdown.FileName(ref, title), r.names)
	r.names[rel] = true
	return rel, nil
}

func (r *dryRun) ref(kind, want string) (string, error) {
	if markdown.RefPrefix(kind) == "" {
		return "", nil
	}
	taken, ok := r.taken[kind]
	if !ok {
		var err error
		if taken, err = r.s.RefsInUse(kind); err != nil {
			return "", err
		}
		r.taken[kind] = taken
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
