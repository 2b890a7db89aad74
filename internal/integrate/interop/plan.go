package interop

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ImportedKey is the frontmatter key that records where an imported item
// came from ("<source>:<key>"); a second import skips what it names.
const ImportedKey = "imported"

// Draft is one item an import would create, for review.
type Draft struct {
	Key        string // stable identity in its source, unique per source kind
	From       string // file (and line) it came from, for the report
	Ref        string // the PF-/ADR- number to keep when it is free
	Supersedes []string
	ItemID     string // the lore item it was exported from, if any
	Spec       markdown.Spec
}

// Note is what could not be carried over faithfully, and why.
type Note struct {
	From, Title, Msg string
}

// Plan is what an import found: drafts and notes, in source order.
type Plan struct {
	Source string // the source kind: lessons-learned, cursor, adr, ...
	Drafts []Draft
	Notes  []Note
}

func (p *Plan) note(from, title, format string, args ...any) {
	p.Notes = append(p.Notes, Note{From: from, Title: title, Msg: fmt.Sprintf(format, args...)})
}

// Result is what Apply did (or, on a dry run, would do).
type Result struct {
	Created []Created
	Present int    // drafts an earlier import already created
	Notes   []Note // what fit changed, or why it left a draft out
}

// Created is one new item.
type Created struct {
	Path, Key, Title string
	Delivery         string // once promoted: before-call, session-start or never
}

// Apply creates every draft not imported before, as `lore add` creates an
// item, under one hold of the store lock (numbered there). A draft's
// Supersedes name keys of the same plan; they become the ids of those
// items. On a dry run a Recorder stands in for the store: nothing is
// written, and Created lists what would be.
func Apply(s *gitstore.Store, p Plan, dryRun bool, now time.Time) (Result, error) {
	if dryRun {
		// No lock either: taking it sweeps stray temp files, a write.
		return apply(s, gitstore.NewRecorder(s), p, now)
	}
	// One lock over reading the imported keys and creating what is
	// missing: two imports of one source in parallel create each item once.
	unlock, err := s.Lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	return apply(s, s, p, now)
}

// apply creates the drafts of p that s does not hold yet through w.
func apply(s *gitstore.Store, w gitstore.Writer, p Plan, now time.Time) (Result, error) {
	ids, err := importedIDs(s)
	if err != nil {
		return Result{}, err
	}
	chk := checkerOf(s)
	var res Result
	for _, d := range numberedFirst(p.Drafts) {
		key := p.Source + ":" + d.Key
		if imported(ids, key, d) {
			res.Present++
			continue
		}
		id := ulid.MustNew(ulid.Timestamp(now), ulid.DefaultEntropy()).String()
		spec, delivery, notes, ok := chk.ready(p.spec(d, key, ids), id, now, d.From)
		res.Notes = append(res.Notes, notes...)
		if !ok {
			continue
		}
		rel, it, err := w.CreateLocked(spec.Kind, d.Ref, func(ref string) ([]byte, error) {
			return spec.Compose(id, ref, now)
		})
		if err != nil {
			return res, fmt.Errorf("import %s: %w", d.From, err)
		}
		ids[key] = it.ID
		res.Created = append(res.Created, Created{Path: rel, Key: key, Title: spec.Title, Delivery: delivery})
	}
	return res, nil
}

// numberedFirst orders the drafts for creation: those whose ref keeps
// its number first, then those with number 0 (MADR's 0000-, a 00-),
// which lore's refs do not have and which would otherwise take the next
// free number, 1, and push every later record off its own.
func numberedFirst(drafts []Draft) []Draft {
	out := slices.Clone(drafts)
	slices.SortStableFunc(out, func(a, b Draft) int {
		return cmpBool(zeroRef(a), zeroRef(b))
	})
	return out
}

func zeroRef(d Draft) bool { return d.Ref != "" && markdown.RefNumber(d.Ref) == 0 }

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// imported reports whether an earlier import created the draft: an item
// has its key, or it is the lore item the draft was exported from.
func imported(ids map[string]string, key string, d Draft) bool {
	_, ok := ids[key]
	return ok || d.ItemID != "" && ids["id:"+d.ItemID] != ""
}

// spec is the item the draft becomes: its spec with the imported key, and
// the ids of the items it supersedes that ids knows.
func (p Plan) spec(d Draft, key string, ids map[string]string) markdown.Spec {
	spec := d.Spec
	spec.Extra = append(spec.Extra, markdown.Field{Key: ImportedKey, Value: key})
	for _, k := range d.Supersedes {
		if id := ids[p.Source+":"+k]; id != "" {
			spec.Supersedes = append(spec.Supersedes, id)
		}
	}
	return spec
}

// importedIDs maps the imported key of every item in the store to its id.
func importedIDs(s *gitstore.Store) (map[string]string, error) {
	items, errs := s.Load()
	if len(errs) > 0 {
		return nil, fmt.Errorf("import: fix the store first (an unreadable item could be an earlier import): %w", errs[0])
	}
	ids := map[string]string{}
	for _, it := range items {
		ids["id:"+it.ID] = it.ID
		if n := it.Node(ImportedKey); n != nil && n.Value != "" {
			ids[n.Value] = it.ID
		}
	}
	return ids, nil
}

// Import reads a source (a kind, or a path relative to dir) and applies
// its plan to the store.
func Import(s *gitstore.Store, dir, arg string, dryRun bool, now time.Time) (Plan, Result, error) {
	if !slices.Contains(Sources, arg) && !filepath.IsAbs(arg) {
		if abs, err := filepath.Abs(filepath.Join(dir, arg)); err == nil {
			arg = abs
		}
	}
	p, err := ReadSource(s.Root, arg)
	if err != nil {
		return p, Result{}, err
	}
	res, err := Apply(s, p, dryRun, now)
	return p, res, err
}
