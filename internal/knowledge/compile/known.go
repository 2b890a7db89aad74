package compile

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sync"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/parallel"
)

// Known is what a build knows of one item file: everything the merge
// reads of it. It is worked out when the file is parsed (over all cores),
// or taken from the last build's cache when the file has not changed
// (docs/design.md, Incremental build).
type Known struct {
	Facts
	Scope    Scope             // (a cached entry of another scope or store is not used)
	Store    string            // the store's name, "" for the project's
	Stat     manifest.Stat     // the snapshot's stat of the file: the cache key
	Digest   [sha256.Size]byte // of the path and bytes
	Len      int               // the file's size in bytes
	Foldable bool              // a skill may fold it, if confident enough
	Rec      manifest.Item     // its record, when it has no errors
	Entry    IndexEntry        // its index line; its sanitized title, for the session's lists
	Fix      string            // a critical item's fix, for the session's list

	item *markdown.Item // parsed this build; nil when cached
}

// Facts are what the merge reads of an item file to admit it
// (compiler.admit).
type Facts struct {
	Path       string // as loaded: repo-relative, or origin:folder/name
	ID, Status string
	Priority   int
	Confidence float64
	IDLine     int // the line of the id key
	Errs       []*markdown.Error
	Unsafe     bool // Errs has lint's safety findings
}

// know works out what the merge needs of a parsed item.
func know(it *markdown.Item, st Store, itemCap int) *Known {
	k := &Known{Facts: Facts{Path: it.Path}, Scope: st.Scope, Store: st.Name, Digest: digest(it), Len: len(it.Raw()), item: it}
	k.Errs, k.Unsafe = check(it)
	k.facts(it, itemCap)
	return k
}

// facts fills in what a parsed item's bytes decide, its verdict aside.
func (k *Known) facts(it *markdown.Item, itemCap int) {
	k.ID, k.Status, k.Priority, k.Confidence = it.ID, it.Status, int(it.Priority), it.Confidence
	k.IDLine, k.Entry = it.KeyLine("id"), entry(it)
	if len(k.Errs) > 0 {
		return
	}
	k.Rec = item(it, k.Scope, itemCap)
	k.Foldable = foldShape(it)
	if it.Priority >= 9 {
		k.Fix = FixText(it)
	}
}

// digest identifies an item by its path and bytes.
func digest(it *markdown.Item) [sha256.Size]byte { return digestOf(it.Path, it.Raw()) }

func digestOf(path string, data []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(data)
	return [sha256.Size]byte(h.Sum(nil))
}

// moreImportant orders as markdown.MoreImportant, with the project's
// items before an organisation's and the user's of the same priority, as
// on equal scores (docs/design.md, Scopes and organisation stores): a
// large org store does not push the project's own out of the session's
// lists.
func moreImportant(a, b *Known) bool {
	if a.Priority != b.Priority || a.Scope == b.Scope {
		return markdown.Ranked(markdown.Priority(a.Priority), a.Confidence, a.ID, markdown.Priority(b.Priority), b.Confidence, b.ID)
	}
	return a.Scope < b.Scope
}

// Cache is what the last build knew of each item file, by path, and what
// this build knows. A file whose stat is the one the cache has is neither
// read nor parsed; a file read again whose bytes are the cached ones is not
// checked or rendered again. The salt names the binary and the settings
// that shape a record: under another salt no entry is used. The file's
// stat is the snapshot's, taken before the read, and the snapshot waits
// out the file system's racy window, so a change after it always changes
// the stat (docs/design.md, Manifest freshness).
type Cache struct {
	salt    string
	itemCap int
	old     map[string]*Known   // read from the last build's cache file
	hits    map[string]*Known   // the entries of unchanged files (Match)
	fresh   map[string][]*Known // by store name ("" the project's): the files Read read
	now     []*Known            // known this build, with a snapshot stat: what encode saves
	read    int                 // files read this build: how much the saved cache is out of date
	save    func([]byte)        // SaveWith's
	pending sync.WaitGroup      // encode's goroutine
}

// LoadCache reads the cache a build saved (nil data: none). Saved under
// another salt, or unreadable (truncated, corrupt), it is ignored: every
// file is parsed and checked again. The salt is the caller's (the
// binary's identity) with the revision and the records' size cap added.
// The entries' strings slice data, which the caller must not change.
func LoadCache(data []byte, salt string, itemCap int) *Cache {
	c := &Cache{salt: fmt.Sprintf("%s revision %d cap %d", salt, Revision, itemCap), itemCap: itemCap,
		old: map[string]*Known{}, hits: map[string]*Known{}, fresh: map[string][]*Known{}}
	known, err := decodeKnown(bytesString(data), c.salt)
	if err != nil {
		return c
	}
	for _, k := range known {
		c.old[k.Path] = k
	}
	return c
}

