package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Origin is the commit that introduced a heading (docs/design.md, Ages and
// staleness) or the last consolidation: its hash and author date (YYYY-MM-DD in
// the author's own time zone, as git log --date=short prints it).
type Origin struct {
	Commit string `json:"commit"`
	Date   string `json:"date"`
}

// History holds the git facts behind the ages of one learnings file.
type History struct {
	Head    string            // HEAD commit ("" in a repository without commits)
	Path    string            // repo-relative path of the file at HEAD
	Dates   []string          // D: sorted distinct author dates of all commits reachable from HEAD
	Origins map[string]Origin // origin of every heading text in V(HEAD)
	// LastConsolidation is the newest first-parent commit that removed a
	// heading; nil when there is none.
	LastConsolidation *Origin
	Shallow           bool // the history is cut by a shallow clone
	Cached            bool // answered from .lore/cache without walking
	Walked            int  // commits decoded to answer (0 when cached)
}

// node is one commit of the walk.
type node struct {
	hash     plumbing.Hash
	parents  []plumbing.Hash
	tree     plumbing.Hash
	date     string
	children int    // children among the commits being walked
	path     string // the learnings path at this commit, once known
	pathSet  bool
	carry    []int // heading indices carried here from a child
}

// walker answers V(C) for commits with per-tree and per-blob caches.
type walker struct {
	st       *filesystem.Storage
	nodes    map[plumbing.Hash]*node
	shallow  map[plumbing.Hash]bool
	cut      bool // a parent was missing or cut by a shallow boundary
	trees    map[plumbing.Hash]*object.Tree
	blobs    map[plumbing.Hash]map[string]bool
	contents map[plumbing.Hash][]byte
	fs       billy.Filesystem                // the repository's storage, for prefetch
	path     string                          // the learnings path at HEAD
	pre      map[plumbing.Hash]plumbing.Hash // prefetched: root tree -> blob at prePath
	prePath  string
	intern   map[string]string // heading texts shared across versions
}

// History computes the facts of docs/design.md, Ages and staleness, for the
// learnings file at rel (repo-relative) in one walk of the commit graph from
// HEAD that carries heading sets to parents. Results are cached in .lore/cache
// keyed by HEAD and the path (the record also names the file's blob at HEAD); a
// newer HEAD only walks the commits the cache lacks.
func (s *Store) History(rel string) (*History, error) {
	ref, err := storer.ResolveReference(s.storage, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return &History{Path: rel, Origins: map[string]Origin{}}, nil // no commits yet
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: history: resolve HEAD: %w", err)
	}
	// The blob at a path is a function of HEAD, so a record for this HEAD
	// and path answers without touching a single object.
	c := s.historyCache(rel)
	if h := c.load(ref.Hash(), rel); h != nil {
		return h, nil
	}
	st := walkStorage(s.storage.Filesystem())
	defer st.Close()
	w := s.newWalker(st, rel)
	head, err := w.load(ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("gitstore: history: %w", err)
	}
	head.path, head.pathSet = rel, true
	blob, _ := w.blobAt(head.tree, rel)
	h, prev, err := w.walk(head, c.previous())
	if err != nil {
		return nil, fmt.Errorf("gitstore: history: %w", err)
	}
	h.Path, h.Walked = rel, len(w.nodes)
	if s.Initialized() { // never create .lore/ in a repository that has none
		c.save(h, blob, w.reachable(), prev)
	}
	return h, nil
}

// newWalker is a walker of st for the learnings file at rel.
func (s *Store) newWalker(st *filesystem.Storage, rel string) *walker {
	w := &walker{
		st: st, nodes: map[plumbing.Hash]*node{}, shallow: map[plumbing.Hash]bool{},
		trees: map[plumbing.Hash]*object.Tree{}, blobs: map[plumbing.Hash]map[string]bool{},
		contents: map[plumbing.Hash][]byte{}, fs: s.storage.Filesystem(), path: rel, intern: map[string]string{},
	}
	if sh, err := st.Shallow(); err == nil {
		for _, h := range sh {
			w.shallow[h] = true
		}
	}
	return w
}

// walk answers from the cached previous answer and the commits it lacks,
// or with a full walk when it cannot (prev is then returned nil: the
// cache's commit list is not carried over).
func (w *walker) walk(head *node, prev *cached) (*History, *cached, error) {
	if prev != nil {
		if h := w.incremental(head, prev); h != nil {
			return h, prev, nil
		}
	}
	w.reset()
	head = w.nodes[head.hash]
	head.path, head.pathSet = w.path, true
	h, err := w.full(head)
	return h, nil, err
}

// load reads one commit (memoized). A commit at a shallow boundary gets no
// parents.
func (w *walker) load(h plumbing.Hash) (*node, error) {
	if n, ok := w.nodes[h]; ok {
		return n, nil
	}
	o, err := w.st.EncodedObject(plumbing.CommitObject, h)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h, err)
	}
	c, err := decodeCommit(w.st, o, h)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h, err)
	}
	n := &node{hash: h, tree: c.tree, date: c.author.When.Format("2006-01-02"), parents: c.parents}
	if w.shallow[h] {
		n.parents, w.cut = nil, true
	}
	w.nodes[h] = n
	return n, nil
}

