package app

import (
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Indexed is the compact knowledge index and the files that could not be
// read for it.
type Indexed struct {
	compile.Index
	Skipped []error
}

// IndexOptions bounds the index.
type IndexOptions struct {
	Budget int // bytes
}

// Index compiles the store in memory and renders its index within the
// budget, with the same function the SessionStart block uses.
func Index(s *gitstore.Store, o IndexOptions) (Indexed, error) {
	sc, err := LoadScopes(s)
	if err != nil {
		return Indexed{}, err
	}
	in, errs := CompileInput(s, sc)
	_, rep := compile.Compile(in)
	idx := compile.RenderIndex(rep.Index, o.Budget)
	if idx.Shown == nil {
		idx.Shown = []compile.IndexEntry{}
	}
	return Indexed{Index: idx, Skipped: errs}, nil
}