// ItemCap is the size cap of a record's text under the settings.
func ItemCap(set manifest.Settings) int { return max(min(MaxItemBytes, set.BudgetBytes), 256) }

// Match finds the cached files the snapshot saw unchanged: Read skips
// them and the build takes them from the cache.
func (c *Cache) Match(s Snapshot) {
	for path, k := range c.old {
		if st, ok := s.stat(path); ok && st == k.Stat {
			c.hits[path] = k
		}
	}
}

// Read reads the store's files but those Match found unchanged, over all
// cores, each once: a file whose bytes the cache has (touched, checked
// out again) is
// taken from it unparsed; any other is parsed, checked and rendered, and
// the parsed item dropped, so the YAML trees of 10,000 files are never
// all alive at once (they were most of a cold build's memory). Files that
// cannot be read or parsed come back as errors and are left out.
func (c *Cache) Read(files []File, st Store) []error {
	files = slices.DeleteFunc(slices.Clone(files), func(f File) bool { return c.hits[f.Path] != nil })
	known, errs := parallel.Map(len(files), func(i int) (*Known, error) { return c.readFile(files[i], st) })
	c.fresh[st.Name] = append(c.fresh[st.Name], known...)
	c.read += len(files)
	return errs
}

func (c *Cache) readFile(f File, st Store) (*Known, error) {
	data, err := readItemBytes(f.Abs, f.Path)
	if err != nil {
		return nil, err
	}
	if old, ok := c.old[f.Path]; ok && old.in(st) && old.Digest == digestOf(f.Path, data) {
		k := *old
		return &k, nil
	}
	it, err := markdown.Parse(f.Path, data)
	if err != nil {
		return nil, err
	}
	k := know(it, st, c.itemCap)
	k.item = nil // fold reads a skill's lessons again
	return k, nil
}

// known returns what the build knows of a store's files: the items the
// caller parsed, worked out over all cores, and, from the cache, the files
// it read and those it had unchanged.
func (c *Cache) known(items []*markdown.Item, st Store, snap Snapshot, itemCap int) []*Known {
	out := make([]*Known, len(items))
	parallel.Each(len(items), func(i int) { out[i] = know(items[i], st, itemCap) })
	if c == nil {
		return out
	}
	for _, k := range c.fresh[st.Name] {
		if k.in(st) {
			out = append(out, k)
		}
	}
	for _, k := range out {
		if stat, ok := snap.stat(k.Path); ok {
			k.Stat = stat
			c.now = append(c.now, k)
		}
	}
	for _, k := range c.hits {
		if k.in(st) {
			out = append(out, k)
			c.now = append(c.now, k)
		}
	}
	return out
}

// Counts says how many item files this build read, of all it knows;
// the others the cache had unchanged.
func (c *Cache) Counts() (read, all int) {
	return c.read, c.read + len(c.hits)
}

// in says the file is one of the store's.
func (k *Known) in(st Store) bool { return k.Scope == st.Scope && k.Store == st.Name }

// Stale says the saved cache is worth writing again: every file it has
// was parsed, or at least one in a hundred it has were (a one-file change
// in a large store is parsed again by the next build instead: rewriting
// 10,000 entries cost more than the build saved).
func (c *Cache) Stale() bool {
	if c.read == 0 && len(c.hits) == len(c.old) {
		return false
	}
	gone := len(c.old) - len(c.hits)
	return len(c.old) == 0 || (c.read+gone)*100 >= len(c.now)
}

// SaveWith has Build hand save the encoded cache, when it is worth saving
// (Stale), as soon as it is encoded: it is written while the manifest is
// built, where writing it after the manifest was a twentieth of a cold
// build at 10,000 items. Wait waits for save to return. Without it (a
// build kept in memory) the cache is not encoded at all.
func (c *Cache) SaveWith(save func([]byte)) { c.save = save }

// Wait waits until what Build started for the cache (encode) is done.
func (c *Cache) Wait() {
	if c != nil {
		c.pending.Wait()
	}
}

// encode starts encoding what this build knows and handing it to
// SaveWith's save, when the cache is worth saving. Build calls it once
// Compile is done: the cache is encoded while the manifest is built (a
// tenth of a cold build at 10,000 items).
func (c *Cache) encode() {
	if c == nil || c.save == nil || !c.Stale() {
		return
	}
	c.pending.Go(func() { c.save(encodeKnown(c.salt, c.now)) })
}
