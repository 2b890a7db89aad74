package main

import (
	"fmt"
	"path/filepath"

	"github.com/lore-agents/lore/internal/app"
)

// AgesCmd prints the git-active-day age of every learnings entry.
type AgesCmd struct {
	File  string `arg:"" optional:"" help:"Learnings file (default: the configured learnings, .lore/learnings.md)."`
	JSON  bool   `name:"json" help:"Print JSON instead of the Markdown report."`
	Today string `placeholder:"YYYY-MM-DD" help:"Count active days up to this date instead of today."`
}

// Run ages the entries from git history (go-git; no git binary needed).
func (c *AgesCmd) Run(g *Globals) error {
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