// enumerate loads every commit reachable from start that is not in stop,
// counting children among them. Missing parents (a broken or partial clone)
// are dropped and mark the history as cut.
func (w *walker) enumerate(start *node, stop map[plumbing.Hash]bool) []*node {
	pf := startPrefetch(w.fs, w.path)
	defer pf.finish(w)
	seen := map[plumbing.Hash]bool{start.hash: true}
	order := []*node{start}
	for i := 0; i < len(order); i++ {
		n := order[i]
		pf.push(n.tree)
		kept := n.parents[:0:0]
		for _, ph := range n.parents {
			if stop[ph] {
				kept = append(kept, ph)
				continue
			}
			p, err := w.load(ph)
			if err != nil {
				w.cut = true
				continue
			}
			kept = append(kept, ph)
			p.children++
			if !seen[ph] {
				seen[ph] = true
				order = append(order, p)
			}
		}
		n.parents = kept
	}
	return order
}

// reset forgets per-walk state (children counts, carried sets, paths)
// after an incremental attempt gave up; decoded objects stay cached.
func (w *walker) reset() {
	for _, n := range w.nodes {
		n.children, n.carry, n.pathSet, n.path = 0, nil, false, ""
	}
}

// reachable lists every commit loaded by the walk (for the incremental cache).
func (w *walker) reachable() []plumbing.Hash {
	out := make([]plumbing.Hash, 0, len(w.nodes))
	for h := range w.nodes {
		out = append(out, h)
	}
	return out
}

// full walks the whole history from head.
func (w *walker) full(head *node) (*History, error) {
	all := w.enumerate(head, nil)
	titles, err := w.titles(head)
	if err != nil {
		return nil, err
	}
	origins, _, err := w.carry(head, titles, nil, nil)
	if err != nil {
		return nil, err
	}
	last, _, err := w.lastConsolidation(head, nil, nil)
	if err != nil {
		return nil, err
	}
	return &History{
		Head: head.hash.String(), Dates: datesOf(all, nil), Origins: origins,
		LastConsolidation: last, Shallow: w.cut,
	}, nil
}

