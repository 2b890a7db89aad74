package interop

import (
	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/markdown"
)

// dryRefs names the PF-/ADR- number each draft of a dry run would take,
// as the store's CreateLocked decides it: the wanted number when it is
// free, else the one after the highest in use, counting the numbers the
// drafts before it took.
type dryRefs struct {
	s     *gitstore.Store
	taken map[string]map[int]bool // by kind, read from the store once
}

func (r *dryRefs) take(kind, want string) (string, error) {
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
