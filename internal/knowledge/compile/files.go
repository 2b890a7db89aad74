package compile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// GlobalDir is the user's global store: $XDG_CONFIG_HOME/lore (the
// platform's config folder elsewhere), or "" when there is none.
func GlobalDir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "lore")
}

// LoadDir reads the items of a store folder laid out like .lore/ (lessons/,
// pitfalls/, decisions/). Paths are shown as display+"/"+folder+"/"+name.
// A missing folder is an empty store; files that cannot be parsed are
// returned as errors and skipped.
func LoadDir(dir, display string) ([]*markdown.Item, []error) {
	var items []*markdown.Item
	var errs []error
	for _, kind := range markdown.Kinds {
		folder := markdown.Folder(kind)
		entries, err := os.ReadDir(filepath.Join(dir, folder))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			it, err := ReadItem(filepath.Join(dir, folder, e.Name()), display+"/"+folder+"/"+e.Name())
			if err != nil {
				errs = append(errs, err)
				continue
			}
			items = append(items, it)
		}
	}
	return items, errs
}

// DisplayPath shows a path under the home folder as ~/...
func DisplayPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}
