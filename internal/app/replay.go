package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/evidence"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ReplayOptions name what lore replay runs.
type ReplayOptions struct {
	Args        []string // ids, refs, slugs, or item files (a draft, a changed file); none: the whole store
	Dir         string   // the folder relative paths are read from
	Transcripts []string // transcript files or folders; nil: the configured scan paths
}

// ReplayResult is the report and what was read for it.
type ReplayResult struct {
	Report  evidence.ReplayReport
	Calls   CallsStats
	Skipped []error // item files that could not be parsed
}

// Replay runs the named items (drafts as if active) against the recorded
// calls of the transcripts: what each would have fired on.
func Replay(s *gitstore.Store, o ReplayOptions) (ReplayResult, error) {
	var r ReplayResult
	cfg, err := s.Config()
	if !config.Usable(err) { // a key with a problem is at its default: lint says so
		return r, err
	}
	all, skipped := s.Load()
	r.Skipped = skipped
	items, err := replayItems(s, all, o)
	if err != nil {
		return r, err
	}
	calls, cst, err := Calls(s, o.Transcripts)
	r.Calls = cst
	if err != nil {
		return r, err
	}
	r.Report, err = evidence.Replay(items, cfg, calls)
	return r, err
}

// replayItems is what the arguments name: an existing file is read as an
// item (it may be outside the store: a file of a pull request), anything
// else is resolved among the store's items.
func replayItems(s *gitstore.Store, all []*markdown.Item, o ReplayOptions) ([]*markdown.Item, error) {
	if len(o.Args) == 0 {
		return all, nil
	}
	var items []*markdown.Item
	for _, a := range o.Args {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(o.Dir, p)
		}
		data, err := os.ReadFile(p)
		switch {
		case err == nil:
			it, err := markdown.Parse(s.Rel(p), data)
			if err != nil {
				return nil, err
			}
			items = append(items, it)
			continue
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid):
			return nil, err
		}
		it, err := Resolve(all, a)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}
