package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/google/renameio/v2"
)

// Every change lore makes to a file goes through the functions in this file
// (an atomic replace, a remove, an append), so the crash tests can stop the
// process at any one of their steps: LORE_TEST_CRASH_AT=N exits the process
// at once (no deferred cleanup, as a SIGKILL would) when the Nth step of this
// process is about to run; at a write step it first writes half the bytes.
// LORE_TEST_LOCK_HOLD=<duration> waits before taking the store lock and
// again while holding it, to hold race windows open. lore-hook does not link
// this package, so the hook never reads them.

// CrashExit is the exit code of a process stopped by LORE_TEST_CRASH_AT.
const CrashExit = 86

var (
	crashAt  = envInt("LORE_TEST_CRASH_AT")
	lockHold = envDuration("LORE_TEST_LOCK_HOLD")
	steps    atomic.Int64
)

func envInt(key string) int64 {
	n, _ := strconv.ParseInt(os.Getenv(key), 10, 64)
	return n
}

func envDuration(key string) time.Duration {
	d, _ := time.ParseDuration(os.Getenv(key))
	return d
}

// step counts one write step and, at LORE_TEST_CRASH_AT, ends the process
// before it runs; partial (when not nil) is written first, as a write cut
// short by the kill would leave it.
func step(partial func()) {
	if crashAt <= 0 || steps.Add(1) != crashAt {
		return
	}
	if partial != nil {
		partial()
	}
	os.Exit(CrashExit)
}

// WriteAtomic writes path with restic's order: temp file, fsync, rename,
// fsync the folder. It does not lock; callers that share the file lock first.
func WriteAtomic(path string, data []byte) error {
	if err := NoSymlink(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gitstore: write %s: %w", path, err)
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	step(nil)
	// WithTempDir: renameio would otherwise put the temp file in $TMPDIR
	// when that is on the same file system, which may be inside a work tree.
	t, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithPermissions(perm), renameio.WithExistingPermissions())
	if err != nil {
		return fmt.Errorf("gitstore: write %s: %w", path, err)
	}
	defer t.Cleanup()
	step(func() { _, _ = t.Write(data[:len(data)/2]) })
	if _, err := t.Write(data); err != nil {
		return fmt.Errorf("gitstore: write %s: %w", path, err)
	}
	step(nil)
	if err := t.Sync(); err != nil {
		return fmt.Errorf("gitstore: write %s: %w", path, err)
	}
	step(nil)
	if err := t.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("gitstore: write %s: %w", path, err)
	}
	return syncDir(dir)
}

// Remove deletes a file (one that does not exist is no error) and syncs its
// folder, refusing a path through a link (a linked folder would make it
// delete a file elsewhere). It does not lock; callers hold the store lock.
func Remove(path string) error {
	if err := NoSymlink(filepath.Dir(path)); err != nil {
		return err
	}
	step(nil)
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("gitstore: remove %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// Append adds data at the end of path (created if missing) in one write and
// syncs it. A kill mid-write leaves at most a broken last line, which the
// line readers of appended logs skip. When the file does not end in a
// newline (a writer killed mid-line), one is written first. It does not
// lock; callers hold the store lock.
func Append(path string, data []byte) error {
	if err := NoSymlink(path); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("gitstore: append %s: %w", path, err)
	}
	step(nil)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("gitstore: append %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			data = append([]byte{'\n'}, data...)
		}
	}
	// One write: O_APPEND places it whole at the end.
	step(func() { _, _ = f.Write(data[:len(data)/2]) })
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("gitstore: append %s: %w", path, err)
	}
	step(nil)
	if err := f.Sync(); err != nil {
		return fmt.Errorf("gitstore: sync %s: %w", path, err)
	}
	return nil
}

func syncDir(dir string) error {
	step(nil)
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("gitstore: sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("gitstore: sync %s: %w", dir, err)
	}
	return nil
}
