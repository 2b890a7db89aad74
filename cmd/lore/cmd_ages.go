package main

import (
	"fmt"
	"path/filepath"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
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
	opt := app.AgesOptions{File: c.File}
	if opt.Today, err = todayFlag(c.Today); err != nil {
		return err
	}
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
	return rep.Markdown(g.Stdout, rep.Freshness)
}

// todayFlag is the --today flag: a YYYY-MM-DD date, or the local date.
func todayFlag(flag string) (string, error) {
	if flag == "" {
		return ages.Today(), nil
	}
	day, err := ages.ParseDate(flag)
	if err != nil {
		return "", usagef("--today: %v", err)
	}
	return day, nil
}
