package gitstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An older lore's state in the cache moves to .lore/local on first use,
// and an existing .lore/.gitignore learns to ignore local/ once.
func TestLocalMovesStateOutOfTheCache(t *testing.T) {
	root := tempRepo(t)
	if err := os.MkdirAll(filepath.Join(root, ".lore", "cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{".lore/.gitignore": "cache/\n", ".lore/cache/scan-bookmarks.json": "{}\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		rel, err := s.Local("scan-bookmarks.json")
		if err != nil || rel != ".lore/local/scan-bookmarks.json" {
			t.Fatalf("%q %v", rel, err)
		}
	}
	if data, err := os.ReadFile(s.Path(".lore/local/scan-bookmarks.json")); err != nil || string(data) != "{}\n" {
		t.Fatalf("moved: %q %v", data, err)
	}
	if _, err := os.Stat(s.Path(".lore/cache/scan-bookmarks.json")); !os.IsNotExist(err) {
		t.Fatalf("left in the cache: %v", err)
	}
	gi, _ := os.ReadFile(s.Path(".lore/.gitignore"))
	if strings.Count(string(gi), "\nlocal/\n") != 1 {
		t.Fatalf(".gitignore: %q", gi)
	}
}
