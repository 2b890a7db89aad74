package app

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/integrate/interop"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ImportOptions names what to import.
type ImportOptions struct {
	Source string // a source kind, or a file or folder of one (relative to Dir)
	Dir    string
	DryRun bool // only plan: Result lists what would be created
}

// Imported is an import's plan (drafts, and what could not be carried
// over) and what applying it created.
type Imported struct {
	Plan   interop.Plan
	Result interop.Result
}

// Import brings in other tools' knowledge files as drafts, once: a second
// run finds every draft already in the store.
func Import(s *gitstore.Store, o ImportOptions) (Imported, error) {
	p, res, err := interop.Import(s, o.Dir, o.Source, o.DryRun, time.Now())
	return Imported{p, res}, err
}

// ExportOptions names the export target.
type ExportOptions struct {
	Target string // agents, claude, cursor, ... (any case)
	Check  bool   // only compare: Changes lists the files out of date
}

// Exported is what an export changed (or, with Check, would change), and
// the items it could not load (reported, and left out).
type Exported struct {
	interop.Export
	Skipped []error
}

// Export writes the store's active items, and those of the organisation
// stores the project's own config names, into the files an agent reads.
// The user's items and sources stay out: the files are committed, and a
// teammate's export (or CI's, after lore sync) must give the same bytes.
// Skipped is set even when the export fails.
func Export(s *gitstore.Store, o ExportOptions) (Exported, error) {
	org, err := teamItems(s)
	if err != nil {
		return Exported{}, err
	}
	e, errs, err := interop.Run(s, strings.ToLower(o.Target), o.Check, org)
	return Exported{e, errs}, err
}

// teamItems are the items of the org stores the project's config names,
// less those the project's config disables and those whose id the
// project has. The user's disable list is the user's alone, like the
// user's sources: it never changes a committed file. A source
// never fetched on this machine is an error: an export without its items
// would remove them from the committed files, and a check would call
// them out of date (docs/design.md, Scopes and organisation stores).
func teamItems(s *gitstore.Store) ([]*markdown.Item, error) {
	own, err := s.Config()
	if err != nil {
		return nil, err
	}
	sc, err := LoadScopes(s)
	if err != nil {
		return nil, err
	}
	project, _ := s.Load()
	skip := map[string]bool{}
	for _, it := range project {
		skip[it.ID] = true
	}
	for _, id := range own.Disable {
		skip[id] = true
	}
	var out []*markdown.Item
	for _, st := range sc.Stores {
		if st.Scope != compile.Org || !slices.ContainsFunc(own.Sources, func(c config.Source) bool { return c.Name == st.Name }) {
			continue
		}
		if st.Dir == "" {
			return nil, fmt.Errorf("source %s was never fetched here, and the export would leave its items out: run lore sync first", st.Name)
		}
		items, _ := compile.LoadDir(st.Dir, st.Name) // lint reports what cannot be read
		for _, it := range items {
			if !skip[it.ID] && (it.Status == "active" || it.Status == "accepted") {
				skip[it.ID] = true
				out = append(out, it)
			}
		}
	}
	return out, nil
}
