package main

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// BuildCmd compiles .lore/ into the manifest the agent hook reads.
type BuildCmd struct {
	Quiet bool `help:"Print nothing but problems (what the git hooks run)."`
	Force bool `help:"Rebuild from every item file, even when none changed (the build's item cache is not used)."`
}

// Run builds, or returns at once when no source changed since the last build.
func (c *BuildCmd) Run(g *Globals, s *gitstore.Store) error {
	b, err := app.Build(s, app.BuildOptions{Force: c.Force})
	printBuildProblems(g, b)
	if err != nil {
		return err
	}
	if c.Quiet {
		return nil
	}
	if b.Fresh {
		fmt.Fprintf(g.Stdout, "%s is up to date: %d items\n", lorepath.Manifest, b.Items)
		return nil
	}
	r := b.Report
	verb := "wrote"
	if !b.Wrote {
		verb = "unchanged"
	}
	fmt.Fprintf(g.Stdout, "%s %s: %s compiled", verb, lorepath.Manifest, plural(r.Compiled, "item"))
	if b.Read < b.All {
		fmt.Fprintf(g.Stdout, ", %d of %d item files unchanged", b.All-b.Read, b.All)
	}
	if notes := b.Notes(); len(notes) > 0 {
		fmt.Fprintf(g.Stdout, " (%s)", strings.Join(notes, ", "))
	}
	fmt.Fprintln(g.Stdout)
	if r.Drafts > 0 {
		fmt.Fprintf(g.Stdout, "%d draft item(s) await review: lore review\n", r.Drafts)
	}
	return nil
}

// printBuildProblems reports on stderr, one line each, the files a build
// could not read and the items it left out for errors.
func printBuildProblems(g *Globals, b app.Built) {
	for _, p := range b.Problems() {
		fmt.Fprintf(g.Stderr, "lore: build: %s\n", visible(p))
	}
}
