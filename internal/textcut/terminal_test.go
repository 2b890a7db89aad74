package textcut

import "testing"

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
