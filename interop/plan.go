package interop

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/markdown"
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
	Present int // drafts an earlier import already created
}

// Created is one new item.
type Created struct {
	Path, Key, Title string
}

// Apply creates every draft not imported before, as `lore add` creates an
// item (under the store lock, numbered there). A draft's Supersedes name
// keys of the same plan; they become the ids of those items. On a dry run
// nothing is written and Created lists what would be.
func Apply(s *gitstore.Store, p Plan, dryRun bool, now time.Time) (Result, error) {
	ids, err := importedIDs(s)
	if err != nil {
		return Result{}, err
	}
	var res Result
	for _, d := range p.Drafts {
		key := p.Source + ":" + d.Key
		if _, ok := ids[key]; ok {
			res.Present++
			continue
		}
		spec := d.Spec
		spec.Extra = append(spec.Extra, markdown.Field{Key: ImportedKey, Value: key})
		for _, k := range d.Supersedes {
			if id := ids[p.Source+":"+k]; id != "" {
				spec.Supersedes = append(spec.Supersedes, id)
			}
		}
		id := ulid.MustNew(ulid.Timestamp(now), ulid.DefaultEntropy()).String()
		if dryRun {
			ids[key] = id
			res.Created = append(res.Created, Created{Path: filepath.ToSlash(filepath.Join(gitstore.DirName, markdown.Folder(spec.Kind), markdown.FileName(d.Ref, spec.Title))), Key: key, Title: spec.Title})
			continue
		}
		rel, it, err := s.Create(spec.Kind, d.Ref, func(ref string) ([]byte, error) {
			return spec.Compose(id, ref, now)
		})
		if err != nil {
			return res, fmt.Errorf("import %s: %w", d.From, err)
		}
		ids[key] = it.ID
		res.Created = append(res.Created, Created{Path: rel, Key: key, Title: spec.Title})
	}
	return res, nil
}

// importedIDs maps the imported key of every item in the store to its id.
func importedIDs(s *gitstore.Store) (map[string]string, error) {
	items, errs := s.Load()
	if len(errs) > 0 {
		return nil, fmt.Errorf("import: fix the store first (an unreadable item could be an earlier import): %w", errs[0])
	}
	ids := map[string]string{}
	for _, it := range items {
		if n := it.Node(ImportedKey); n != nil && n.Value != "" {
			ids[n.Value] = it.ID
		}
	}
	return ids, nil
}
