package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/synthetic"
)

var cacheDocs = map[string]string{
	".lore/lessons/ok.md":     lessonHead + "Fine.\n",
	".lore/lessons/bad.md":    "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V2\nkind: lesson\ntitle: t\nstatus: bogus\n---\n\n## Fix\nx\n",
	".lore/lessons/unsafe.md": "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V3\nkind: lesson\ntitle: t\nstatus: active\n---\n\n## Fix\nUse sk-proj-abc123DEF456ghi789JKL0.\n",
}

func cacheItems(t *testing.T) []*markdown.Item {
	t.Helper()
	var out []*markdown.Item
	for rel, doc := range cacheDocs {
		it, err := markdown.Parse(rel, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it)
	}
	return out
}

// cacheRoot is a work tree with cacheDocs' files, and the files as a
// build reads them.
func cacheRoot(t *testing.T) (string, []File) {
	t.Helper()
	root := t.TempDir()
	var files []File
	for rel, doc := range cacheDocs {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Abs: abs, Path: rel})
	}
	return root, files
}

// builtCache is the cache a build of the files saves, and its snapshot.
func builtCache(t *testing.T, root string, files []File, saved []byte, salt string) (*Cache, Snapshot) {
	t.Helper()
	snap := TakeSnapshot(root, nil, "")
	c := LoadCache(saved, salt, MaxItemBytes)
	c.Match(snap)
	if errs := c.Read(files, Store{Scope: Project}); len(errs) > 0 {
		t.Fatal(errs)
	}
	c.known(nil, Store{Scope: Project}, snap, MaxItemBytes)
	return c, snap
}

// TestCacheRoundTrip: a saved cache loads back what a parse works out, is
// used for the files whose stat is unchanged, and is ignored under another
// salt or record cap; a truncated file loads as none (never a panic, never
// a partial set).
func TestCacheRoundTrip(t *testing.T) {
	root, files := cacheRoot(t)
	first, snap := builtCache(t, root, files, nil, "a")
	if !first.Stale() {
		t.Fatal("a first build saves nothing")
	}
	saved := encodeKnown(first.salt, first.now)
	again := LoadCache(saved, "a", MaxItemBytes)
	again.Match(snap)
	bad, unsafe := 0, 0
	for _, it := range cacheItems(t) {
		k, want := again.hits[it.Path], know(it, Store{Scope: Project}, MaxItemBytes)
		if k == nil {
			t.Fatalf("%s: not taken from the cache", it.Path)
		}
		k.Stat, want.item = manifest.Stat{}, nil
		if !reflect.DeepEqual(k, want) {
			t.Errorf("%s: loaded %+v, parsed %+v", it.Path, k, want)
		}
		bad += min(len(k.Errs), 1)
		if k.Unsafe {
			unsafe++
		}
	}
	if bad != 2 || unsafe != 1 {
		t.Fatalf("%d cached with errors, %d unsafe; want 2 and 1", bad, unsafe)
	}
	if got := again.known(nil, Store{Scope: Project}, snap, MaxItemBytes); len(got) != 3 || again.Stale() {
		t.Fatalf("unchanged: %d known from the cache, stale %v; want 3, false", len(got), again.Stale())
	}
	snap.Files[0].Stat.Mtime++ // one file changed
	moved := LoadCache(saved, "a", MaxItemBytes)
	if moved.Match(snap); len(moved.hits) != 2 || moved.hits[snap.Files[0].Path] != nil {
		t.Errorf("a changed stat still taken from the cache")
	}
	for _, other := range []*Cache{LoadCache(saved, "b", MaxItemBytes), LoadCache(saved, "a", 1024)} {
		if n := len(other.old); n != 0 {
			t.Errorf("another salt or cap kept %d entries", n)
		}
	}
	for i := range saved {
		if n := len(LoadCache(saved[:i], "a", MaxItemBytes).old); n != 0 {
			t.Fatalf("cut at %d: %d entries", i, n)
		}
	}
}

// A file read again with the bytes the cache has (touched, checked out
// again) is taken from the cache unparsed, with its new stat.
func TestCacheReusesSameBytes(t *testing.T) {
	root, files := cacheRoot(t)
	first, _ := builtCache(t, root, files, nil, "a")
	later := time.Now().Add(time.Hour)
	for _, f := range files {
		if err := os.Chtimes(f.Abs, later, later); err != nil {
			t.Fatal(err)
		}
	}
	c, snap := builtCache(t, root, files, encodeKnown(first.salt, first.now), "a")
	if read, all := c.Counts(); read != 3 || all != 3 {
		t.Fatalf("read %d of %d files, want all 3 (every stat changed)", read, all)
	}
	reused := 0
	for _, k := range c.now {
		if k.Stat != snap.Files[snap.files[k.Path]].Stat {
			t.Errorf("%s: stat %+v, not the new one", k.Path, k.Stat)
		}
		if old := c.old[k.Path]; len(k.Errs) > 0 && k.Errs[0] == old.Errs[0] { // the same error, not one checked again
			reused++
		}
	}
	if reused != 2 {
		t.Errorf("%d verdicts reused, want the 2 with errors", reused)
	}
}

// The cache's encoding gives back every field of what a parse works out,
// on synthetic items shaped like real ones and on items with errors.
func TestKnownCodecRoundTrip(t *testing.T) {
	items := append(synthetic.Items(300), cacheItems(t)...)
	var known []*Known
	required := 0
	for i, it := range items {
		k := know(it, Store{Scope: Scope(i % 3), Name: fmt.Sprint("s", i%3)}, MaxItemBytes)
		k.Stat = manifest.Stat{Ino: uint64(i), Size: uint64(k.Len), Mtime: int64(i) << 40, Ctime: -1, Absent: i%7 == 0}
		k.item = nil
		for _, l := range k.Rec.Required {
			required += len(l)
		}
		known = append(known, k)
	}
	if required == 0 {
		t.Fatal("no item has required literals: the test checks nothing of them")
	}
	got, err := decodeKnown(string(encodeKnown("s", known)), "s")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, known) {
		for i := range known {
			if !reflect.DeepEqual(got[i], known[i]) {
				t.Fatalf("entry %d:\ngot  %+v\nwant %+v", i, got[i], known[i])
			}
		}
		t.Fatalf("decoded %d entries, encoded %d", len(got), len(known))
	}
}
