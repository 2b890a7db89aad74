package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
)

// ConsolidateCmd moves aged learnings into lasting knowledge.
type ConsolidateCmd struct {
	DryRun bool   `help:"Decide everything but write only the report."`
	JSON   bool   `name:"json" help:"Print the decisions as JSON."`
	Agent  bool   `help:"Write the batch and check results as a task for the lore-remember-task agent instead of routing."`
	Today  string `placeholder:"YYYY-MM-DD" help:"Count active days up to this date instead of today."`
}

// Run consolidates, or says why it did not.
func (c *ConsolidateCmd) Run(g *Globals) error {
	res, err := runConsolidate(g, app.ConsolidateOptions{DryRun: c.DryRun, Agent: c.Agent, Today: c.Today})
	if err != nil {
		return err
	}
	if c.JSON {
		return g.printJSON(res)
	}
	fmt.Fprintln(g.Stdout, consolidationSummary(res))
	return nil
}

func runConsolidate(g *Globals, opt app.ConsolidateOptions) (*app.Consolidation, error) {
	s, err := g.InitializedStore()
	if err != nil {
		return nil, err
	}
	return app.Consolidate(s, opt)
}
