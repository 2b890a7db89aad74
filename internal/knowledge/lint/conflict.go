package lint

import (
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// checkConflicts flags each line of git's merge conflict markers
// (docs/design.md, What a reviewer cannot see). An item with one is not
// compiled, so neither side of the conflict reaches an agent.
func checkConflicts(p string, data []byte) []Finding {
	var out []Finding
	for _, l := range markdown.ConflictMarkers(data) {
		out = append(out, Finding{Path: p, Line: l, Key: "conflict",
			Msg: "unresolved git merge conflict marker: keep one side or both, and delete the <<<<<<<, ======= and >>>>>>> lines", Severity: Error})
	}
	return out
}
