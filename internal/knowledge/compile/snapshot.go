package compile

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/parallel"
)

// Snapshot is the stat of every source a build reads, taken before it reads
// them: the manifest records it, and the hook compares it with the disk to
// know the manifest is stale (docs/design.md, Manifest freshness).
type Snapshot struct {
	Watch, Files []manifest.Watched
	files        map[string]int // item path as loaded -> index in Files
	root         string         // the work tree the relative paths are in
	project      int            // Files[:project] are the project's item files
	listErrs     []error        // the project's kind folders that could not be listed
}

// racyWindow is how old a source's timestamps must be before a snapshot
// can be trusted: file systems stamp changes with a coarse clock (one
// kernel tick, at most 10 ms), so a change in the same tick as the stat
// could leave every field equal. Like git's racy-clean rule, but resolved
// by waiting: a later change then always gets a later timestamp.
const racyWindow = 20 * time.Millisecond

// TakeSnapshot stats the sources of the store at root: config, learnings
// (repo-relative), the kind and skill folders and their .md files, and
// each other store's fetch state, kind folders and files. It waits out
// the racy window when a source changed in the last few milliseconds. The
// caller clears the hook's edit mark (lorepath.Edited) first: the
// build that follows the snapshot answers it by reading the files.
func TakeSnapshot(root string, stores []Store, learnings string) Snapshot {
	var s Snapshot
	for try := 0; ; try++ {
		start := time.Now()
		s = takeSnapshot(root, stores, learnings)
		age := start.Sub(s.newest())
		if try == 5 || age >= racyWindow || age < 0 { // < 0: a time set in the future
			return s
		}
		time.Sleep(racyWindow - age)
	}
}

func takeSnapshot(root string, stores []Store, learnings string) Snapshot {
	s := Snapshot{files: map[string]int{}, root: root}
	watchFile := func(rel string) {
		s.Watch = append(s.Watch, manifest.Watched{Path: rel, Stat: manifest.StatPath(filepath.Join(root, filepath.FromSlash(rel)))})
	}
	watchFile(lorepath.Edited)
	watchFile(lorepath.Config)
	if learnings != "" {
		watchFile(path.Clean(filepath.ToSlash(learnings)))
	}
	// folder: its entry path (relative or absolute), the path items show.
	// It returns why the folder could not be listed, nil when it is not
	// there.
	folder := func(dir, entry, display string) error {
		s.Watch = append(s.Watch, manifest.Watched{Path: entry, Stat: manifest.StatPath(dir)})
		entries, err := os.ReadDir(dir) // after the folder's stat: an entry added later changes the folder
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		first := len(s.Files)
		for _, e := range entries {
			if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			s.files[display+"/"+e.Name()] = len(s.Files)
			s.Files = append(s.Files, manifest.Watched{Path: entry + "/" + e.Name()})
		}
		added := s.Files[first:]
		parallel.Each(len(added), func(i int) {
			added[i].Stat = manifest.StatPath(filepath.Join(dir, path.Base(added[i].Path)))
		})
		return nil
	}
	for _, kind := range markdown.Kinds {
		f := lorepath.InDir(markdown.Folder(kind))
		if err := folder(filepath.Join(root, filepath.FromSlash(f)), f, f); err != nil {
			s.listErrs = append(s.listErrs, err)
		}
	}
	s.project = len(s.Files)
	// The other folders' own reads (skills, a store's ListDir) say theirs.
	_ = folder(filepath.Join(root, filepath.FromSlash(lorepath.Skills)), lorepath.Skills, lorepath.Skills)
	for _, st := range stores {
		if st.State != "" {
			s.Watch = append(s.Watch, manifest.Watched{Path: filepath.ToSlash(st.State), Stat: st.Stat})
		}
		switch {
		case st.Part != nil:
			// A checkout never changes, but a cache cleared in part can
			// take it away: then the source acts nowhere, as never fetched.
			s.Watch = append(s.Watch, manifest.Watched{Path: filepath.ToSlash(st.Dir), Stat: manifest.StatPath(st.Dir)})
			continue
		case st.Dir == "":
			if st.Lost != "" {
				s.Watch = append(s.Watch, manifest.Watched{Path: filepath.ToSlash(st.Lost), Stat: manifest.StatPath(st.Lost)})
			}
			continue
		}
		for _, kind := range markdown.Kinds {
			dir := filepath.Join(st.Dir, markdown.Folder(kind))
			_ = folder(dir, filepath.ToSlash(dir), st.Name+":"+markdown.Folder(kind))
		}
	}
	return s
}

// ProjectFiles are the project's item files as the snapshot listed them,
// sorted by path, and the kind folders it could not list: a build reads
// these rather than list the folders again (a twentieth of a cold build
// at 10,000 items).
func (s Snapshot) ProjectFiles() ([]File, []error) {
	out := make([]File, s.project)
	for i, w := range s.Files[:s.project] {
		out[i] = File{Abs: w.Abs(s.root), Path: w.Path}
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out, s.listErrs
}

// newest is the latest modification or change time of any source.
func (s Snapshot) newest() time.Time {
	var n int64
	for _, l := range [][]manifest.Watched{s.Watch, s.Files} {
		for _, w := range l {
			n = max(n, w.Stat.Mtime, w.Stat.Ctime)
		}
	}
	return time.Unix(0, n)
}

// stat is the snapshot's stat of an item file (path as loaded).
func (s Snapshot) stat(path string) (manifest.Stat, bool) {
	i, ok := s.files[path]
	if !ok {
		return manifest.Stat{}, false
	}
	return s.Files[i].Stat, true
}

// abs is where the item file at path (as loaded) is on disk.
func (s Snapshot) abs(path string) string {
	i, ok := s.files[path]
	if !ok {
		return ""
	}
	return s.Files[i].Abs(s.root)
}

// sources returns the Files indexes of the given item paths (as loaded),
// sorted; paths the snapshot did not see are left out (a folder change
// covers them).
func (s Snapshot) sources(paths ...string) []int {
	var out []int
	for _, p := range paths {
		if i, ok := s.files[p]; ok {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}
