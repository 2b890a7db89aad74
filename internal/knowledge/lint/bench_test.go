package lint

import (
	"fmt"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// BenchmarkSafety is what lore build now pays per item for leaving unsafe
// items out: a lesson of ordinary length.
func BenchmarkSafety(b *testing.B) {
	it, err := markdown.Parse("x.md", []byte(fmt.Sprintf("---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: Push tags\nstatus: active\npriority: critical\nenforce: deny\ntriggers:\n  tools: [Bash]\n  commands: ['^git push --tags']\n---\n\n## Mistake\n%s\n\n## Fix\n%s\n",
		"Ran the thing wrong; it took a long time and broke the build for everyone in the team.",
		"Run it with the right flags: git push --tags origin v1, then check the CI result page, and curl the status API.")))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if fs := Safety(it); len(fs) != 0 {
			b.Fatal(fs)
		}
	}
}
