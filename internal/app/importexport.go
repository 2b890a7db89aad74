package app

import (
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/integrate/interop"
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

// Export writes the store's active items into the files an agent reads.
// Skipped is set even when the export fails.
func Export(s *gitstore.Store, o ExportOptions) (Exported, error) {
	e, errs, err := interop.Run(s, strings.ToLower(o.Target), o.Check)
	return Exported{e, errs}, err
}
