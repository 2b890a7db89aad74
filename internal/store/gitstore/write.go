package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/lore-agents/lore/internal/filewrite"
)

// Every change lore makes to a file under the work tree goes through the
// functions in this file (an atomic replace, a remove, an append, a
// rename, built on internal/filewrite), so the crash tests can stop the
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

// opts are the store's write options: durable, and counted for the crash
// tests.
var opts = filewrite.Options{Sync: true, Step: step}

// derived are the write options of the files a build derives from the
// others (the manifest, the item cache): atomic but not synced. A power
// cut may leave one empty or short; its reader finds that out (the
// manifest's sizes and checksums, the cache's encoding) and the next
// build writes it again, so syncing megabytes on every build buys nothing.
var derived = filewrite.Options{Step: step}

// WriteDerived writes a repo-relative file a build derives (derived)
// atomically, under the store lock.
func (s *Store) WriteDerived(rel string, data []byte) error {
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	return replace(s.Path(rel), data, derived)
}

// writeAtomic writes path with restic's order: temp file, fsync, rename,
// fsync the folder, refusing a path through a link. It does not lock;
// callers that share the file lock first. Outside this package, write
// through the Store's methods (WriteLocked), which take a repo-relative
// path; this one stays for cmd/lore until its writes move there.
func writeAtomic(path string, data []byte) error { return replace(path, data, opts) }

// replace is filewrite.Replace with o, refusing a path through a link.
func replace(path string, data []byte, o filewrite.Options) error {
	if err := NoSymlink(path); err != nil {
		return err
	}
	if err := filewrite.Replace(path, data, o); err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	return nil
}

// Remove deletes a file (one that does not exist is no error) and syncs its
// folder, refusing a path through a link (a linked folder would make it
// delete a file elsewhere). It does not lock; callers hold the store lock.
// Outside this package, use Store.RemoveLocked.
func Remove(path string) error {
	if err := NoSymlink(filepath.Dir(path)); err != nil {
		return err
	}
	if err := filewrite.Remove(path, opts); err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	return nil
}

// appendFile adds data at the end of path (created if missing) in one write and
// syncs it (filewrite.Append: a kill mid-write leaves at most a broken last
// line). It does not lock; callers hold the store lock. Outside this
// package, use Store.AppendLocked.
func appendFile(path string, data []byte) error {
	if err := NoSymlink(path); err != nil {
		return err
	}
	if err := filewrite.Append(path, data, opts); err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	return nil
}

// WriteLocked writes a repo-relative file atomically (writeAtomic); the
// caller holds the store lock.
func (s *Store) WriteLocked(rel string, data []byte) error { return writeAtomic(s.Path(rel), data) }

// RemoveLocked removes a repo-relative file (a missing one is no error);
// the caller holds the store lock.
func (s *Store) RemoveLocked(rel string) error { return Remove(s.Path(rel)) }

// AppendLocked appends to a repo-relative log (Append); the caller holds
// the store lock.
func (s *Store) AppendLocked(rel string, data []byte) error { return appendFile(s.Path(rel), data) }

// RenameLocked moves a repo-relative file to another name, refusing either
// path through a link; a missing from is fs.ErrNotExist. The caller holds
// the store lock, or the move is one a racing process may also make.
func (s *Store) RenameLocked(from, to string) error {
	for _, p := range []string{from, to} {
		if err := NoSymlink(s.Path(p)); err != nil {
			return err
		}
	}
	if err := filewrite.Rename(s.Path(from), s.Path(to), opts); err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	return nil
}

// MkdirAll makes a repo-relative folder, refusing a path through a link.
func (s *Store) MkdirAll(rel string) error {
	if err := NoSymlink(s.Path(rel)); err != nil {
		return err
	}
	if err := os.MkdirAll(s.Path(rel), 0o755); err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	return nil
}

// OpenLog opens a repo-relative log for appending (and reading its tail),
// creating it and its folder, refusing a path through a link.
func (s *Store) OpenLog(rel string) (*os.File, error) { return openAppend(s.Path(rel)) }

// openAppend is OpenLog by absolute path; outside this package use OpenLog.
func openAppend(path string) (*os.File, error) {
	if err := NoSymlink(path); err != nil {
		return nil, err
	}
	f, err := filewrite.Open(path, os.O_RDWR|os.O_APPEND, filewrite.Options{})
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	return f, nil
}
