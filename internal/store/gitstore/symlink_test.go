package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// linkedStore is a repository whose .lore/cache is a link to a folder
// outside it.
func linkedStore(t *testing.T) (*Store, string) {
	t.Helper()
	root, out := tempRepo(t), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".lore/lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(root, ".lore/cache")); err != nil {
		t.Fatal(err)
	}
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return s, out
}

func TestNoWriteThroughALink(t *testing.T) {
	s, out := linkedStore(t)
	if err := writeAtomic(s.Path(".lore/cache/manifest"), []byte("x")); !errors.Is(err, ErrSymlink) {
		t.Fatalf("writeAtomic through a linked cache: %v", err)
	}
	if _, err := s.Lock(); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Lock in a linked cache: %v", err)
	}
	if err := s.WriteDerived(".lore/cache/manifest", []byte("x")); !errors.Is(err, ErrSymlink) {
		t.Fatalf("WriteDerived through a linked cache: %v", err)
	}
	if f, err := openAppend(s.Path(".lore/cache/scan.log")); !errors.Is(err, ErrSymlink) {
		f.Close()
		t.Fatalf("openAppend through a linked cache: %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatalf("%d files written outside the repository", len(entries))
	}
	// A linked file is not replaced either, and a folder link does not let
	// Remove reach through.
	victim := filepath.Join(out, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	item := s.Path(".lore/lessons/x.md")
	if err := os.Symlink(victim, item); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(item, []byte("x")); !errors.Is(err, ErrSymlink) {
		t.Fatalf("writeAtomic over a linked item: %v", err)
	}
	if err := Remove(s.Path(".lore/cache/victim")); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Remove through a linked folder: %v", err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Fatalf("victim = %q", data)
	}
	// Outside any work tree, and inside one without links, writes work.
	if err := writeAtomic(filepath.Join(t.TempDir(), "a", "b"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(s.Path(".lore/lessons/y.md"), []byte("x")); err != nil {
		t.Fatal(err)
	}
}

func TestLinks(t *testing.T) {
	s, _ := linkedStore(t)
	if err := os.Symlink("/etc", s.Path("docs")); err != nil {
		t.Fatal(err)
	}
	got, err := s.Links("docs/learnings.md", ".lore/learnings.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".lore/cache", "docs"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Links = %q, want %q", got, want)
	}
}

// TestNoWriteThroughALinkToARepository: a link whose target holds a .git
// (another checkout) is still a link inside this work tree.
func TestNoWriteThroughALinkToARepository(t *testing.T) {
	root, other := tempRepo(t), t.TempDir()
	for _, d := range []string{".git", "cache/.git"} {
		if err := os.MkdirAll(filepath.Join(other, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(other, filepath.Join(root, ".lore")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{".lore/cache/manifest", ".lore/lessons/x.md"} {
		if err := writeAtomic(filepath.Join(root, rel), []byte("x")); !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), ": .lore is a symbolic link") {
			t.Errorf("writeAtomic(%s) = %v", rel, err)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(other, "cache")); len(entries) != 1 {
		t.Errorf("%d entries in the other checkout's cache", len(entries))
	}
}

// A derived file is replaced whole, with no temp file left beside it.
func TestWriteDerivedReplaces(t *testing.T) {
	s, err := Open(tempRepo(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"first, the longer one", "second"} {
		if err := s.WriteDerived(".lore/cache/items", []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.ReadFile(".lore/cache/items"); string(got) != data {
			t.Fatalf("read %q, wrote %q", got, data)
		}
	}
	entries, _ := os.ReadDir(s.Path(".lore/cache"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{"items", "write.lock"}) {
		t.Errorf("cache folder holds %q", names)
	}
}
