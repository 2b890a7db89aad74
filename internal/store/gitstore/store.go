// Package gitstore is the repository behind lore: it finds the git work tree
// and its .lore/ knowledge root from any folder (linked worktrees included),
// lists and loads items, and writes files atomically under a lock. It is the
// only package that imports go-git.
package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/gofrs/flock"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/parallel"
)

// ErrNotRepo is returned when no git repository encloses the folder.
var ErrNotRepo = errors.New("not a git repository (or any of the parent folders)")

// Store is one repository's knowledge.
type Store struct {
	Root    string // absolute work tree root
	Dir     string // absolute .lore folder (may not exist yet)
	cache   string // where .lore/cache is, when not in Dir (OpenFolder)
	storage *filesystem.Storage
}

// Open finds the repository that encloses dir (a subfolder or a linked
// worktree works) and its .lore folder.
func Open(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	root, st, err := openRepo(abs)
	if err != nil {
		return nil, err
	}
	registerRoot(root)
	return &Store{Root: root, Dir: filepath.Join(root, lorepath.Dir), storage: st}, nil
}

// openRepo finds the .git above abs as go-git's PlainOpen does with
// DetectDotGit and EnableDotGitCommonDir (a .git file names a linked
// worktree's git dir, whose commondir holds the shared objects and refs)
// and opens its storage. Not PlainOpen itself: go-git's root package links
// its HTTP and SSH transports, whose package init every lore command paid.
func openRepo(abs string) (string, *filesystem.Storage, error) {
	root, fi, err := findDotGit(abs)
	if err != nil {
		return "", nil, err
	}
	gitDir := filepath.Join(root, ".git")
	if !fi.IsDir() {
		if gitDir, err = linkedGitDir(root, gitDir); err != nil {
			return "", nil, fmt.Errorf("gitstore: open %s: %w", abs, err)
		}
	}
	repoFS, err := repoFilesystem(gitDir)
	if err != nil {
		return "", nil, fmt.Errorf("gitstore: open %s: %w", abs, err)
	}
	st := filesystem.NewStorage(repoFS, cache.NewObjectLRUDefault())
	if _, err := st.Reference(plumbing.HEAD); errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
	} else if err != nil {
		return "", nil, fmt.Errorf("gitstore: open %s: %w", abs, err)
	}
	return root, st, nil
}

// findDotGit walks up from abs to the folder that holds .git.
func findDotGit(abs string) (string, os.FileInfo, error) {
	for root := abs; ; {
		fi, err := os.Stat(filepath.Join(root, ".git"))
		if err == nil {
			return root, fi, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, fmt.Errorf("gitstore: open %s: %w", abs, err)
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
		}
		root = parent
	}
}

// linkedGitDir is the git dir a .git file names (a linked worktree's).
func linkedGitDir(root, dotGit string) (string, error) {
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir: ")
	if !ok {
		return "", errors.New(".git file has no gitdir: prefix")
	}
	gitDir := strings.TrimSpace(target)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(root, gitDir)
	}
	return gitDir, nil
}

// repoFilesystem is the git dir's file system, joined with the common dir
// (the shared objects and refs) its commondir file names.
func repoFilesystem(gitDir string) (billy.Filesystem, error) {
	var repoFS billy.Filesystem = osfs.New(gitDir)
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case err != nil || strings.TrimSpace(string(data)) == "":
		return repoFS, nil
	}
	common := strings.TrimSpace(string(data))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	if _, err := os.Stat(common); err != nil {
		return nil, fmt.Errorf("common dir: %w", err)
	}
	return dotgit.NewRepositoryFilesystem(repoFS, osfs.New(common)), nil
}

// Path returns the absolute path of a path relative to the work tree root.
func (s *Store) Path(rel string) string {
	if s.cache != "" && (rel == lorepath.Cache || strings.HasPrefix(rel, lorepath.Cache+"/")) {
		return filepath.Join(s.cache, filepath.FromSlash(strings.TrimPrefix(rel, lorepath.Cache)))
	}
	if in, ok := strings.CutPrefix(rel, lorepath.Dir+"/"); ok {
		return filepath.Join(s.Dir, filepath.FromSlash(in)) // the same place, but in a folder store
	}
	return filepath.Join(s.Root, filepath.FromSlash(rel))
}

// OpenFolder is a store kept in a plain folder laid out like .lore/, outside
// any repository: the user's own store (docs/design.md, Scopes and
// organisation stores). Its paths read .lore/... as the folder's own;
// it has no git history, so only the item, config and lock methods apply.
// cache is where its .lore/cache files (the write lock) go, "" for the
// folder's own cache/: a config folder is no place for them.
func OpenFolder(dir, cache string) *Store {
	return &Store{Root: dir, Dir: dir, cache: cache}
}

// Rel returns a work-tree-relative, slash-separated path.
func (s *Store) Rel(abs string) string {
	if r, err := filepath.Rel(s.Root, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return abs
}

// CacheDir is the gitignored folder for derived files.
func (s *Store) CacheDir() string { return s.Path(lorepath.Cache) }

// Initialized reports whether .lore exists.
func (s *Store) Initialized() bool {
	fi, err := os.Stat(s.Dir)
	return err == nil && fi.IsDir()
}

// Config reads .lore/config.yaml over the defaults; a missing file is the
// defaults.
func (s *Store) Config() (config.Config, error) {
	data, err := os.ReadFile(s.Path(lorepath.Config))
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), nil
	}
	if err != nil {
		return config.Default(), fmt.Errorf("gitstore: %w", err)
	}
	return config.Parse(lorepath.Config, data)
}

