package markdown

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"pytest hangs without a TTY":    "pytest-hangs-without-a-tty",
		"`go test` fails: undefined: x": "go-test-fails-undefined-x",
		"":                              "item",
		"!!!":                           "item",
		strings.Repeat("very long words in a title ", 5): "very-long-words-in-a-title-very-long-words-in-a-title-very",
		strings.Repeat("x", 70):                          strings.Repeat("x", 60),
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRefs(t *testing.T) {
	for in, want := range map[string]int{"PF-0012-disk.md": 12, "ADR-0003": 3, "PF-1": 1, "lesson.md": 0, "xPF-0002": 0, "": 0} {
		if got := RefNumber(in); got != want {
			t.Errorf("RefNumber(%q) = %d, want %d", in, got, want)
		}
	}
	if got := FormatRef(KindPitfall, 7); got != "PF-0007" {
		t.Errorf("FormatRef(pitfall, 7) = %q", got)
	}
	if got := FormatRef(KindDecision, 12345); got != "ADR-12345" {
		t.Errorf("FormatRef(decision, 12345) = %q", got)
	}
	if got := FormatRef(KindLesson, 1); got != "" {
		t.Errorf("FormatRef(lesson, 1) = %q, want none", got)
	}
}

// TestFreeName: a name is free unless a file has it on disk or a caller's
// pending set (files planned, not yet written) holds it; the suffix goes
// before .md, or at the end of a name without it (a skill's folder).
func TestFreeName(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.md", "a-2.md", "b.md", "skill"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pending := map[string]bool{"d/a-3.md": true, "d/c.md": true}
	onDisk := func(rel string) bool {
		_, err := os.Lstat(filepath.Join(dir, path.Base(rel)))
		return err == nil
	}
	either := func(rel string) bool { return onDisk(rel) || pending[rel] }
	for _, tc := range []struct {
		what, name string
		taken      func(string) bool
		want       string
	}{
		{"free", "new.md", either, "d/new.md"},
		{"on disk", "b.md", onDisk, "d/b-2.md"},
		{"pending", "c.md", func(rel string) bool { return pending[rel] }, "d/c-2.md"},
		{"on disk, then pending", "a.md", either, "d/a-4.md"},
		{"no .md", "skill", onDisk, "d/skill-2"},
	} {
		if got := FreeName("d", tc.name, tc.taken); got != tc.want {
			t.Errorf("%s: FreeName(d, %s) = %s, want %s", tc.what, tc.name, got, tc.want)
		}
	}
}
