// Package filewrite holds lore's few ways of changing a file: an atomic
// replace, an append, a remove, a rename, and the opening of a file to
// append to or lock. The store (gitstore) builds every write on them, and
// the lean hook binary, which cannot link the store, uses them directly:
// one implementation of each write strategy. It links only the standard
// library.
package filewrite

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Options say how a write is done.
type Options struct {
	// Perm is a new file's mode (0o644 when zero); a replace keeps an
	// existing file's mode.
	Perm os.FileMode
	// DirPerm is the mode of folders created on the way (0o755 when zero).
	DirPerm os.FileMode
	// Sync makes the write durable (restic's order: fsync the file, rename,
	// fsync the folder). The store's writes sync; the hook's state files
	// and log need not survive a power cut and skip it for speed.
	Sync bool
	// Step, when set, is called before each step of the write; partial
	// (when not nil) writes what a write cut short at that step would
	// leave. The store counts steps with it for its crash tests.
	Step func(partial func())
}

func (o Options) perm() os.FileMode {
	if o.Perm == 0 {
		return 0o644
	}
	return o.Perm
}

func (o Options) dirPerm() os.FileMode {
	if o.DirPerm == 0 {
		return 0o755
	}
	return o.DirPerm
}

func (o Options) step(partial func()) {
	if o.Step != nil {
		o.Step(partial)
	}
}

// Replace writes path atomically: a temp file in the same folder
// ("." + name + random digits, which the store's sweep recognizes),
// written, synced when o.Sync, renamed over path, the folder synced. A
// reader sees the old content or the new, never a mix.
func Replace(path string, data []byte, o Options) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, o.dirPerm()); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	perm, keep := o.perm(), false
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		perm, keep = fi.Mode().Perm(), true
	}
	o.step(nil)
	f, err := createTemp(dir, "."+filepath.Base(path), perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := fill(f, path, data, keep, perm, o); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	o.step(nil)
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !o.Sync {
		return nil
	}
	return syncDir(dir, o)
}

// fill writes the temp file of a replace and closes it.
func fill(f *os.File, path string, data []byte, keep bool, perm os.FileMode, o Options) error {
	if keep { // the umask may have narrowed the mode the file was created with
		if err := f.Chmod(perm); err != nil {
			return err
		}
	}
	o.step(func() { _, _ = f.Write(data[:len(data)/2]) })
	if _, err := f.Write(data); err != nil {
		return err
	}
	if o.Sync {
		o.step(nil)
		if err := f.Sync(); err != nil {
			return err
		}
	}
	return f.Close()
}

// createTemp creates prefix + random digits in dir, a name no other file
// has (O_EXCL), as renameio does.
func createTemp(dir, prefix string, perm os.FileMode) (*os.File, error) {
	for attempt := 0; ; attempt++ {
		name := filepath.Join(dir, prefix+strconv.FormatInt(rand.Int64(), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) || attempt > 100 {
			return f, err
		}
	}
}

// Append adds data at the end of path (created if missing) in one write,
// synced when o.Sync. A kill mid-write leaves at most a broken last line,
// which the line readers of appended logs skip; when the file does not end
// in a newline (a writer killed mid-line), one is written first.
func Append(path string, data []byte, o Options) error {
	o.step(nil)
	f, err := openCreate(path, os.O_RDWR|os.O_APPEND, o)
	if err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			data = append([]byte{'\n'}, data...)
		}
	}
	// One write: O_APPEND places it whole at the end.
	o.step(func() { _, _ = f.Write(data[:len(data)/2]) })
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("append %s: %w", path, err)
	}
	if !o.Sync {
		return nil
	}
	o.step(nil)
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}

// Remove deletes path; one that does not exist is no error.
func Remove(path string, o Options) error {
	o.step(nil)
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	if !o.Sync {
		return nil
	}
	return syncDir(filepath.Dir(path), o)
}

// RemoveAll deletes path and, when it is a folder, everything in it; one
// that does not exist is no error. (The hook's sweep removes dedup folders
// an older lore left in the temp dir.)
func RemoveAll(path string, o Options) error {
	o.step(nil)
	if err := os.RemoveAll(path); err != nil {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// Rename moves from to to (its folder made on the way). A missing from is
// returned as fs.ErrNotExist: a racing process may have moved it first.
func Rename(from, to string, o Options) error {
	if err := os.MkdirAll(filepath.Dir(to), o.dirPerm()); err != nil {
		return fmt.Errorf("rename %s: %w", from, err)
	}
	o.step(nil)
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("rename %s: %w", from, err)
	}
	if !o.Sync {
		return nil
	}
	return syncDir(filepath.Dir(to), o)
}

// Touch creates path, empty, unless it exists (its content is kept).
func Touch(path string, o Options) error {
	f, err := Open(path, os.O_WRONLY, o)
	if err != nil {
		return err
	}
	return f.Close()
}

// Open opens path with flag (os.O_RDWR, os.O_WRONLY, with os.O_APPEND or
// not), creating it and its folder if missing: a log to append to, a lock
// file, a state file rewritten under its lock.
func Open(path string, flag int, o Options) (*os.File, error) {
	f, err := openCreate(path, flag, o)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return f, nil
}

// openCreate opens path with flag|O_CREATE, making its folder only when
// the open finds it missing: the hook opens its files on every call, and
// the folder is there but the first time.
func openCreate(path string, flag int, o Options) (*os.File, error) {
	f, err := os.OpenFile(path, flag|os.O_CREATE, o.perm())
	if !errors.Is(err, fs.ErrNotExist) {
		return f, err
	}
	if err := os.MkdirAll(filepath.Dir(path), o.dirPerm()); err != nil {
		return nil, err
	}
	return os.OpenFile(path, flag|os.O_CREATE, o.perm())
}

// OpenExisting opens an existing file for reading and rewriting in place
// (under a lock its writers share); a missing file is fs.ErrNotExist.
func OpenExisting(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR, 0)
}

func syncDir(dir string, o Options) error {
	o.step(nil)
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
