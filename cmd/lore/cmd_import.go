package main

import (
	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ImportCmd brings knowledge in from other tools' files as drafts.
type ImportCmd struct {
	Source string `arg:"" help:"A source kind (lessons-learned, cursor, claude-rules, copilot, claude, agents, gemini, adr, devflow, claude-memory, windsurf, cline) or a file or folder of one."`
	DryRun bool   `help:"Print what would be created; write nothing."`
}

// Run imports once: a second run finds every draft already in the store.
func (c *ImportCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Import(s, app.ImportOptions{Source: c.Source, Dir: g.Dir, DryRun: c.DryRun})
	if err != nil {
		return err
	}
	printImport(g.Stdout, r, c.DryRun)
	return nil
}
