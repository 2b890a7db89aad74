// Package sources fetches organisation stores (docs/design.md, Scopes and
// organisation stores) with go-git into lore's cache folder, one copy per
// source URL shared by every repository that names it, and says what was
// last fetched and when.
package sources

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/gofrs/flock"

	"github.com/lore-agents/lore/internal/filewrite"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/lorepath"
)

// Root is where fetched sources live: $XDG_CACHE_HOME/lore/sources (the
// platform's cache folder elsewhere), "" when there is none.
func Root() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "lore", "sources")
}

// Dir is a source's folder under root: its name and a short hash of its
// URL, ref and folder, so two repositories naming the same source share
// one copy, and a name reused for another URL (or another branch of it)
// gets its own.
func Dir(root string, s config.Source) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(s.URL) + "\x00" + s.Ref + "\x00" + s.Folder()))
	return filepath.Join(root, s.Name+"-"+hex.EncodeToString(sum[:4]))
}

// State is what a source's folder records of its fetches
// (lorepath.SourceState, written after every attempt; the checkout in use
// is lorepath.SourceHead's).
type State struct {
	URL       string    `json:"url"`
	Ref       string    `json:"ref"`
	Commit    string    `json:"commit,omitempty"`   // the checkout in use; "" before the first success
	Fetched   time.Time `json:"fetched,omitzero"`   // the last successful fetch
	Attempted time.Time `json:"attempted,omitzero"` // the last attempt, successful or not
	Error     string    `json:"error,omitempty"`    // the last attempt's error, "" when it succeeded
}

// ReadState reads a source folder's state; a folder never fetched has the
// zero State.
func ReadState(dir string) (State, error) {
	var st State
	data, err := os.ReadFile(filepath.Join(dir, lorepath.SourceState))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("sources: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, fmt.Errorf("sources: %s: %w", filepath.Join(dir, lorepath.SourceState), err)
	}
	return st, nil
}

// Head is the commit of the checkout in use in a source's folder, "" when
// it was never fetched.
func Head(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, lorepath.SourceHead))
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(data))
	if len(c) < 40 || strings.Trim(c, "0123456789abcdef") != "" {
		return "" // not a commit: as never fetched
	}
	return c
}

// InUse is the commit of the checkout in use in a source's folder and its
// store folder, "" for both when it was never fetched or its checkout is
// gone (a cache cleared in part): its items then reach no agent until the
// next lore sync brings the checkout back.
func InUse(dir string, s config.Source) (commit, store string) {
	commit = Head(dir)
	if store = StoreDir(dir, s, commit); store == "" || !isDir(filepath.Join(dir, commit)) {
		return "", ""
	}
	return commit, store
}

// StoreDir is the store folder of a source's checkout of commit, "" for
// none.
func StoreDir(dir string, s config.Source, commit string) string {
	if commit == "" {
		return ""
	}
	return filepath.Join(dir, commit, filepath.FromSlash(s.Folder()))
}

// PartPath is where the part of a source's checkout of commit is kept for
// the key (compile.PartKey): beside the checkout, so that pruning a
// checkout prunes its parts.
func PartPath(dir, commit, key string) string {
	return filepath.Join(dir, commit+"-"+key+".part")
}

// SummaryPath is where the summary of the part at path is kept.
func SummaryPath(part string) string { return strings.TrimSuffix(part, ".part") + ".known" }

// WritePart writes a part's manifest atomically. Its summary, which names
// the manifest's stat, is written after it (WriteSummary), so a summary
// found names the manifest beside it or one that replaced it.
func WritePart(path string, data []byte) error { return replace(path, data) }

// WriteSummary writes a part's summary atomically.
func WriteSummary(part string, data []byte) error { return replace(SummaryPath(part), data) }

// Fetched is one source after a fetch.
type Fetched struct {
	Source  config.Source
	Dir     string
	State   State
	Changed bool // the checkout moved to another commit, or came back after the cache lost it
	Busy    bool // another lore process was fetching it: nothing was done
}

