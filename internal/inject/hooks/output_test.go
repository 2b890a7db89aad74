package hooks

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

var outputSeeds = []string{
	"", "plain ASCII text\nwith lines\tand tabs", "quote \" and \\ backslash",
	"ctrl \x00\x01\x1f\x7f and \r\n", "bidi \u202e override \u200b zero width \ufeff",
	"line sep \u2028 para \u2029", "bad \xff\xfe utf8 \xe2\x82", "literal \ufffd replacement",
	"日本語のテキスト", "emoji 🙂 and tag \U000e0041", "\x80", "a\u0085b\u009fc",
}

// jsonString writes what the rune-by-rune loop it replaced wrote, and
// its output is JSON that reads back as s, each invalid byte as U+FFFD,
// with no raw control character, U+2028 or U+2029 in it.
func FuzzJSONString(f *testing.F) {
	for _, s := range outputSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := jsonString(s)
		if want := jsonStringByRune(s); got != want {
			t.Fatalf("jsonString(%q) = %s, rune by rune %s", s, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != string([]rune(s)) {
			t.Fatalf("jsonString(%q) = %s reads back as %q (%v)", s, got, back, err)
		}
		if strings.ContainsAny(got, "\u2028\u2029") || strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 }) {
			t.Fatalf("jsonString(%q) = %q holds a raw control or separator", s, got)
		}
	})
}

// jsonStringByRune is jsonString as it was, rune by rune.
func jsonStringByRune(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r >= 0x20 && r != '"' && r != '\\' && r != 0x2028 && r != 0x2029 && r != utf8.RuneError {
			b.WriteRune(r)
			continue
		}
		writeEscaped(&b, r)
	}
	b.WriteByte('"')
	return b.String()
}

// clean agrees with the rune-by-rune loop it replaced, and sanitize leaves
// a clean text as it is.
func FuzzClean(f *testing.F) {
	for _, s := range outputSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := true
		for _, r := range s {
			if r == utf8.RuneError || dropRune(r) {
				want = false
				break
			}
		}
		if got := clean(s); got != want {
			t.Fatalf("clean(%q) = %v, rune by rune %v", s, got, want)
		}
		if want && sanitize(s) != s {
			t.Fatalf("sanitize changed the clean %q", s)
		}
	})
}
