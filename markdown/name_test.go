package markdown

import (
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