// Fetch brings one source's copy up to its remote ref: it lists the remote
// (one round trip), and only when the ref points elsewhere than the copy
// clones that commit shallowly into a new folder, then switches the state
// to it. A concurrent reader sees the old checkout or the new one, never
// half of one: checkouts are never written in place, and the previous one
// stays until the next fetch. A rewritten history (force-push) is just
// another commit. The state records the attempt and its error; on error the
// last good copy stays in use. wait: wait for another process fetching the
// same source, else return Busy.
func Fetch(ctx context.Context, root string, s config.Source, wait bool) (Fetched, error) {
	f := Fetched{Source: s, Dir: Dir(root, s)}
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return f, fmt.Errorf("sources: %w", err)
	}
	unlock, ok, err := lock(f.Dir, wait)
	if err != nil || !ok {
		f.Busy = !ok
		return f, err
	}
	defer unlock()
	if f.State, err = ReadState(f.Dir); err != nil {
		f.State = State{} // unreadable: refetch
	}
	f.State.URL, f.State.Ref, f.State.Attempted = s.URL, s.Ref, time.Now().UTC()
	had := f.State.Commit != "" && isDir(filepath.Join(f.Dir, f.State.Commit))
	commit, err := fetch(ctx, f.Dir, s, f.State.Commit)
	if err != nil {
		f.State.Error = Reason(s.Name, err)
	} else {
		f.Changed = commit != f.State.Commit || !had
		f.State.Commit, f.State.Fetched, f.State.Error = commit, f.State.Attempted, ""
	}
	if err == nil && Head(f.Dir) != f.State.Commit { // the reader's switch: after the checkout, before the state
		err = replace(filepath.Join(f.Dir, lorepath.SourceHead), []byte(f.State.Commit+"\n"))
	}
	if werr := writeState(f.Dir, f.State); werr != nil && err == nil {
		err = werr
	}
	prune(f.Dir, f.State.Commit)
	return f, err
}

// Reason is a fetch's error as a source's own line says it: without the
// "sources: <name>: " the line already names.
func Reason(name string, err error) string {
	return strings.TrimPrefix(strings.TrimPrefix(err.Error(), "sources: "), name+": ")
}

// fetch returns the commit the remote ref names, cloned into dir/<commit>
// unless it is already there.
func fetch(ctx context.Context, dir string, s config.Source, have string) (string, error) {
	commit, ref, err := remoteHead(ctx, s)
	if err != nil {
		return "", err
	}
	if commit == have && isDir(filepath.Join(dir, commit)) {
		return commit, nil
	}
	return checkout(ctx, dir, s, ref)
}

// checkout clones ref shallowly into a temporary folder of dir, keeps only
// the store folder, and renames it to dir/<commit>. It returns the commit
// the clone has: the remote may have moved since it was listed.
func checkout(ctx context.Context, dir string, s config.Source, ref plumbing.ReferenceName) (string, error) {
	tmp, err := os.MkdirTemp(dir, ".fetch-")
	if err != nil {
		return "", fmt.Errorf("sources: %w", err)
	}
	defer os.RemoveAll(tmp)
	commit, err := clone(ctx, tmp, s, ref)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(dir, commit)
	if isDir(dst) {
		return commit, nil
	}
	return commit, keepStore(filepath.Join(tmp, "work"), dst, s, commit)
}

