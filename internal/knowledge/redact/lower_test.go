package redact

import (
	"reflect"
	"strings"
	"testing"
)

// Runes whose lower case has another UTF-8 length (İ, the Kelvin sign, Ω,
// Ⱥ) move nothing: a text holding them is checked, and every example of
// every gitleaks rule after them is found where it is, as without them.
func TestLowerKeepsOffsets(t *testing.T) {
	for _, s := range []string{"The İstanbul office.", "273 \u212A is cold.", "5 \u2126 and \u023a"} {
		if spans, err := Find(s); err != nil || len(spans) != 0 {
			t.Errorf("Find(%q) = %v, %v; want nothing and no error", s, spans, err)
		}
		if l := lowerAligned(s); len(l) != len(s) {
			t.Errorf("lowerAligned(%q) is %d bytes, want %d", s, len(l), len(s))
		}
	}
	const before = "İstanbul \u212A\u212A \u2126 \u023a: "
	for _, ex := range readGitleaksExamples(t, true) {
		want, err := Find(ex.Text)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Find(before + ex.Text)
		if err != nil {
			t.Fatalf("%s: %v", ex.Rule, err)
		}
		for i := range want {
			want[i].Start += len(before)
			want[i].End += len(before)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s after runes that change length: %v, want %v", ex.Rule, got, want)
		}
	}
	// A keyword spelled with the Kelvin sign is still a keyword, as it is
	// to the rules' case-insensitive patterns.
	s := "api_\u212Aey = \"aB3dE5fG7hJ9kL1mN3pQ\""
	if spans, err := Find(s); err != nil || len(spans) == 0 || !strings.Contains(s[spans[0].Start:spans[0].End], "aB3dE5fG7hJ9kL1mN3pQ") {
		t.Errorf("Find(%q) = %v, %v: the value is not found", s, spans, err)
	}
}

// lowerASCII is strings.ToLower on every ASCII text, whatever byte sits
// at whatever place of an eight-byte step or the tail after the last, and
// refuses any text holding a byte of 0x80 or more there.
func TestLowerASCIIIsToLower(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for at := 0; at < n; at++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("aZ@[`{09", 3)[:n])
				b[at] = byte(c)
				got, ok := lowerASCII(string(b))
				if c >= 0x80 {
					if ok {
						t.Fatalf("lowerASCII(%q) accepted byte %#x", b, c)
					}
					continue
				}
				if want := strings.ToLower(string(b)); !ok || got != want {
					t.Fatalf("lowerASCII(%q) = %q, %v; want %q", b, got, ok, want)
				}
			}
		}
	}
	if got, ok := lowerASCII(""); !ok || got != "" {
		t.Errorf(`lowerASCII("") = %q, %v`, got, ok)
	}
}