// incremental walks only the commits that are not reachable from the cached
// HEAD and takes the rest from the cache. It returns nil when the new
// commits lead somewhere the cache cannot answer (then a full walk runs).
func (w *walker) incremental(head *node, prev *cached) *History {
	stop := prev.commits
	if len(stop) == 0 || stop[head.hash] {
		return nil
	}
	fresh := w.enumerate(head, stop)
	titles, err := w.titles(head)
	if err != nil {
		return nil
	}
	// Only the cached HEAD itself has known answers; a heading or chain
	// that enters the cached history anywhere else needs a full walk.
	oldHead := plumbing.NewHash(prev.rec.Head)
	atOld := func(p *node) bool { return p.hash == oldHead && p.path == prev.rec.Path }
	origins, ok, err := w.carry(head, titles, stop, func(p *node, t string) (Origin, bool) {
		o, ok := prev.rec.Origins[t]
		return o, ok && atOld(p)
	})
	if err != nil || !ok {
		return nil
	}
	last, ok, err := w.lastConsolidation(head, stop, func(p *node) (*Origin, bool) { return prev.rec.Last, atOld(p) })
	if err != nil || !ok {
		return nil
	}
	return &History{
		Head: head.hash.String(), Dates: datesOf(fresh, prev.rec.Dates), Origins: origins,
		LastConsolidation: last, Shallow: w.cut || prev.rec.Shallow,
	}
}

// titles is V(head) as a sorted list.
func (w *walker) titles(head *node) ([]string, error) {
	v, err := w.headings(head)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(v))
	for t := range v {
		out = append(out, t)
	}
	sort.Strings(out)
	return out, nil
}

// carry moves every heading of V(head) from child to the first parent (in
// parent order) whose V has it, visiting commits children-first; where no
// parent has it, that commit introduced it. A heading that reaches a commit
// in stop (the cached history) takes its origin from boundary; ok is false
// when boundary cannot answer.
func (w *walker) carry(head *node, titles []string, stop map[plumbing.Hash]bool,
	boundary func(p *node, title string) (Origin, bool)) (map[string]Origin, bool, error) {
	origins := make(map[string]Origin, len(titles))
	if len(titles) == 0 {
		return origins, true, nil
	}
	head.carry = make([]int, len(titles))
	for i := range titles {
		head.carry[i] = i
	}
	pending := len(titles)
	ready := []*node{head}
	for len(ready) > 0 && pending > 0 {
		c := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		if len(c.carry) > 0 {
			settled, ok, err := w.carryFrom(c, titles, stop, boundary, origins)
			if err != nil || !ok {
				return nil, false, err
			}
			pending -= settled
		}
		ready = w.release(c, stop, ready)
	}
	return origins, true, nil
}

// carryFrom moves the headings carried to c on to its parents, or settles
// their origins; settled counts those it settled.
func (w *walker) carryFrom(c *node, titles []string, stop map[plumbing.Hash]bool,
	boundary func(p *node, title string) (Origin, bool), origins map[string]Origin) (settled int, ok bool, err error) {
	parents, sets, err := w.parentsOf(c)
	if err != nil {
		return 0, false, err
	}
	carried := c.carry
	c.carry = nil
	if len(parents) > 0 && w.unchanged(c, parents[0]) && !stop[parents[0].hash] {
		// Every heading carried here is in the first parent's file, the
		// same blob: what carryOne would find for each.
		parents[0].carry = append(parents[0].carry, carried...)
		return 0, true, nil
	}
	for _, i := range carried {
		done, ok := w.carryOne(c, i, titles[i], parents, sets, stop, boundary, origins)
		if !ok {
			return 0, false, nil
		}
		if done {
			settled++
		}
	}
	return settled, true, nil
}

// unchanged reports whether p has c's learnings file as it is in c (most
// commits change other files).
func (w *walker) unchanged(c, p *node) bool {
	cb, ok := w.blobAt(c.tree, c.path)
	if !ok {
		return false
	}
	pb, ok := w.blobAt(p.tree, p.path)
	return ok && pb == cb
}

// parentsOf loads c's parents, their learnings paths and heading sets.
func (w *walker) parentsOf(c *node) ([]*node, []map[string]bool, error) {
	parents := make([]*node, len(c.parents))
	sets := make([]map[string]bool, len(c.parents))
	for k, ph := range c.parents {
		p, err := w.load(ph)
		if err != nil {
			return nil, nil, err
		}
		if err := w.follow(c, p); err != nil {
			return nil, nil, err
		}
		if sets[k], err = w.headings(p); err != nil {
			return nil, nil, err
		}
		parents[k] = p
	}
	return parents, sets, nil
}

