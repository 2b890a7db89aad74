package protocol

import (
	"strings"
	"testing"
)

// The text holds the block format (placeholders) and one filled example,
// both well formed: the scanner derives what to ignore from them.
func TestTextHasTemplateAndExample(t *testing.T) {
	if n := strings.Count(Text, "\n#lesson\n"); n != 2 {
		t.Fatalf("%d #lesson blocks, want the template and the example", n)
	}
	if n := strings.Count(Text, "\n#/lesson\n"); n != 2 {
		t.Fatalf("%d #/lesson closers, want 2", n)
	}
	for _, key := range []string{"tool:", "trigger:", "mistake:", "fix:", "tags:"} {
		if strings.Count(Text, "\n"+key) != 2 {
			t.Errorf("%q is not in both the template and the example", key)
		}
	}
}
