package gitstore

import (
	"errors"
	"fmt"
	"io"
	"path"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
)

// Activations returns, for each item id, the author date of the commit
// that made it active (docs/design.md, Evidence of effect): a commit in
// which the id is active in an item file under .lore/ and was active in
// none of its parents. An item activated, retired and activated again
// keeps its first date. Ids never active in a commit are absent: the
// caller falls back to the item's own dates. It walks every commit
// reachable from HEAD once, descending only into .lore/ trees that
// changed, and parses each item blob once.
func (s *Store) Activations() (map[string]time.Time, error) {
	ref, err := storer.ResolveReference(s.storage, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return map[string]time.Time{}, nil // no commits yet
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: activations: resolve HEAD: %w", err)
	}
	st := walkStorage(s.storage.Filesystem())
	defer st.Close()
	a := &activations{st: st, blobs: map[plumbing.Hash]activeBlob{}, dates: map[string]time.Time{}}
	if err := a.walk(ref.Hash()); err != nil {
		return nil, fmt.Errorf("gitstore: activations: %w", err)
	}
	return a.dates, nil
}

// activeBlob is what an item file's version says: its id, when active.
type activeBlob struct{ id string }

type activations struct {
	st    *filesystem.Storage
	blobs map[plumbing.Hash]activeBlob
	dates map[string]time.Time
}

// walk visits every commit reachable from head once.
func (a *activations) walk(head plumbing.Hash) error {
	seen := map[plumbing.Hash]bool{head: true}
	todo := []plumbing.Hash{head}
	for len(todo) > 0 {
		h := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		c, err := object.GetCommit(a.st, h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			continue // cut by a shallow clone: its parents are unknown
		}
		if err != nil {
			return err
		}
		if err := a.commit(c); err != nil {
			return fmt.Errorf("commit %s: %w", h, err)
		}
		for _, p := range c.ParentHashes {
			if !seen[p] {
				seen[p] = true
				todo = append(todo, p)
			}
		}
	}
	return nil
}

// commit notes the ids c made active: active in c's changed item files
// and in no parent's.
func (a *activations) commit(c *object.Commit) error {
	tree, err := a.loreTree(c.TreeHash)
	if err != nil {
		return err
	}
	parents := c.ParentHashes
	if len(parents) == 0 {
		parents = []plumbing.Hash{plumbing.ZeroHash}
	}
	var made map[string]bool
	for i, ph := range parents {
		var ptree *object.Tree
		if !ph.IsZero() {
			pc, err := object.GetCommit(a.st, ph)
			if err != nil && !errors.Is(err, plumbing.ErrObjectNotFound) {
				return err
			}
			if pc != nil {
				if ptree, err = a.loreTree(pc.TreeHash); err != nil {
					return err
				}
			}
		}
		now, err := a.newlyActive(ptree, tree)
		if err != nil {
			return err
		}
		if i == 0 {
			made = now
			continue
		}
		for id := range made { // a merge makes active only what no parent had
			if !now[id] {
				delete(made, id)
			}
		}
	}
	for id := range made {
		if d, ok := a.dates[id]; !ok || c.Author.When.Before(d) {
			a.dates[id] = c.Author.When
		}
	}
	return nil
}

// loreTree is the .lore tree of a root tree; nil when it has none.
func (a *activations) loreTree(root plumbing.Hash) (*object.Tree, error) {
	t, err := object.GetTree(a.st, root)
	if err != nil {
		return nil, err
	}
	sub, err := t.Tree(lorepath.Dir)
	if errors.Is(err, object.ErrDirectoryNotFound) {
		return nil, nil
	}
	return sub, err
}

// newlyActive is the ids active in item files that changed from before
// to after and active in none of the changed files before.
func (a *activations) newlyActive(before, after *object.Tree) (map[string]bool, error) {
	if after == nil || before != nil && before.Hash == after.Hash {
		return nil, nil
	}
	changes, err := object.DiffTree(before, after)
	if err != nil {
		return nil, err
	}
	added, had := map[string]bool{}, map[string]bool{}
	for _, ch := range changes {
		if id, err := a.activeID(ch.To); err != nil {
			return nil, err
		} else if id != "" {
			added[id] = true
		}
		if id, err := a.activeID(ch.From); err != nil {
			return nil, err
		} else if id != "" {
			had[id] = true
		}
	}
	for id := range had {
		delete(added, id)
	}
	return added, nil
}

// activeID is the id of the item file an entry names when that version
// is active; "" for anything else.
func (a *activations) activeID(e object.ChangeEntry) (string, error) {
	if e.Name == "" || !isItemPath(e.Name) {
		return "", nil
	}
	h := e.TreeEntry.Hash
	if b, ok := a.blobs[h]; ok {
		return b.id, nil
	}
	blob, err := object.GetBlob(a.st, h)
	if err != nil {
		return "", err
	}
	r, err := blob.Reader()
	if err != nil {
		return "", err
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		return "", err
	}
	var b activeBlob
	if it, err := markdown.Parse(path.Join(lorepath.Dir, e.Name), data); err == nil && (it.Status == "active" || it.Status == "accepted") {
		b.id = it.ID
	}
	a.blobs[h] = b
	return b.id, nil
}

// isItemPath says a path under .lore/ is an item file: a Markdown file
// in a kind's folder.
func isItemPath(rel string) bool {
	dir, file := path.Split(rel)
	if path.Ext(file) != ".md" {
		return false
	}
	switch path.Clean(dir) {
	case lorepath.Lessons, lorepath.Pitfalls, lorepath.Decisions:
		return true
	}
	return false
}