// keepStore moves the store folder of a checkout at work to dst, at the
// same relative path (a reader finds <commit>/<path>), without links or
// the .git folder: a source's files are read as data, and a link in them
// must not make lore read a file of this machine as an org item.
func keepStore(work, dst string, s config.Source, commit string) error {
	dir := filepath.Dir(dst)
	keep := filepath.Join(dir, ".keep-"+commit)
	_ = os.RemoveAll(keep)
	src := filepath.Join(work, filepath.FromSlash(s.Folder()))
	if !isDir(src) {
		return fmt.Errorf("sources: %s: no folder %s at %s", s.Name, s.Folder(), short(commit))
	}
	realWork, err1 := filepath.EvalSymlinks(work)
	realSrc, err2 := filepath.EvalSymlinks(src)
	if err1 != nil || err2 != nil || realSrc != filepath.Join(realWork, filepath.FromSlash(s.Folder())) {
		return fmt.Errorf("sources: %s: %s at %s is reached through a link", s.Name, s.Folder(), short(commit))
	}
	if err := unlinked(src); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(keep, filepath.FromSlash(s.Folder()))), 0o755); err != nil {
		return fmt.Errorf("sources: %w", err)
	}
	if err := os.Rename(src, filepath.Join(keep, filepath.FromSlash(s.Folder()))); err != nil {
		return fmt.Errorf("sources: %w", err)
	}
	if err := os.Rename(keep, dst); err != nil {
		return fmt.Errorf("sources: %w", err)
	}
	return nil
}

// unlinked removes from a checked-out folder every symbolic link and other
// non-regular file, and any .git folder.
func unlinked(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return fmt.Errorf("sources: %w", err)
		case d.IsDir() && d.Name() == ".git":
			if err := os.RemoveAll(p); err != nil {
				return fmt.Errorf("sources: %w", err)
			}
			return filepath.SkipDir
		case !d.IsDir() && !d.Type().IsRegular():
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("sources: %w", err)
			}
		}
		return nil
	})
}

// writeState replaces the state file atomically.
func writeState(dir string, st State) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return replace(filepath.Join(dir, lorepath.SourceState), append(data, '\n'))
}

// replace writes a file of the source's folder atomically.
func replace(path string, data []byte) error {
	if err := filewrite.Replace(path, data, filewrite.Options{}); err != nil {
		return fmt.Errorf("sources: %w", err)
	}
	return nil
}

// prune removes the checkouts and temporary folders of dir other than the
// current one and the one before it (a reader may still be in it).
func prune(dir, current string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type co struct {
		name string
		mod  time.Time
	}
	var old []co
	var parts []string
	for _, e := range entries {
		if !e.IsDir() {
			if strings.HasSuffix(e.Name(), ".part") || strings.HasSuffix(e.Name(), ".known") {
				parts = append(parts, e.Name())
			}
			continue
		}
		if e.Name() == current {
			continue
		}
		if strings.HasPrefix(e.Name(), ".") {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour { // a crashed fetch's leftovers
				_ = os.RemoveAll(filepath.Join(dir, e.Name()))
			}
			continue
		}
		if info, err := e.Info(); err == nil {
			old = append(old, co{e.Name(), info.ModTime()})
		}
	}
	// Keep the newest other checkout.
	newest := -1
	for i, c := range old {
		if newest < 0 || c.mod.After(old[newest].mod) {
			newest = i
		}
	}
	keep := map[string]bool{current: true}
	for i, c := range old {
		if i != newest {
			_ = os.RemoveAll(filepath.Join(dir, c.name))
		} else {
			keep[c.name] = true
		}
	}
	// A part is named by its commit: it goes with its checkout.
	for _, name := range parts {
		if commit, _, _ := strings.Cut(name, "-"); !keep[commit] {
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
}

// lock takes the source folder's lock: one fetch at a time per source.
func lock(dir string, wait bool) (unlock func(), ok bool, err error) {
	l := flock.New(filepath.Join(dir, ".lock"))
	if wait {
		ok, err = true, l.Lock()
	} else {
		ok, err = l.TryLock()
	}
	if err != nil || !ok {
		return nil, false, errWrap("lock "+dir, err)
	}
	return func() { _ = l.Unlock() }, true, nil
}

// errWrap prefixes a non-nil error with the package and what failed.
func errWrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("sources: %s: %w", what, err)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
