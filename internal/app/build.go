package app

import (
	"bytes"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// BuildOptions says whether a build may reuse the manifest on disk.
type BuildOptions struct {
	Force bool // rebuild from every file (no item cache), even when no source changed
}

// Built is what a build did. Skipped (files that could not be read) and
// Report.Excluded (items left out for errors) are for the caller to report.
type Built struct {
	Fresh bool // the manifest on disk was up to date: nothing was compiled
	Wrote bool // the manifest's bytes changed on disk
	Items int  // items in the manifest
	// Read is how many of the All item files the build read and parsed;
	// the others its cache had unchanged (docs/design.md, Incremental build).
	Read, All int
	Report    compile.Report
	Skipped   []error
	// Unfetched are the organisation sources the configs name that were
	// never fetched here (or whose copy is gone): their items reach no
	// agent until lore sync.
	Unfetched []string
}

// NoCopy says that an organisation source the configs name has no copy
// here, and what to run.
func NoCopy(name string) string {
	return fmt.Sprintf("source %s has no copy here (never fetched, or its copy was removed): its items reach no agent until lore sync", name)
}

// Notes say what a build left out and why, one "N what" phrase per reason
// that applies.
func (b Built) Notes() []string {
	r := b.Report
	unsafe := 0
	for _, x := range r.Excluded {
		if x.Unsafe {
			unsafe++
		}
	}
	var notes []string
	for _, n := range []struct {
		v    int
		what string
	}{{len(r.Excluded) - unsafe, "excluded for errors"}, {unsafe, "left out for safety (see lore lint)"}, {r.Inactive, "not injectable by status"}, {r.LowConf, "below inject.minConfidence"}, {r.Shadowed, "org or user items shadowed by an earlier item of the same id"}, {r.Disabled, "org or user items disabled by config"},
		{r.AlwaysOn, "without triggers, delivered at session start"}, {r.Dead, "that can never fire (lore list says why)"}} {
		if n.v > 0 {
			notes = append(notes, fmt.Sprintf("%d %s", n.v, n.what))
		}
	}
	return notes
}

// Problems are the files the build could not read and the items it left
// out for errors, one line each.
func (b Built) Problems() []string {
	var out []string
	for _, name := range b.Unfetched {
		out = append(out, NoCopy(name))
	}
	out = append(out, SkippedLines(b.Skipped)...)
	for _, x := range b.Report.Excluded {
		what := "excluded"
		if x.Unsafe {
			what = "left out for safety, never injected:"
		}
		for _, e := range x.Errors {
			out = append(out, fmt.Sprintf("%s %v", what, e))
		}
	}
	return out
}

// Build brings the manifest the agent hook reads up to date: the one on
// disk is kept when no source changed since it was built, it was built by
// this compiler and every checksum holds (unless Force); otherwise the
// store is compiled and the manifest written, both under the build lock.
// When the store compiled but the manifest could not be written, the
// result still says what was skipped and left out.
func Build(s *gitstore.Store, o BuildOptions) (Built, error) {
	unlock, err := s.BuildLock()
	if err != nil {
		return Built{}, err
	}
	defer unlock()
	b, m, err := build(s, o.Force, true)
	if err != nil {
		return b, err
	}
	defer m.Close()
	b.Items = m.Count()
	return b, nil
}

// build returns an up-to-date manifest (the caller closes it) and what was
// done for it: the one on disk when it is fresh (unless force), or a new
// build, written to disk when write is set (the caller holds the build
// lock) and otherwise kept in memory. It never maps the file: a manifest
// rewritten in place while it runs would fault the mapping (SIGBUS), so it
// parses bytes it holds, the ones it read or the ones it wrote.
func build(s *gitstore.Store, force, write bool) (Built, *manifest.Manifest, error) {
	if !force {
		if m := freshManifest(s); m != nil {
			return freshNotes(s), m, nil
		}
	}
	data, b, err := compileStore(s, write, force)
	if err != nil {
		return b, nil, err
	}
	if write {
		if b.Wrote, err = writeManifest(s, data); err != nil {
			return b, nil, err
		}
	}
	m, err := manifest.Parse(data)
	return b, m, err
}

// freshNotes is a build that found the manifest fresh, with what every
// build says: the configs' problems and the sources with no copy here (git's
// hooks run a build on each commit, and the hook's own builds say them
// in its log).
func freshNotes(s *gitstore.Store) Built {
	b := Built{Fresh: true}
	sc, err := LoadScopes(s)
	if err != nil {
		b.Skipped = []error{err}
		return b
	}
	for _, err := range []error{sc.ConfigErr, sc.UserErr} {
		if err != nil {
			b.Skipped = append(b.Skipped, err)
		}
	}
	b.Unfetched = unfetched(sc.Stores)
	return b
}

// freshManifest is the manifest on disk, read into memory, when it is
// fresh; nil when it is missing, corrupt or stale.
func freshManifest(s *gitstore.Store) *manifest.Manifest {
	data, err := s.ReadFile(lorepath.Manifest)
	if err != nil {
		return nil
	}
	m, err := manifest.Parse(data)
	if err != nil {
		return nil
	}
	if m.Stale(s.Root, compile.Revision) != "" {
		m.Close() // its parts are mapped
		return nil
	}
	return m
}

// compileStore compiles the project and the other scopes' stores into
// manifest bytes, from the files the item cache does not have unchanged
// (every file when fromScratch), saving the cache for the next build when
// write is set (the caller holds the build lock).
func compileStore(s *gitstore.Store, write, fromScratch bool) ([]byte, Built, error) {
	// A build allocates much and keeps little, and a hook call may be
	// waiting for it: fewer collections cost a quarter of its CPU time at
	// 10,000 items (1.1 s to 0.84 s user+sys) for 40% more peak memory.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	sc, err := LoadScopes(s)
	if err != nil {
		return nil, Built{}, err
	}
	// The edit mark is answered by this build; a mark left in place (its
	// removal failed) only makes the next hook call check the files again.
	_ = s.RemoveLocked(lorepath.Edited)
	salt := binarySalt()
	var skipped []error
	if write {
		skipped = readParts(sc, salt, fromScratch)
	}
	snap := compile.TakeSnapshot(s.Root, sc.Stores, sc.Config.Learnings)
	cache := loadCache(s, salt, compile.ItemCap(compile.Settings(sc.Config)), fromScratch)
	cache.Match(snap)
	in, errs := buildInput(s, sc, snap, cache)
	skipped = append(errs, skipped...)
	in.Snapshot = snap
	if write {
		// Written while the manifest is built, when worth saving; unsaved,
		// the next build parses the files again: not an error.
		cache.SaveWith(func(data []byte) { _ = s.WriteDerived(lorepath.ItemCache, data) })
	}
	data, rep, err := compile.Build(in)
	cache.Wait() // the build lock is held until the cache is written
	if err != nil {
		return nil, Built{}, err
	}
	b := Built{Report: rep, Skipped: skipped, Unfetched: unfetched(sc.Stores)}
	b.Read, b.All = cache.Counts()
	return data, b, nil
}

// writeManifest writes the manifest when its bytes changed, and says
// whether it did. The caller holds the build lock, so no other build
// writes it between the comparison and the write; the store writes it
// under its own lock, so its temp file is never another writer's stray
// temp file to sweep.
func writeManifest(s *gitstore.Store, data []byte) (bool, error) {
	if old, err := s.ReadFile(lorepath.Manifest); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	return true, s.WriteDerived(lorepath.Manifest, data)
}

// SkippedLines says each of errs on a line of its own: a config's
// problems with what is used meanwhile, the rest as files skipped.
func SkippedLines(errs []error) []string {
	var out []string
	for _, e := range errs {
		if problems := ConfigProblems(e); problems != nil {
			out = append(out, problems...)
		} else {
			out = append(out, fmt.Sprintf("skipped %v", e))
		}
	}
	return out
}

// ConfigProblems are the problems of a config err names, each with what
// the commands that go on do without its key; nil when err is not a
// config's.
func ConfigProblems(err error) []string {
	var out []string
	for _, ce := range config.Problems(err) {
		out = append(out, ce.WithEffect())
	}
	return out
}

// binarySalt is this binary's identity (its path, size and time), ""
// when unknown: what lore compiled and cached is trusted by the binary
// that compiled it alone.
func binarySalt() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s %d %d", exe, st.Size(), st.ModTime().UnixNano())
}

// loadCache reads what the last build knew of the item files, salted
// with this binary's identity: a lore built with other checks or
// rendering never trusts it (docs/design.md, Incremental build). Empty,
// it reads none: every file is read and checked again, and the cache
// saved is new.
func loadCache(s *gitstore.Store, salt string, itemCap int, empty bool) *compile.Cache {
	var data []byte
	if salt != "" && !empty {
		data, _ = s.ReadFile(lorepath.ItemCache) // none or unreadable: every file is parsed
	}
	return compile.LoadCache(data, salt, itemCap)
}
