package main

import (
	"fmt"
	"path/filepath"

	"github.com/lore-agents/lore/ages"
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
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	today, err := todayFlag(c.Today)
	if err != nil {
		return err
	}
	rel := cfg.Learnings
	if c.File != "" {
		abs, err := filepath.Abs(filepath.Join(g.Dir, c.File))
		if filepath.IsAbs(c.File) {
			abs, err = c.File, nil
		}
		if err != nil {
			return err
		}
		rel = s.Rel(abs)
	}
	rep, err := ages.Load(s, rel, today)
	if err != nil {
		return err
	}
	if rep.Shallow {
		fmt.Fprintln(g.Stderr, "lore: warning: shallow clone: ages count only the history that is present")
	}
	if c.JSON {
		return g.printJSON(rep)
	}
	return rep.Markdown(g.Stdout, cfg.Consolidate.Freshness)
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
