package observe

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
)

// Report counts what a reconcile found. Paths name the files behind each
// count, for the command's output.
type Report struct {
	Unchanged int
	Edited    []string // hash differs: the user's edit stands
	Deleted   []string // penalised: confidence x DeletePenalty, status deprecated
	Healed    []string // a crash's unrecorded artifact or unmarked observation, recorded now
	Unmatched []string // lore-made artifacts no ready observation matches: left alone
	Ambiguous []string // matched by more than one ready observation: left alone
	Drafted   []string // "obs_id path": ready, not rendered, scan's draft of the incident is in the store
}

// Reconcile compares the render manifest with the files (the
// reconciler of docs/design.md, Observations and rendering) under the store
// lock.
func (l *Log) Reconcile(now time.Time) (*Report, error) {
	unlock, err := l.s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	return l.reconcileLocked(now)
}

func (l *Log) reconcileLocked(now time.Time) (*Report, error) {
	rep := &Report{}
	m, err := l.readManifest()
	if err != nil {
		return nil, err
	}
	recs, _, err := l.Read()
	if err != nil {
		return nil, err
	}
	obs := map[string]*Observation{}
	all := Fold(recs)
	for _, o := range all {
		obs[o.ID] = o
	}
	var keep []Entry
	changed := false
	for _, e := range m.Entries {
		kept, err := l.reconcileEntry(e, obs[e.ObservationID], recs, rep, now)
		if err != nil {
			return nil, err
		}
		if !kept {
			changed = true
			continue
		}
		keep = append(keep, e)
	}
	if changed {
		m.Entries = keep
		if err := l.writeManifest(m); err != nil {
			return nil, err
		}
	}
	return rep, l.healOrphans(m, all, rep, now)
}

// reconcileEntry checks one rendered artifact (o its observation, nil when
// the log has none) and reports whether the manifest keeps it: a deleted
// artifact deprecates its observation and leaves the manifest; an
// artifact still there whose observation the log calls ready is marked
// created (a render killed between recording it and saying so).
func (l *Log) reconcileEntry(e Entry, o *Observation, recs []Record, rep *Report, now time.Time) (bool, error) {
	data, err := os.ReadFile(l.s.Path(e.Path))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Log first: after a crash before the manifest drops the entry,
		// the record is there and is not written twice.
		if art := e.Path + "@" + e.ContentHash; o != nil && !recorded(recs, o.ID, Deprecated, art) {
			if err := l.mark(o, Deprecated, DeletePenalty, art, now); err != nil {
				return false, err
			}
		}
		rep.Deleted = append(rep.Deleted, e.Path)
		return false, nil
	case err != nil:
		return false, err
	case Hash(data) != e.ContentHash:
		rep.Edited = append(rep.Edited, e.Path)
	default:
		rep.Unchanged++
	}
	if o != nil && o.Status == Ready { // recorded, but the crash came before the log said so
		if err := l.mark(o, Created, 0, e.Path+"@"+e.ContentHash, now); err != nil {
			return false, err
		}
		o.Status = Created
		rep.Healed = append(rep.Healed, e.Path)
	}
	return true, nil
}

// healOrphans adopts lore-made artifacts the manifest does not know (a
// render killed after writing one): exactly one ready observation of the
// artifact's type whose pattern matches its title is marked created and
// recorded; with none or several the file is left alone.
func (l *Log) healOrphans(m *Manifest, all []*Observation, rep *Report, now time.Time) error {
	ready := false
	for _, o := range all {
		ready = ready || o.Status == Ready
	}
	if !ready {
		return nil // nothing could adopt an orphan: skip reading the folders
	}
	known := map[string]bool{}
	for _, e := range m.Entries {
		known[e.Path] = true
	}
	orphans, err := l.orphans(known)
	if err != nil {
		return err
	}
	for _, a := range orphans {
		var hits []*Observation
		for _, o := range all {
			if o.Status == Ready && o.Type == a.typ && matches(o.Pattern, a.title) {
				hits = append(hits, o)
			}
		}
		switch len(hits) {
		case 0:
			rep.Unmatched = append(rep.Unmatched, a.rel)
		case 1:
			data, err := os.ReadFile(l.s.Path(a.rel))
			if err != nil {
				return err
			}
			if err := l.record(m, hits[0], a.rel, data, now); err != nil {
				return err
			}
			hits[0].Status = Created
			rep.Healed = append(rep.Healed, a.rel)
		default:
			rep.Ambiguous = append(rep.Ambiguous, a.rel)
		}
	}
	return nil
}

// matches reports whether an artifact title names a pattern: equal once
// normalized, or a prefix at a word boundary (titles are clipped).
func matches(pattern, title string) bool {
	t := Normalize(title)
	return t != "" && (pattern == t || strings.HasPrefix(pattern, t+" "))
}

type orphan struct{ rel, typ, title string }

// orphans lists lore-made artifacts in the render folders that known does
// not hold, sorted by path.
func (l *Log) orphans(known map[string]bool) ([]orphan, error) {
	var out []orphan
	add := func(rel, typ string) {
		if known[rel] {
			return
		}
		data, err := os.ReadFile(l.s.Path(rel))
		if err != nil {
			return
		}
		fm := frontmatter(data)
		switch typ {
		case Workflow, Procedural:
			if fm[markerKey] == markerValue {
				if d, ok := fm["description"].(string); ok {
					out = append(out, orphan{rel, typ, d})
				}
			}
		default:
			src, _ := fm["source"].(map[string]any)
			if t, _ := fm["title"].(string); src["type"] == sourceType && t != "" {
				out = append(out, orphan{rel, typ, t})
			}
		}
	}
	globs := []struct{ pattern, typ string }{
		{path.Join(CommandsDir, "*.md"), Workflow},
		{path.Join(SkillsDir, "*", "SKILL.md"), Procedural},
		{path.Join(Staged(CommandsDir), "*.md"), Workflow},
		{path.Join(Staged(SkillsDir), "*", "SKILL.md"), Procedural},
		{lorepath.Item(markdown.Folder(markdown.KindDecision), "*.md"), Decision},
		{lorepath.Item(markdown.Folder(markdown.KindPitfall), "*.md"), Pitfall},
	}
	for _, g := range globs {
		files, err := filepath.Glob(l.s.Path(g.pattern))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			add(l.s.Rel(f), g.typ)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].rel < out[b].rel })
	return out, nil
}

// recorded reports whether the log already has the status change of an
// observation's artifact.
func recorded(recs []Record, id, status, artifact string) bool {
	for _, r := range recs {
		if r.ID == id && r.Status == status && r.Artifact == artifact {
			return true
		}
	}
	return false
}