// carryOne moves heading t (index i) from c to the first parent that has
// it, or settles its origin: c introduced it (no parent has it), or the
// cached history says (the parent is in stop). done: the origin is
// settled; ok is false when boundary cannot answer.
func (w *walker) carryOne(c *node, i int, t string, parents []*node, sets []map[string]bool, stop map[plumbing.Hash]bool,
	boundary func(p *node, title string) (Origin, bool), origins map[string]Origin) (done, ok bool) {
	k := 0
	for k < len(parents) && !sets[k][t] {
		k++
	}
	switch {
	case k == len(parents):
		origins[t] = Origin{Commit: c.hash.String(), Date: c.date}
		return true, true
	case stop[parents[k].hash]:
		o, ok := boundary(parents[k], t)
		origins[t] = o
		return true, ok
	}
	parents[k].carry = append(parents[k].carry, i)
	return false, true
}

// release counts c off its parents' children; a parent none of whose
// children is left to visit is ready.
func (w *walker) release(c *node, stop map[plumbing.Hash]bool, ready []*node) []*node {
	seen := map[plumbing.Hash]bool{}
	for _, ph := range c.parents {
		if stop[ph] || seen[ph] {
			continue
		}
		seen[ph] = true
		p := w.nodes[ph]
		if p.children--; p.children == 0 {
			ready = append(ready, p)
		}
	}
	return ready
}

// lastConsolidation walks HEAD's first-parent chain for the newest commit
// whose V lacks a heading its first parent's V has. A chain that reaches a
// commit in stop asks boundary; ok is false when boundary cannot answer.
func (w *walker) lastConsolidation(head *node, stop map[plumbing.Hash]bool,
	boundary func(p *node) (*Origin, bool)) (*Origin, bool, error) {
	for c := head; len(c.parents) > 0; {
		p, err := w.load(c.parents[0])
		if err != nil {
			return nil, false, err
		}
		if err := w.follow(c, p); err != nil {
			return nil, false, err
		}
		if dropped, err := w.dropsHeading(c, p); err != nil || dropped {
			return &Origin{Commit: c.hash.String(), Date: c.date}, true, err
		}
		if stop[p.hash] {
			o, ok := boundary(p)
			return o, ok, nil
		}
		c = p
	}
	return nil, true, nil
}

// dropsHeading reports whether V(c) lacks a heading V(p) has: c is a
// consolidation.
func (w *walker) dropsHeading(c, p *node) (bool, error) {
	vc, err := w.headings(c)
	if err != nil {
		return false, err
	}
	vp, err := w.headings(p)
	if err != nil {
		return false, err
	}
	for t := range vp {
		if !vc[t] {
			return true, nil
		}
	}
	return false, nil
}

// follow sets the learnings path of parent p from child c, following a
// whole-file rename: when c has the file and p does not, the file p deleted
// by c's change that has the same content, or failing that the most
// similar one (at least half its lines), is the old name.
func (w *walker) follow(c, p *node) error {
	if p.pathSet {
		return nil
	}
	p.path, p.pathSet = c.path, true
	if _, ok := w.blobAt(p.tree, c.path); ok {
		return nil
	}
	cb, ok := w.blobAt(c.tree, c.path)
	if !ok {
		return nil
	}
	ct, err := w.tree(c.tree)
	if err != nil {
		return err
	}
	pt, err := w.tree(p.tree)
	if err != nil {
		return err
	}
	changes, err := object.DiffTree(pt, ct)
	if err != nil {
		return fmt.Errorf("diff %s: %w", c.hash, err)
	}
	best, err := w.renamedFrom(changes, cb)
	if best != "" {
		p.path = best
	}
	return err
}

