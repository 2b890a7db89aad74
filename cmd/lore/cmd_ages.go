package main

import (
	"fmt"
	"path/filepath"
	"runtime/debug"

	"github.com/lore-agents/lore/internal/app"
)

// AgesCmd prints the git-active-day age of every learnings entry.
type AgesCmd struct {
	File  string `arg:"" optional:"" help:"Learnings file (default: the configured learnings, .lore/learnings.md)."`
	JSON  bool   `name:"json" help:"Print JSON instead of the Markdown report."`
	Today string `placeholder:"YYYY-MM-DD" help:"Count active days up to this date instead of today."`
}

// agesMemoryLimit is the heap size past which a `lore ages` collects
// garbage: a cold run on 2,000 commits peaks under 30 MB.
const agesMemoryLimit = 256 << 20

// Run ages the entries from git history (go-git; no git binary needed).
func (c *AgesCmd) Run(g *Globals) error {
	// A cold run decodes thousands of git objects in one short process, and
	// collecting their garbage as it went was about a sixth of its time
	// (docs/design.md, Performance and quality bars): the collector runs
	// only past agesMemoryLimit, which any history stays under or slows at.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(agesMemoryLimit))
	s, err := g.Store()
	if err != nil {
		return err
	}
	opt := app.AgesOptions{File: c.File, Today: c.Today}
	if c.File != "" && !filepath.IsAbs(c.File) {
		if opt.File, err = filepath.Abs(filepath.Join(g.Dir, c.File)); err != nil {
			return err
		}
	}
	rep, err := app.EntryAges(s, opt)
	if err != nil {
		return err
	}
	if rep.Shallow {
		fmt.Fprintln(g.Stderr, "lore: warning: shallow clone: ages count only the history that is present")
	}
	if c.JSON {
		return g.printJSON(rep.Report)
	}
	return printAges(g.Stdout, rep)
}
