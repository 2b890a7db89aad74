package scan

import (
	"path/filepath"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// A structured lesson is the candidate the same #lesson block in a
// transcript makes: same hash (so it deduplicates against scan drafts and
// rejections), fields and priority.
func TestLessonIsTheBlock(t *testing.T) {
	dir := t.TempDir()
	testrepo.WriteFile(t, filepath.Join(dir, "s.jsonl"), lessonLine("s1", "make ran 8 jobs and the linker ran out of memory"))
	res, err := scanDir(t, dir, nil)
	if err != nil || len(res.Candidates) != 1 {
		t.Fatalf("scan: %v %+v", err, res)
	}
	want := res.Candidates[0]
	got, err := Lesson(map[string]string{"tool": "Bash", "trigger": "make",
		"mistake": "make ran 8 jobs and the linker ran out of memory", "fix": "make -j1"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash != want.Hash || got.Title != want.Title || got.Trigger != want.Trigger || got.Priority != want.Priority || got.Tier != 1 {
		t.Errorf("Lesson: %+v\nthe block: %+v", got, want)
	}
	if _, err := Lesson(map[string]string{"title": "only a title"}, Options{}); err == nil {
		t.Error("a lesson without mistake or fix was accepted")
	}
}