// renamedFrom is the file a change deleted that holds blob cb, or else the
// most similar one with at least half its lines ("" for none).
func (w *walker) renamedFrom(changes object.Changes, cb plumbing.Hash) (string, error) {
	best, bestScore := "", 0.0
	for _, ch := range changes {
		if ch.From.Name == "" || ch.To.Name != "" || ch.From.TreeEntry.Mode == filemode.Submodule {
			continue
		}
		if ch.From.TreeEntry.Hash == cb {
			return ch.From.Name, nil
		}
		score, err := w.similarity(ch.From.TreeEntry.Hash, cb)
		if err != nil {
			return "", err
		}
		if score >= 0.5 && score > bestScore {
			best, bestScore = ch.From.Name, score
		}
	}
	return best, nil
}

// similarity is the share of lines two blobs have in common, relative to
// the longer one.
func (w *walker) similarity(a, b plumbing.Hash) (float64, error) {
	da, err := w.content(a)
	if err != nil {
		return 0, err
	}
	db, err := w.content(b)
	if err != nil {
		return 0, err
	}
	count := map[string]int{}
	la, lb := strings.Split(string(da), "\n"), strings.Split(string(db), "\n")
	for _, l := range la {
		count[l]++
	}
	common := 0
	for _, l := range lb {
		if count[l] > 0 {
			count[l]--
			common++
		}
	}
	return float64(common) / float64(max(len(la), len(lb))), nil
}

// headings is V(n) for the file at n.path, cached per blob.
func (w *walker) headings(n *node) (map[string]bool, error) {
	b, ok := w.blobAt(n.tree, n.path)
	if !ok {
		return nil, nil
	}
	if v, ok := w.blobs[b]; ok {
		return v, nil
	}
	data, err := w.content(b)
	if err != nil {
		return nil, err
	}
	v := headingSet(data, w.intern)
	w.blobs[b] = v
	delete(w.contents, b)
	return v, nil
}

func (w *walker) content(b plumbing.Hash) ([]byte, error) {
	if d, ok := w.contents[b]; ok {
		return d, nil
	}
	o, err := w.st.EncodedObject(plumbing.BlobObject, b)
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", b, err)
	}
	r, err := o.Reader()
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", b, err)
	}
	defer r.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, r); err != nil {
		return nil, fmt.Errorf("blob %s: %w", b, err)
	}
	w.contents[b] = buf.Bytes()
	return buf.Bytes(), nil
}

func (w *walker) tree(h plumbing.Hash) (*object.Tree, error) {
	if t, ok := w.trees[h]; ok {
		return t, nil
	}
	t, err := object.GetTree(w.st, h)
	if err != nil {
		return nil, fmt.Errorf("tree %s: %w", h, err)
	}
	w.trees[h] = t
	return t, nil
}

// blobAt finds the blob at a slash path in a tree; trees are cached by hash
// so unchanged folders are decoded once.
func (w *walker) blobAt(root plumbing.Hash, path string) (plumbing.Hash, bool) {
	if b, ok := w.pre[root]; ok && path == w.prePath {
		return b, !b.IsZero()
	}
	h := root
	parts := strings.Split(path, "/")
	for i, name := range parts {
		t, err := w.tree(h)
		if err != nil {
			return plumbing.ZeroHash, false
		}
		found := false
		for _, e := range t.Entries {
			if e.Name != name {
				continue
			}
			last := i == len(parts)-1
			if last != e.Mode.IsFile() {
				return plumbing.ZeroHash, false
			}
			h, found = e.Hash, true
			break
		}
		if !found {
			return plumbing.ZeroHash, false
		}
	}
	return h, true
}

// datesOf merges the author dates of nodes into a sorted distinct list.
func datesOf(nodes []*node, more []string) []string {
	set := map[string]bool{}
	for _, d := range more {
		set[d] = true
	}
	for _, n := range nodes {
		set[n.date] = true
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
