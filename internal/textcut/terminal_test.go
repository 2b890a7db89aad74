package textcut

import (
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// TestStripTerminal: each form a terminal acts on is taken out whole,
// leaving what a reader of the terminal saw.
func TestStripTerminal(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttext\nline two":                                    "plain\ttext\nline two",
		"ok \x1b[8mhidden instructions\x1b[0m done":                "ok hidden instructions done",
		"\x1b[1;31merror\x1b[m: x":                                 "error: x",
		"see \x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\": "see docs",
		"title \x1b]0;owned\x07rest":                               "title rest",
		"safe\rmalicious":                                          "safemalicious",
		"rm -rf /tmp/x\b\b\b\b\b\b\b\b\b\b\b\bls":                  "rm -rf /tmp/xls",
		"crlf\r\nline":                                             "crlf\nline",
		"c1 \u009b8mcsi\u009b0m and \u009d8;;u\u009cosc":           "c1 csi and osc",
		"esc keypad \x1b= and reset \x1bc and charset \x1b(B.":     "esc keypad  and reset  and charset .",
		"cut \x1b[12":                                              "cut ",
		"trailing \x1b":                                            "trailing ",
		"del\x7f and bell\x07":                                     "del and bell",
		"unicode ✓ stays":                                          "unicode ✓ stays",
	} {
		if got := StripTerminal(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// FuzzStripTerminal: any text comes back with no control character but
// line feed and tab, stripping again changes nothing, text without
// controls is kept as it is, and no input makes it loop.
func FuzzStripTerminal(f *testing.F) {
	for _, s := range []string{"ok \x1b[8mx\x1b[0m", "\x1b]8;;u\x1b\\t\x1b]8;;\x07", "a\rb\bc", "\u009b1m\u009d0;t\u009c", "\x1b", "\x1b[", "\x1b(", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var out, again string
		fuzzlimit.Run(t, func() { out = StripTerminal(s); again = StripTerminal(out) })
		if hasControl(out) || again != out {
			t.Fatalf("%q -> %q -> %q", s, out, again)
		}
		if !hasControl(s) && out != s {
			t.Fatalf("%q changed to %q", s, out)
		}
	})
}
