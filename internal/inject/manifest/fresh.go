package manifest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/lorepath"
)

// Stat is what a freshness check compares of a source file or folder. The
// change time catches what the modification time can miss (a tool that
// sets mtime back, cp -p); the inode catches a file replaced by rename; a
// folder's times change when an entry is added, removed or renamed, which
// is how git writes every file it checks out (unlink, then create).
type Stat struct {
	Ino, Size    uint64
	Mtime, Ctime int64 // nanoseconds since the epoch
	Dir, Absent  bool
}

// Watched is a source path and its stat when the manifest was built: path
// slash-separated and relative to the work tree root, or absolute (the
// user's store, a fetched source's HEAD and checkout).
type Watched struct {
	Path string
	Stat Stat
}

// Abs resolves a watched path against the work tree root.
func (w Watched) Abs(root string) string {
	if filepath.IsAbs(w.Path) {
		return w.Path
	}
	return filepath.Join(root, filepath.FromSlash(w.Path))
}

const (
	entryDir    = 1
	entryAbsent = 2
	entryStat   = 32 // ino, size, mtime, ctime
)

// encodeFresh returns the watched entries, the file entries and each
// file's entry offset in the latter.
func encodeFresh(src Source) (watch, files []byte, fileOffs []uint32) {
	for _, w := range src.Watch {
		watch = appendEntry(watch, w)
	}
	fileOffs = make([]uint32, len(src.Files))
	for i, w := range src.Files {
		fileOffs[i] = uint32(len(files))
		files = appendEntry(files, w)
	}
	return watch, files, fileOffs
}

// appendEntry: flags byte, path (uvarint length, bytes), the stat, and a
// checksum of all of it.
func appendEntry(p []byte, w Watched) []byte {
	start := len(p)
	var flags byte
	if w.Stat.Dir {
		flags |= entryDir
	}
	if w.Stat.Absent {
		flags |= entryAbsent
	}
	p = append(p, flags)
	p = appendString(p, w.Path)
	le := binary.LittleEndian
	p = le.AppendUint64(p, w.Stat.Ino)
	p = le.AppendUint64(p, w.Stat.Size)
	p = le.AppendUint64(p, uint64(w.Stat.Mtime))
	p = le.AppendUint64(p, uint64(w.Stat.Ctime))
	return le.AppendUint32(p, sum32(p[start:]))
}

// entry decodes the source entry at off in sec (the watch or the files
// section) and returns the offset after it.
func entry(sec []byte, off int) (Watched, int, error) {
	if off < 0 || off >= len(sec) {
		return Watched{}, 0, errf("source entry out of range")
	}
	d := decoder{b: sec[off:]}
	flags := d.byte()
	path := d.str()
	st := d.take(entryStat)
	crc := d.u32()
	if d.bad {
		return Watched{}, 0, errf("source entry at %d is truncated", off)
	}
	n := len(sec) - off - len(d.b)
	if sum32(sec[off:off+n-4]) != crc {
		return Watched{}, 0, errf("source entry at %d: checksum mismatch", off)
	}
	le := binary.LittleEndian
	return Watched{Path: path, Stat: Stat{
		Ino: le.Uint64(st), Size: le.Uint64(st[8:]),
		Mtime: int64(le.Uint64(st[16:])), Ctime: int64(le.Uint64(st[24:])),
		Dir: flags&entryDir != 0, Absent: flags&entryAbsent != 0,
	}}, off + n, nil
}

// changed stats the entries of sec and returns the path of the first one
// that differs from the build, "" when none.
func changed(root string, sec []byte) (string, error) {
	for off := 0; off < len(sec); {
		w, next, err := entry(sec, off)
		if err != nil {
			return "", err
		}
		if StatPath(w.Abs(root)) != w.Stat {
			return w.Path, nil
		}
		off = next
	}
	return "", nil
}

// Changed checks the watched folders and files (a few stat calls, cheap
// enough for every hook call) and returns the first source path that
// changed since the build, "" when none did. Files rewritten in place are
// not seen here: see ItemChanged and ChangedAny.
func (m *Manifest) Changed(root string) (string, error) {
	return changed(root, m.watch)
}

