package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lore-agents/lore/compile"
	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/manifest"
)

// BuildCmd compiles .lore/ into the manifest the agent hook reads.
type BuildCmd struct {
	Quiet bool `help:"Print nothing but problems (what the git hooks run)."`
	Force bool `help:"Rebuild even when no file under .lore/ changed."`
}

// stampPath records the fingerprint and source hash of the last build, so
// a build with nothing changed returns after a few stat calls.
const stampPath = gitstore.DirName + "/cache/manifest.stamp"

// Run builds, or returns at once when the stamp says nothing changed.
func (c *BuildCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	b, err := buildManifest(s, c.Force, true, g.Stderr)
	if err != nil {
		return err
	}
	defer b.m.Close()
	if c.Quiet {
		return nil
	}
	if b.fresh {
		fmt.Fprintf(g.Stdout, "%s is up to date: %d items\n", manifest.RelPath, b.m.Len())
		return nil
	}
	r := b.report
	verb := "wrote"
	if !b.wrote {
		verb = "unchanged"
	}
	fmt.Fprintf(g.Stdout, "%s %s: %d items compiled", verb, manifest.RelPath, r.Compiled)
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
	}{{len(r.Excluded) - unsafe, "excluded for errors"}, {unsafe, "left out for safety (see lore lint)"}, {r.Inactive, "not injectable by status"}, {r.LowConf, "below inject.minConfidence"}, {r.Shadowed, "global items shadowed by the project"}} {
		if n.v > 0 {
			notes = append(notes, fmt.Sprintf("%d %s", n.v, n.what))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(g.Stdout, " (%s)", strings.Join(notes, ", "))
	}
	fmt.Fprintln(g.Stdout)
	if r.Drafts > 0 {
		fmt.Fprintf(g.Stdout, "%d draft item(s) await review: lore review\n", r.Drafts)
	}
	return nil
}

type built struct {
	m      *manifest.Manifest
	fresh  bool // the manifest on disk was up to date
	wrote  bool
	report compile.Report
}

// buildManifest returns an up-to-date manifest: the one on disk when its
// stamp matches the current fingerprint and it opens cleanly (unless
// force), otherwise a new build, written to disk when write is set.
// Items left out for errors are reported on stderr, one line each.
func buildManifest(s *gitstore.Store, force, write bool, stderr io.Writer) (*built, error) {
	global := compile.GlobalDir()
	dirs := []string{s.Dir}
	if global != "" {
		dirs = append(dirs, global)
	}
	fp, err := compile.Fingerprint(dirs...)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	path := s.Path(manifest.RelPath)
	if !force {
		if stamp, err := os.ReadFile(s.Path(stampPath)); err == nil {
			if want, hash, ok := strings.Cut(strings.TrimSpace(string(stamp)), " "); ok && want == fp {
				if m, err := manifest.Open(path); err == nil {
					if m.SourceHash() == hash {
						return &built{m: m, fresh: true}, nil
					}
					m.Close()
				}
			}
		}
	}

	in, errs, err := compileInput(s, global)
	if err != nil {
		return nil, err
	}
	data, rep, err := compile.Build(in)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "lore: build: skipped %v\n", e)
	}
	for _, x := range rep.Excluded {
		what := "excluded"
		if x.Unsafe {
			what = "left out for safety, never injected:"
		}
		for _, e := range x.Errors {
			fmt.Fprintf(stderr, "lore: build: %s %v\n", what, e)
		}
	}
	b := &built{report: rep}
	if !write {
		b.m, err = manifest.Parse(data)
		return b, err
	}
	// The manifest and its stamp under one lock: the stamp's temp file is
	// never another writer's stray temp file to sweep.
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, data) {
		if err := gitstore.WriteAtomic(path, data); err != nil {
			return nil, err
		}
		b.wrote = true
	}
	m, err := manifest.Open(path)
	if err != nil {
		return nil, err
	}
	b.m = m
	stamp := fp + " " + m.SourceHash() + "\n"
	if err := gitstore.WriteAtomic(s.Path(stampPath), []byte(stamp)); err != nil {
		m.Close()
		return nil, err
	}
	return b, nil
}
