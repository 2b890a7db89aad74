package observe

import (
	"fmt"
	"path/filepath"
	"strings"
)

// RepoEvidence makes the paths in evidence repo-relative: the log is
// committed when shared, and rendered artifacts quote it, so no absolute
// path or home folder may reach them (docs/design.md, Rendered artifacts
// go through review). A word that is a path (absolute, or under ~, with
// an optional :line) under root becomes relative to it; one outside the
// repository is refused, naming the evidence.
func RepoEvidence(root, home string, evidence []string) ([]string, error) {
	out := make([]string, len(evidence))
	for i, e := range evidence {
		words := strings.Fields(e)
		for j, w := range words {
			rel, err := repoWord(root, home, w)
			if err != nil {
				return nil, fmt.Errorf("evidence %q: %w", e, err)
			}
			words[j] = rel
		}
		out[i] = strings.Join(words, " ")
	}
	return out, nil
}

// repoWord is w with a path in it made relative to root.
func repoWord(root, home, w string) (string, error) {
	p, line := w, ""
	if k := strings.LastIndexByte(w, ':'); k > 0 && strings.Trim(w[k+1:], "0123456789") == "" {
		p, line = w[:k], w[k:]
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", fmt.Errorf("%s is in the home folder, outside the repository: give a repo-relative path", p)
		}
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	case !filepath.IsAbs(p):
		return w, nil
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository: give a repo-relative path, or leave the path out", w)
	}
	return filepath.ToSlash(rel) + line, nil
}