// ChangedAny is Changed plus every item file (one stat per item).
func (m *Manifest) ChangedAny(root string) (string, error) {
	if p, err := changed(root, m.watch); p != "" || err != nil {
		return p, err
	}
	return changed(root, m.files)
}

// ItemChanged checks the files an item returned by Item was compiled from,
// so that a file edited in place is never injected from its old text. An
// item of a part never changed: a part is compiled from a fetched
// source's checkout, which a new commit replaces by another folder (and
// another part), never edits. it must come from m: its source offsets
// index m's files.
func (m *Manifest) ItemChanged(root string, it Item) (string, error) {
	if m.part {
		return "", nil
	}
	for _, off := range it.srcOffs {
		w, _, err := entry(m.files, int(off))
		if err != nil {
			return "", err
		}
		if StatPath(w.Abs(root)) != w.Stat {
			return w.Path, nil
		}
	}
	return "", nil
}

// WatchedNamed returns the watched entries whose last path element is
// name, with their stat at build time.
func (m *Manifest) WatchedNamed(name string) ([]Watched, error) {
	var out []Watched
	for off := 0; off < len(m.watch); {
		w, next, err := entry(m.watch, off)
		if err != nil {
			return out, err
		}
		if path.Base(w.Path) == name {
			out = append(out, w)
		}
		off = next
	}
	return out, nil
}

// Revision is the compiler revision the manifest was built by.
func (m *Manifest) Revision() uint32 { return m.rev }

// Check reports why the manifest of the work tree at root cannot be used
// as it is: "" when it is fresh, else "missing", "corrupt: ...", "stale:
// built by compiler revision N", "stale: <path> changed" or "stale: " and
// why a part is missing. It verifies every checksum and stats every source
// (lore doctor).
func Check(root string, revision uint32) string {
	m, err := Open(filepath.Join(root, filepath.FromSlash(lorepath.Manifest)))
	switch {
	case errors.Is(err, ErrPartMissing):
		return "stale: " + err.Error()
	case errors.Is(err, fs.ErrNotExist):
		return "missing"
	case err != nil:
		return "corrupt: " + err.Error()
	}
	defer m.Close()
	return m.Stale(root, revision)
}

// Stale is Check on a manifest already opened (lore build parses the bytes
// it read, so a manifest rewritten in place cannot fault it): "" when m
// was built by revision, every checksum holds and no source changed.
func (m *Manifest) Stale(root string, revision uint32) string {
	if m.Revision() != revision {
		return fmt.Sprintf("stale: built by compiler revision %d", m.Revision())
	}
	// The stats first: they stop at the first change, where checking every
	// record first cost a one-file build at 10,000 items 20 ms for nothing.
	p, err := m.ChangedAny(root)
	if err != nil {
		return "corrupt: " + err.Error()
	}
	if p != "" {
		return fmt.Sprintf("stale: %s changed", p)
	}
	if err := m.Verify(); err != nil {
		return "corrupt: " + err.Error()
	}
	return ""
}

// Added returns the .md files that appeared in the watched folders since
// the build, as watched paths, when that is all that changed: nil when a
// watched file (config, learnings, the edit mark) or any item file the
// manifest lists changed or went away, or when nothing was added. It
// stats every item file and lists the changed folders: for a hook call
// that would otherwise wait for a rebuild (docs/design.md, Incremental
// build).
func (m *Manifest) Added(root string) ([]string, error) {
	if p, err := changed(root, m.files); p != "" || err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	for off := 0; off < len(m.files); {
		w, next, err := entry(m.files, off)
		if err != nil {
			return nil, err
		}
		listed[w.Path], off = true, next
	}
	var added []string
	for off := 0; off < len(m.watch); {
		w, next, err := entry(m.watch, off)
		if err != nil {
			return nil, err
		}
		off = next
		if StatPath(w.Abs(root)) == w.Stat {
			continue
		}
		if !w.Stat.Dir {
			return nil, nil
		}
		ents, err := os.ReadDir(w.Abs(root))
		if err != nil {
			return nil, nil
		}
		for _, e := range ents {
			if p := w.Path + "/" + e.Name(); e.Type().IsRegular() && strings.HasSuffix(p, ".md") && !listed[p] {
				added = append(added, p)
			}
		}
	}
	return added, nil
}
