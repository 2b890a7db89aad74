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
	for _, key := range []string{"tool:", "trigger:", "mistake:", "fix:", "tags:", "priority:"} {
		if strings.Count(Text, "\n"+key) != 2 {
			t.Errorf("%q is not in both the template and the example", key)
		}
	}
}

func TestStripHookContext(t *testing.T) {
	for in, want := range map[string]string{
		"plain prompt": "plain prompt",
		"<hook_context>## Lesson reporting protocol\n&lt;!-- lore --&gt;</hook_context>\n\ncut a release": "cut a release",
		"<hook_context>a</hook_context><hook_context>b</hook_context>\nfix it":                            "fix it",
		"before <hook_context>x</hook_context> after":                                                     "before  after",
		"<hook_context>never closed, release":                                                             "<hook_context>never closed, release",
	} {
		if got := StripHookContext(in); got != want {
			t.Errorf("StripHookContext(%q) = %q, want %q", in, got, want)
		}
	}
}
