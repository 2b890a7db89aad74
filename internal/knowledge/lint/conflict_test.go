package lint

import (
	"fmt"
	"testing"
)

// TestConflictMarkersAreErrors: a conflict in an item's body fails lint
// at each marker line, as does one in learnings.md; a Setext heading's
// ======= is no marker.
func TestConflictMarkersAreErrors(t *testing.T) {
	item := "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: t\nstatus: active\n---\n\n## Fix\n<<<<<<< HEAD\nUse -j1.\n=======\nUse -j8.\n>>>>>>> feature\n"
	learnings := "# Learnings\n\n\n\n\n\n\n\n\n\n## Tool batching\nText.\n<<<<<<< HEAD\n## From main\n=======\n## From the branch\n>>>>>>> b\n\nSetext\n=======\n"
	fs := Check(Store{Items: []File{{Path: ".lore/lessons/t.md", Data: []byte(item)}},
		Learnings: &File{Path: ".lore/learnings.md", Data: []byte(learnings)}})
	var got []string
	for _, f := range fs {
		if f.Key == "conflict" && f.Severity == Error {
			got = append(got, fmt.Sprintf("%s:%d", f.Path, f.Line))
		}
	}
	want := "[.lore/learnings.md:13 .lore/learnings.md:15 .lore/learnings.md:17 .lore/lessons/t.md:9 .lore/lessons/t.md:11 .lore/lessons/t.md:13]"
	if fmt.Sprint(got) != want {
		t.Fatalf("conflict findings %v, want %v\nall: %v", got, want, fs)
	}
}
