package main

import (
	"time"

	"github.com/lore-agents/lore/interop"
)

// ImportCmd brings knowledge in from other tools' files as drafts.
type ImportCmd struct {
	Source string `arg:"" help:"A source kind (lessons-learned, cursor, claude-rules, copilot, claude, agents, gemini, adr, devflow, claude-memory, windsurf, cline) or a file or folder of one."`
	DryRun bool   `help:"Print what would be created; write nothing."`
}

// Run imports once: a second run finds every draft already in the store.
func (c *ImportCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	plan, res, err := interop.Import(s, g.Dir, c.Source, c.DryRun, time.Now())
	if err != nil {
		return err
	}
	interop.WriteReport(g.Stdout, plan, res, c.DryRun)
	return nil
}
