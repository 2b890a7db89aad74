package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ExportCmd writes active knowledge into the files agents read.
type ExportCmd struct {
	Target string `arg:"" help:"agents (AGENTS.md), claude (CLAUDE.md), gemini (GEMINI.md), copilot (.github/copilot-instructions.md), claude-rules, cursor, copilot-instructions, windsurf (.windsurf/rules), cline (.clinerules)."`
	Check  bool   `help:"Write nothing; exit 1 when the target is out of date."`
}

// Run exports, or checks that the export is current.
func (c *ExportCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Export(s, app.ExportOptions{Target: c.Target, Check: c.Check})
	for _, line := range app.SkippedLines(r.Skipped) {
		fmt.Fprintf(g.Stderr, "lore: export: %s\n", line)
	}
	if err != nil {
		return err
	}
	if c.Check && len(r.Changes) == 0 {
		return nil // up to date: a check in CI or pre-commit says nothing
	}
	printExport(g.Stdout, c.Target, r, c.Check)
	if c.Check {
		return errFindings
	}
	return nil
}
