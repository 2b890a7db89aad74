package main

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/app"
)

// HandoffCmd is consolidation for an agent's handoff step: it never fails.
type HandoffCmd struct {
	Agent bool   `help:"Hand the batch to the lore-remember-task agent instead of routing it."`
	Today string `placeholder:"YYYY-MM-DD" help:"Count active days up to this date instead of today."`
}

// Run consolidates when due and always exits 0; problems become
// "Consolidation skipped: <reason>" (and a line on stderr).
func (c *HandoffCmd) Run(g *Globals) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = nil
			fmt.Fprintf(g.Stderr, "lore: handoff: %v\n", r)
			fmt.Fprintln(g.Stdout, "Consolidation skipped: internal error (see stderr)")
		}
	}()
	res, cerr := runConsolidate(g, app.ConsolidateOptions{Agent: c.Agent, Today: c.Today})
	if cerr != nil {
		msg := strings.ReplaceAll(strings.TrimSpace(cerr.Error()), "\n", "; ")
		fmt.Fprintf(g.Stderr, "lore: handoff: %s\n", msg)
		fmt.Fprintf(g.Stdout, "Consolidation skipped: %s\n", msg)
		return nil
	}
	fmt.Fprintln(g.Stdout, consolidationSummary(res))
	return nil
}
