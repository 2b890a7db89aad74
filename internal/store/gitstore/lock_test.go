package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/go-git/go-git/v5"
)

// tempRepo is a fresh repository in a temporary folder. (gitstore's own
// tests cannot use internal/testrepo: it imports gitstore.)
func tempRepo(tb testing.TB) string {
	tb.Helper()
	root := tb.TempDir()
	if _, err := git.PlainInit(root, false); err != nil {
		tb.Fatal(err)
	}
	return root
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	root := tempRepo(t)
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A second Lock in the goroutine that holds the lock (directly, or through
// a writer that locks) is an error, not a deadlock; after unlock it works.
func TestNestedLockIsAnError(t *testing.T) {
	s := openTemp(t)
	unlock, err := s.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock(); !errors.Is(err, ErrLockHeld) {
		t.Fatalf("nested Lock: %v, want ErrLockHeld", err)
	}
	other, err := Open(filepath.Join(s.Root, "."))
	if err != nil {
		t.Fatal(err)
	}
	if err := other.WriteFile(".lore/x.md", []byte("x")); !errors.Is(err, ErrLockHeld) {
		t.Fatalf("WriteFile under the lock, through another Store of the same repository: %v, want ErrLockHeld", err)
	}
	unlock()
	if err := s.WriteFile(".lore/x.md", []byte("x")); err != nil {
		t.Fatalf("after unlock: %v", err)
	}
}

// The lock removes exactly the temp files of killed writes: any in the
// .lore tree, those of the files lore writes elsewhere (.gitattributes, the
// configured learnings file); a user's dot-file that ends in digits outside
// them, or in a few digits only, stays.
func TestLockSweepsStrayTempFiles(t *testing.T) {
	s := openTemp(t)
	files := map[string]string{
		".lore/config.yaml":                      "learnings: docs/learnings.md\n",
		".lore/lessons/.pytest.md8421937":        "half of a les",
		".lore/..gitignore4242424":               "cach",
		".lore/cache/.manifest7777777":           "",
		".lore/lessons/.v2":                      "a user's file",
		"..gitattributes5550123":                 "/.lore/events.jsonl merge=un",
		"docs/.learnings.md3133777":              "## half",
		".lore/lessons/.keep":                    "",
		".env2":                                  "a user's file",
		"docs/.notes.md1234567":                  "not a file lore writes",
		".lore/lessons/pytest-hangs-2.md":        "an item",
		".lore/pitfalls/PF-0001-npm-ci-wipes.md": "an item",
	}
	for rel, data := range files {
		if err := os.MkdirAll(filepath.Dir(s.Path(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path(rel), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Not the manifest's temp file in the cache: a build running beside a
	// locked write may be about to rename it.
	want := []string{"..gitattributes5550123", ".lore/..gitignore4242424", ".lore/lessons/.pytest.md8421937", "docs/.learnings.md3133777"}
	got, err := s.TempFiles()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("TempFiles = %q, %v\nwant %q", got, err, want)
	}
	unlock, err := s.Lock()
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	for rel := range files {
		_, err := os.Stat(s.Path(rel))
		swept := false
		for _, w := range want {
			swept = swept || w == rel
		}
		if swept != os.IsNotExist(err) {
			t.Errorf("%s: swept %v, but stat says %v", rel, swept, err)
		}
	}
	if got, _ := s.TempFiles(); len(got) != 0 {
		t.Fatalf("after the lock: %q", got)
	}
}

// BenchmarkLock: taking and releasing the store lock, with the sweep for
// temp files, in a store of 300 items.
func BenchmarkLock(b *testing.B) {
	root := tempRepo(b)
	s, err := Open(root)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		p := s.Path(filepath.Join(".lore", []string{"lessons", "pitfalls", "decisions"}[i%3], "item"+strconv.Itoa(i)+".md"))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		unlock, err := s.Lock()
		if err != nil {
			b.Fatal(err)
		}
		unlock()
	}
}
