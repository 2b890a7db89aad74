package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/lorepath"
)

// ErrLockHeld is returned by Lock when the calling goroutine already holds
// the store lock: taking it again would wait for itself forever.
var ErrLockHeld = errors.New("the store lock is already held by this goroutine (a nested Lock would deadlock)")

// holders maps a lock file to the goroutine holding it in this process.
var holders = struct {
	sync.Mutex
	by map[string]uint64
}{by: map[string]uint64{}}

// Lock takes the store's write lock (a file lock in the cache folder), then
// removes the temp files killed writers left behind (best effort): while the
// lock is held no other lore write is under way, so every temp file is
// stray. The lock is
// a file lock per open file, so goroutines of one process wait for each
// other like processes do; a goroutine that already holds it gets
// ErrLockHeld instead of a deadlock.
func (s *Store) Lock() (unlock func(), err error) {
	p := s.Path(lorepath.WriteLock)
	if err := NoSymlink(p); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.CacheDir(), 0o755); err != nil { // the link check is above
		return nil, fmt.Errorf("gitstore: lock: %w", err)
	}
	key := p // one key for a repository however it was opened (a symlinked path)
	if real, err := filepath.EvalSymlinks(s.CacheDir()); err == nil {
		key = filepath.Join(real, path.Base(lorepath.WriteLock))
	}
	me := goroutine()
	holders.Lock()
	holder, held := holders.by[key]
	holders.Unlock()
	mine := held && holder == me
	if mine {
		return nil, fmt.Errorf("gitstore: lock %s: %w", s.Rel(p), ErrLockHeld)
	}
	time.Sleep(lockHold)
	l := flock.New(p)
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("gitstore: lock %s: %w", s.Rel(p), err)
	}
	holders.Lock()
	holders.by[key] = me
	holders.Unlock()
	time.Sleep(lockHold)
	s.sweep()
	return func() {
		holders.Lock()
		delete(holders.by, key)
		holders.Unlock()
		_ = l.Unlock()
	}, nil
}

// goroutine is the calling goroutine's id, from its stack header
// ("goroutine 7 [running]:"); Go exposes it nowhere else.
func goroutine() uint64 {
	var buf [64]byte
	b := bytes.TrimPrefix(buf[:runtime.Stack(buf[:], false)], []byte("goroutine "))
	b, _, _ = bytes.Cut(b, []byte(" "))
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// writesInto lists the folders outside .lore that lore writes files into
// (slash globs relative to the work tree) with the names it writes there.
var writesInto = map[string][]string{}

// WritesInto registers a folder outside .lore (a slash glob relative to the
// work tree) and the names (a glob) that lore writes there, so a killed
// write's temp file in it is found and removed too. Packages call it from a
// package-level variable; the learnings file and the consolidation report,
// whose paths come from config.yaml, are registered by the store itself.
func WritesInto(dir, names string) bool {
	writesInto[dir] = append(writesInto[dir], names)
	return true
}

var _ = WritesInto(".", lorepath.Gitattributes)

// consolidationTask is where lore consolidate --agent writes its task (a
// fixed path, so the consolidate package need not be known here).
const consolidationTask = "tmp/consolidation-task.md"

// isTemp reports whether a file name is a temp file of writeAtomic for a
// target whose name matches names: "." + target name + a random int64 (six
// digits at least, so a user's ".v2" is never taken for one).
func isTemp(name, names string) bool {
	stem := strings.TrimRight(name, "0123456789")
	if len(stem) < 2 || len(name)-len(stem) < 6 || stem[0] != '.' {
		return false
	}
	ok, _ := path.Match(names, stem[1:])
	return ok
}

// TempFiles lists the temp files killed writes left behind (repo-relative,
// sorted): any in the .lore tree but the cache, and those of the files lore
// writes elsewhere. Lint reports them; the next Lock removes them.
func (s *Store) TempFiles() ([]string, error) {
	out, err := s.storeTemps()
	if err != nil {
		return nil, err
	}
	for glob, names := range s.writtenDirs() {
		matches, _ := filepath.Glob(s.Path(glob))
		for _, dir := range matches {
			out = append(out, s.tempsIn(dir, names)...)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return out, nil
}

// storeTemps are the temp files in the .lore tree but the cache.
func (s *Store) storeTemps() ([]string, error) {
	var out []string
	err := filepath.WalkDir(s.Dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		// The cache is derived, gitignored, and written by builds that run
		// beside a locked write (the manifest's own temp file, in flight).
		if d.IsDir() && p == s.CacheDir() {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && isTemp(d.Name(), "*") {
			out = append(out, s.Rel(p))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	return out, nil
}

// writtenDirs are the folders outside .lore that lore writes into (slash
// globs) with the names it writes there: the registered ones, and those of
// the files config.yaml names (the learnings file, the consolidation
// report and task, the routes' topic documents and their parts).
func (s *Store) writtenDirs() map[string][]string {
	dirs := map[string][]string{}
	for d, n := range writesInto {
		dirs[d] = append(dirs[d], n...)
	}
	cfg, err := s.Config()
	if err != nil {
		return dirs
	}
	for _, rel := range configuredFiles(cfg) {
		if c := path.Clean(rel); rel != "" && c != ".." && !strings.HasPrefix(c, "../") && !path.IsAbs(c) {
			dirs[path.Dir(c)] = append(dirs[path.Dir(c)], path.Base(c))
		}
	}
	return dirs
}

// configuredFiles are the files outside .lore that config.yaml makes lore
// write (globs): the learnings file, the consolidation report and task,
// each route's topic document and the parts it is split into.
func configuredFiles(cfg config.Config) []string {
	files := []string{cfg.Learnings, cfg.Consolidate.Report, consolidationTask}
	for _, rt := range cfg.Consolidate.Routes {
		files = append(files, strings.TrimSuffix(rt.Target, ".md")+"*.md") // <stem>-N.md
	}
	return files
}

// tempsIn are the temp files in dir (outside .lore) of targets named by
// one of names.
func (s *Store) tempsIn(dir string, names []string) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		rel := s.Rel(filepath.Join(dir, e.Name()))
		if e.Type().IsRegular() && !strings.HasPrefix(rel, lorepath.Dir+"/") && slices.ContainsFunc(names, func(n string) bool { return isTemp(e.Name(), n) }) {
			out = append(out, rel)
		}
	}
	return out
}

// sweep removes the stray temp files; the caller holds the lock. It is
// best effort: a temp file it cannot remove must not stop a write, and lint
// still names it.
func (s *Store) sweep() {
	temps, _ := s.TempFiles()
	for _, rel := range temps {
		_ = s.RemoveLocked(rel)
	}
}
