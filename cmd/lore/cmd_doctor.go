package main

import (
	"fmt"
	"os"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// DoctorCmd checks the whole chain lore needs to reach an agent.
type DoctorCmd struct {
	JSON bool `name:"json" help:"Print the findings as JSON."`
}

// Run prints every finding with its fix; exit 1 when one needs action.
func (c *DoctorCmd) Run(g *Globals, s *gitstore.Store) (err error) {
	r := app.Doctor(s, os.Getenv)
	if c.JSON {
		err = g.printJSON(r)
	} else {
		for _, f := range r.Findings {
			fmt.Fprintf(g.Stdout, "%-6s %-9s %s\n", f.Level, f.Check, f.Message)
			if f.Fix != "" {
				fmt.Fprintf(g.Stdout, "%17sfix: %s\n", "", f.Fix)
			}
		}
	}
	if err == nil && r.Action {
		err = errFindings
	}
	return err
}
