package lint

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/synthetic"
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

// BenchmarkSafetyStore is Safety over the items of a 10,000-item store
// shaped like a real one (internal/synthetic): what a cold lore build
// pays for its safety checks (docs/design.md, Incremental build). One op
// is the whole store.
func BenchmarkSafetyStore(b *testing.B) {
	items := syntheticItems(b, 10000)
	b.ResetTimer()
	for b.Loop() {
		for _, it := range items {
			if fs := Safety(it); len(fs) != 0 {
				b.Fatal(fs)
			}
		}
	}
}

// syntheticItems parses a synthetic store of n items, in path order.
func syntheticItems(tb testing.TB, n int) []*markdown.Item {
	files := synthetic.Files(n)
	paths := slices.Sorted(maps.Keys(files))
	items := make([]*markdown.Item, 0, len(paths))
	for _, p := range paths {
		it, err := markdown.Parse(p, files[p])
		if err != nil {
			tb.Fatal(err)
		}
		items = append(items, it)
	}
	return items
}
