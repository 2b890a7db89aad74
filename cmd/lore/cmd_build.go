package main

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/app"
	"github.com/lore-agents/lore/manifest"
)

// BuildCmd compiles .lore/ into the manifest the agent hook reads.
type BuildCmd struct {
	Quiet bool `help:"Print nothing but problems (what the git hooks run)."`
	Force bool `help:"Rebuild even when no file under .lore/ changed."`
}

// Run builds, or returns at once when no source changed since the last build.
func (c *BuildCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	b, err := app.Build(s, app.BuildOptions{Force: c.Force})
	if err != nil {
		return err
	}
	printBuildProblems(g, b)
	if c.Quiet {
		return nil
	}
	if b.Fresh {
		fmt.Fprintf(g.Stdout, "%s is up to date: %d items\n", manifest.RelPath, b.Items)
		return nil
	}
	r := b.Report
	verb := "wrote"
	if !b.Wrote {
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

// printBuildProblems reports on stderr, one line each, the files a build
// could not read and the items it left out for errors.
func printBuildProblems(g *Globals, b app.Built) {
	for _, e := range b.Skipped {
		fmt.Fprintf(g.Stderr, "lore: build: skipped %v\n", e)
	}
	for _, x := range b.Report.Excluded {
		what := "excluded"
		if x.Unsafe {
			what = "left out for safety, never injected:"
		}
		for _, e := range x.Errors {
			fmt.Fprintf(g.Stderr, "lore: build: %s %v\n", what, e)
		}
	}
}
