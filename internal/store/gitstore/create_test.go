package gitstore

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// A draft is named by the finding's title (not the item's stand-in), takes
// the next PF- number and a free name, and is written as built even when
// the item would not validate (review and lint report it).
func TestCreateDraftLocked(t *testing.T) {
	s := openTemp(t)
	if err := s.WriteFile(".lore/pitfalls/PF-0002-disk-full.md", compose(t, markdown.KindPitfall, "Disk full", "PF-0002")); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteFile(".lore/lessons/item.md", compose(t, markdown.KindLesson, "Item", "")); err != nil {
		t.Fatal(err)
	}
	unlock, err := s.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	var got []string
	create := func(kind, title string, build func(ref string) []byte) {
		rel, data, err := s.CreateDraftLocked(kind, title, func(ref string) ([]byte, error) { return build(ref), nil })
		if err != nil {
			t.Fatalf("draft %q: %v", title, err)
		}
		if disk, err := os.ReadFile(s.Path(rel)); err != nil || !bytes.Equal(disk, data) {
			t.Fatalf("draft %q: %s on disk is not what it returned (%v)", title, rel, err)
		}
		got = append(got, rel)
	}
	create(markdown.KindPitfall, "Disk full", func(ref string) []byte { return compose(t, markdown.KindPitfall, "Disk full", ref) })
	// A blank finding title: the item says "Untitled ...", the file is item.md, taken.
	create(markdown.KindLesson, " ", func(string) []byte { return compose(t, markdown.KindLesson, "Untitled lesson from x", "") })
	invalid := bytes.Replace(compose(t, markdown.KindLesson, "Bad", ""), []byte("status: draft"), []byte("status: nonsense"), 1)
	if it, err := markdown.Parse("x.md", invalid); err != nil || len(markdown.Validate(it)) == 0 {
		t.Fatalf("the invalid draft validates: %v", err)
	}
	create(markdown.KindLesson, "Bad", func(string) []byte { return invalid })
	want := []string{".lore/pitfalls/PF-0003-disk-full.md", ".lore/lessons/item-2.md", ".lore/lessons/bad.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("drafts %q, want %q", got, want)
	}
}