// ItemFiles lists the repo-relative paths of every .md file in the kind
// folders, sorted.
func (s *Store) ItemFiles() ([]string, error) {
	var files []string
	for _, kind := range markdown.Kinds {
		dir := filepath.Join(s.Dir, markdown.Folder(kind))
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("gitstore: %w", err)
		}
		for _, e := range entries {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
				files = append(files, s.Rel(filepath.Join(dir, e.Name())))
			}
		}
	}
	sort.Strings(files)
	return files, nil
}

// Load parses every item. Files that cannot be parsed are returned as
// errors (each a *markdown.Error naming the file and line) and skipped;
// the rest still load, in ItemFiles' order.
func (s *Store) Load() ([]*markdown.Item, []error) {
	files, err := s.ItemFiles()
	if err != nil {
		return nil, []error{err}
	}
	return parallel.Map(len(files), func(i int) (*markdown.Item, error) { return s.LoadFile(files[i]) })
}

// LoadFile parses one item by repo-relative path.
func (s *Store) LoadFile(rel string) (*markdown.Item, error) {
	it, err := compile.ReadItem(s.Path(rel), rel)
	if _, bad := errors.AsType[*markdown.Error](err); err != nil && !bad {
		return nil, fmt.Errorf("gitstore: %w", err) // the file could not be read
	}
	return it, err
}

// ReadFile reads a repo-relative file.
func (s *Store) ReadFile(rel string) ([]byte, error) { return os.ReadFile(s.Path(rel)) }

// WriteFile writes a repo-relative file atomically (temp file in the same
// folder, fsync, rename, fsync the folder) while holding the store lock, so
// parallel writers never interleave or lose a file.
func (s *Store) WriteFile(rel string, data []byte) error {
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	return s.WriteLocked(rel, data)
}

// CreateExclusive writes a new file atomically and fails with fs.ErrExist if
// it already exists; used where two writers may pick the same name.
func (s *Store) CreateExclusive(rel string, data []byte) error {
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Lstat(s.Path(rel)); err == nil {
		return fmt.Errorf("gitstore: %s: %w", rel, fs.ErrExist)
	}
	return s.WriteLocked(rel, data)
}

// BuildLock takes the build lock, or adopts the one the agent hook took and
// passed down (manifest.LockFDEnv): the lock is released when the last
// descriptor of it is closed.
func (s *Store) BuildLock() (unlock func(), err error) {
	if unlock := s.adoptBuildLock(); unlock != nil {
		return unlock, nil
	}
	if err := NoSymlink(s.Path(lorepath.BuildLock)); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.CacheDir(), 0o755); err != nil { // the link check is above
		return nil, fmt.Errorf("gitstore: lock: %w", err)
	}
	l := flock.New(s.Path(lorepath.BuildLock))
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("gitstore: lock %s: %w", lorepath.BuildLock, err)
	}
	return func() { _ = l.Unlock() }, nil
}

// ScanLock takes the scan lock, waiting up to wait for a scan running
// beside this one (parallel Stop hooks of several sessions). It is not the
// store lock: writers of items wait only for writes, not for a scan.
func (s *Store) ScanLock(wait time.Duration) (unlock func(), err error) {
	if err := s.MkdirAll(lorepath.Cache); err != nil {
		return nil, err
	}
	l := flock.New(s.Path(lorepath.ScanLock))
	if err := NoSymlink(l.Path()); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	ok, err := l.TryLockContext(ctx, 100*time.Millisecond)
	if !ok {
		return nil, fmt.Errorf("another scan is still running in this repository after %v: %w", wait, err)
	}
	return func() { _ = l.Unlock() }, nil
}

// adoptBuildLock takes over the build lock the hook passed down as a
// descriptor (nil when there is none, or it is not the lock file).
func (s *Store) adoptBuildLock() func() {
	fd, err := strconv.Atoi(os.Getenv(manifest.LockFDEnv))
	if err != nil || fd <= 2 {
		return nil
	}
	_ = os.Unsetenv(manifest.LockFDEnv)
	f := os.NewFile(uintptr(fd), "build.lock")
	if f == nil {
		return nil
	}
	fi, err1 := f.Stat()
	want, err2 := os.Stat(s.Path(lorepath.BuildLock))
	if err1 == nil && err2 == nil && os.SameFile(fi, want) {
		return func() { f.Close() }
	}
	return nil
}

// HighestRef is the highest PF-/ADR- number in use for kind, by file name
// or by ref key (a file renamed by hand still counts); 0 when none is.
// Callers that hand out the next number hold the store lock.
func (s *Store) HighestRef(kind string) (int, error) {
	files, err := s.ItemFiles()
	if err != nil {
		return 0, err
	}
	highest := 0
	for _, rel := range files {
		if path.Base(path.Dir(rel)) != markdown.Folder(kind) {
			continue
		}
		highest = max(highest, markdown.RefNumber(path.Base(rel)))
		if it, err := s.LoadFile(rel); err == nil {
			highest = max(highest, markdown.RefNumber(it.Ref))
		}
	}
	return highest, nil
}

// NextRef is the next free PF-/ADR- number for kind ("" for lessons).
func (s *Store) NextRef(kind string) (string, error) {
	if markdown.RefPrefix(kind) == "" {
		return "", nil
	}
	n, err := s.HighestRef(kind)
	if err != nil {
		return "", err
	}
	return markdown.FormatRef(kind, n+1), nil
}
