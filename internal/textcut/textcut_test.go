package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	const note = "\n[cut]"
	long := strings.Repeat("line of text\n", 20)
	for _, c := range []struct {
		name, s string
		max     int
		want    string
	}{
		{"fits", "short", 10, "short"},
		{"exactly", "12345", 5, "12345"},
		{"at a line", long, 60, strings.Repeat("line of text\n", 3) + "line of text" + note},
		{"one long line at a rune", strings.Repeat("é", 20), 16, strings.Repeat("é", 5) + note},
		{"no room", long, 3, note},
	} {
		got := Cut(c.s, c.max, note)
		if got != c.want {
			t.Errorf("%s: Cut = %q, want %q", c.name, got, c.want)
		}
		if len(got) > c.max && len(c.s) > c.max && c.max >= len(note) {
			t.Errorf("%s: %d bytes over the budget %d", c.name, len(got), c.max)
		}
		if !utf8.ValidString(got) {
			t.Errorf("%s: cut inside a rune: %q", c.name, got)
		}
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "",
		"  a\n\tb  c\r\n":            "a b c",
		"Mistake:\n\n  pytest hangs": "Mistake: pytest hangs",
		"één\u00a0twee":              "één twee", // a no-break space is white space too
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
