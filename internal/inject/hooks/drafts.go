package hooks

import (
	"bytes"
	"io"
	"os"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// onlyDrafts says the manifest is stale only because draft files were
// added (a scan's drafts landing mid-session) while drafts are not
// injected: the manifest still answers a tool call exactly, so the call
// need not wait for the rebuild (docs/design.md, Incremental build).
func (h *handler) onlyDrafts(m *manifest.Manifest) bool {
	if m.Settings().Drafts {
		return false
	}
	added, err := m.Added(h.root)
	if err != nil || len(added) == 0 {
		return false
	}
	for _, p := range added {
		if !isDraft(manifest.Watched{Path: p}.Abs(h.root)) {
			return false
		}
	}
	return true
}

// draftHead is how much of a file isDraft reads: a draft's frontmatter
// fits well within it; a longer one is not called a draft.
const draftHead = 4 << 10

// isDraft says the file's frontmatter has exactly one top-level status
// key and it is draft or proposed. It reads no YAML (the hook links no
// YAML decoder) and errs towards "no", which only costs the wait.
func isDraft(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, draftHead))
	if err != nil {
		return false
	}
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	lines := bytes.Split(bytes.ReplaceAll(head, []byte("\r\n"), []byte("\n")), []byte("\n"))
	if len(lines) < 2 || string(lines[0]) != "---" {
		return false
	}
	status, n := "", 0
	for _, l := range lines[1 : len(lines)-1] { // the last line may be cut short
		if string(bytes.TrimRight(l, " \t")) == "---" {
			return n == 1 && (status == "draft" || status == "proposed")
		}
		if v, ok := bytes.CutPrefix(l, []byte("status:")); ok {
			v, _, _ = bytes.Cut(v, []byte(" #"))
			status, n = string(bytes.Trim(bytes.TrimSpace(v), `"'`)), n+1
		}
	}
	return false
}
