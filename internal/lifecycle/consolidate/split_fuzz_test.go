package consolidate

import (
	"bytes"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// FuzzSplitDoc: the hand-written H2 reader and the splitter end on any
// document, and the parts keep every section's bytes.
func FuzzSplitDoc(f *testing.F) {
	f.Add([]byte("# T\n\n## A\na\n```\n## not\n```\n## B\nb\n"), 4)
	f.Add([]byte("## \n~~~\n## x\r\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		limit = 2 + int(uint(limit)%200)
		var secs []docSection
		var parts []part
		fuzzlimit.Run(t, func() {
			secs = h2Sections(data)
			parts = splitDoc("docs/t.md", data, limit, func(string) bool { return false })
		})
		last := 0
		for _, s := range secs {
			if s.start < last || s.end < s.start || s.end > len(data) {
				t.Fatalf("section %+v after %d in %d bytes", s, last, len(data))
			}
			last = s.start
		}
		if parts == nil {
			return
		}
		var all []byte
		for _, p := range parts {
			all = append(all, p.data...)
		}
		for _, s := range secs {
			if body := bytes.TrimSpace(data[s.start:s.end]); !bytes.Contains(all, body) {
				t.Fatalf("section %q lost by the split", body)
			}
		}
	})
}
