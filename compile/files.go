package compile

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lore-agents/lore/manifest"
	"github.com/lore-agents/lore/markdown"
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
			data, err := os.ReadFile(filepath.Join(dir, folder, e.Name()))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			it, err := markdown.Parse(display+"/"+folder+"/"+e.Name(), data)
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

// Fingerprint hashes the name, size, mode and modification time of every
// file under the given folders (skipping any folder named "cache" directly
// under one of them), with the manifest version and compile revision. It
// reads no file: `lore build` compares it with the last build's to return
// at once when nothing changed. Missing folders count as empty.
func Fingerprint(dirs ...string) (string, error) {
	h := sha256.New()
	h.Write([]byte("lore fingerprint " + Revision + "\n"))
	var b []byte
	for _, root := range dirs {
		h.Write([]byte(root + "\x00"))
		var rows []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == root {
					return filepath.SkipAll
				}
				return err
			}
			if d.IsDir() && d.Name() == "cache" && filepath.Dir(p) == root {
				return filepath.SkipDir
			}
			if d.IsDir() {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			b = b[:0]
			b = binary.LittleEndian.AppendUint64(b, uint64(fi.Size()))
			b = binary.LittleEndian.AppendUint64(b, uint64(fi.ModTime().UnixNano()))
			b = binary.LittleEndian.AppendUint32(b, uint32(fi.Mode()))
			rows = append(rows, p+"\x00"+string(b))
			return nil
		})
		if err != nil {
			return "", err
		}
		sort.Strings(rows)
		for _, r := range rows {
			h.Write([]byte(r))
		}
	}
	binary.Write(h, binary.LittleEndian, uint32(manifest.Version))
	return hex.EncodeToString(h.Sum(nil)), nil
}
