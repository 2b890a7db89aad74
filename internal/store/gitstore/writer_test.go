package gitstore

import (
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// A Recorder names the items it is asked to create, and the files it is
// asked to write, as the store does when it writes them (PF- numbers kept
// when free, else the next; -2 for a taken name, its own recorded files
// counting), and writes nothing.
func TestRecorderNamesWhatTheStoreWrites(t *testing.T) {
	s := openTemp(t)
	if err := s.WriteFile(".lore/pitfalls/PF-0002-old.md", compose(t, markdown.KindPitfall, "Old", "PF-0002")); err != nil {
		t.Fatal(err)
	}
	before := names(t, s)
	dry := apply(t, NewRecorder(s))
	if after := names(t, s); !reflect.DeepEqual(after, before) {
		t.Fatalf("the recorder wrote: %q, was %q", after, before)
	}
	unlock, err := s.Lock()
	if err != nil {
		t.Fatal(err)
	}
	real := apply(t, s)
	unlock()
	want := []string{
		".lore/pitfalls/PF-0003-taken-number.md", ".lore/pitfalls/PF-0007-free-number.md", ".lore/pitfalls/PF-0008-no-number.md",
		".lore/lessons/same.md", ".lore/lessons/same-2.md", ".lore/lessons/written-2.md",
	}
	if !reflect.DeepEqual(dry, want) || !reflect.DeepEqual(real, want) {
		t.Fatalf("recorder %q\nstore    %q\nwant     %q", dry, real, want)
	}
}

// apply creates and writes a fixed sequence through w; it returns the
// paths of the items created.
func apply(t *testing.T, w Writer) []string {
	t.Helper()
	var out []string
	create := func(kind, want, title string) {
		rel, it, err := w.CreateLocked(kind, want, func(ref string) ([]byte, error) { return compose(t, kind, title, ref), nil })
		if err != nil || it.Path != rel {
			t.Fatalf("create %s %q: %v (%v)", kind, title, err, it)
		}
		out = append(out, rel)
	}
	create(markdown.KindPitfall, "PF-0002", "Taken number")
	create(markdown.KindPitfall, "PF-0007", "Free number")
	create(markdown.KindPitfall, "", "No number")
	create(markdown.KindLesson, "", "Same")
	create(markdown.KindLesson, "", "Same")
	if err := w.WriteLocked(".lore/lessons/written.md", compose(t, markdown.KindLesson, "Written", "")); err != nil {
		t.Fatal(err)
	}
	create(markdown.KindLesson, "", "Written")
	return out
}

func compose(t *testing.T, kind, title, ref string) []byte {
	t.Helper()
	section := map[string]string{markdown.KindLesson: "Fix", markdown.KindPitfall: "Issue"}[kind]
	spec := markdown.Spec{Kind: kind, Title: title, Status: "draft", Body: "## " + section + "\nsomething\n"}
	data, err := spec.Compose(ulid.Make().String(), ref, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// names lists the files under .lore, but the cache.
func names(t *testing.T, s *Store) []string {
	t.Helper()
	files, err := s.ItemFiles()
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return files
}
