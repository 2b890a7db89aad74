package compile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/parallel"
)

// Scope is where an item comes from (docs/design.md, Scopes and
// organisation stores); on equal scores a lower scope comes first.
type Scope uint8

// The scopes, in precedence order.
const (
	Project Scope = iota // the repository's .lore/
	Org                  // an organisation store a config names, fetched by lore sync
	User                 // the user's own store
)

func (s Scope) String() string { return [...]string{"project", "org", "user"}[s] }

// Store is one store besides the project's: an organisation source or the
// user's own. Its items' paths are Name + ":" + their path in the store
// (acme:lessons/x.md, user:lessons/y.md), which names their origin.
type Store struct {
	Scope Scope
	Name  string // the source's name, or "user"
	Dir   string // the folder read, laid out like .lore/ ("" when never fetched)
	// State is the file whose change makes the manifest stale (a source's
	// HEAD, the user's config), "" for none, and Stat its stat taken
	// before the store was resolved from it: a change in between makes
	// the manifest stale, never wrongly fresh.
	State string
	Stat  manifest.Stat
	// Commit is the source's checkout in Dir ("" for the user's store).
	Commit string
	// Lost is the store folder of the checkout HEAD names when the cache
	// lost it (Dir is then ""): the manifest watches it, so its return (a
	// sync in any repository naming the source) makes the manifest stale.
	Lost  string
	Items []*markdown.Item
	// Part is the source compiled on its own (a build that writes its
	// manifest): its items are not in Items and its files are not
	// watched, since a checkout never changes.
	Part *Part
}

// UserDir is the user's own store: $XDG_CONFIG_HOME/lore (the
// platform's config folder elsewhere), or "" when there is none.
func UserDir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "lore")
}

// LoadDir reads the items of a store folder laid out like .lore/ (lessons/,
// pitfalls/, decisions/). Paths are origin+":"+folder+"/"+name.
// A missing folder is an empty store; files that cannot be parsed are
// returned as errors and skipped.
func LoadDir(dir, origin string) ([]*markdown.Item, []error) {
	files, errs := ListDir(dir, origin)
	items, read := parallel.Map(len(files), func(i int) (*markdown.Item, error) { return ReadItem(files[i].Abs, files[i].Path) })
	return items, append(errs, read...)
}

// File is an item file a build reads: where it is, and its path as
// loaded (repo-relative, or origin:folder/name).
type File struct{ Abs, Path string }

// ListDir lists the item files of a store folder laid out like .lore/,
// as LoadDir reads them; a folder that cannot be read is an error.
func ListDir(dir, origin string) ([]File, []error) {
	var files []File
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
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
				files = append(files, File{Abs: filepath.Join(dir, folder, e.Name()), Path: origin + ":" + folder + "/" + e.Name()})
			}
		}
	}
	return files, errs
}
