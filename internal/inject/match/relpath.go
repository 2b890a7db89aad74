package match

import (
	"path/filepath"
	"strings"
)

// RelPath makes p relative to root (p may be relative to cwd). A path
// outside the repository has no repo-relative form: "".
// The hook and lore match both use it, so they agree on every path.
func RelPath(root, cwd, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		base := cwd
		if base == "" {
			base = root
		}
		p = filepath.Join(base, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}
