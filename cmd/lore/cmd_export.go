package main

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/interop"
)

// ExportCmd writes active knowledge into the files agents read.
type ExportCmd struct {
	Target string `arg:"" help:"agents (AGENTS.md), claude (CLAUDE.md), gemini (GEMINI.md), copilot (.github/copilot-instructions.md), claude-rules, cursor, copilot-instructions, windsurf (.windsurf/rules), cline (.clinerules)."`
	Check  bool   `help:"Write nothing; exit 1 when the target is out of date."`
}

// Run exports, or checks that the export is current.
func (c *ExportCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	e, errs, err := interop.Run(s, strings.ToLower(c.Target), c.Check)
	for _, le := range errs {
		fmt.Fprintf(g.Stderr, "lore: skipped: %v\n", le)
	}
	if err != nil {
		return err
	}
	interop.WriteExportReport(g.Stdout, c.Target, e, c.Check)
	if c.Check && len(e.Changes) > 0 {
		return errFindings
	}
	return nil
}
