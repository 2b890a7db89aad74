package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// StatusCmd summarizes the store: what there is, what awaits review, what
// has gone stale.
type StatusCmd struct {
	JSON      bool   `name:"json" help:"Print the status as JSON."`
	Line      bool   `help:"Print one line for a status bar."`
	StaleDays int    `placeholder:"N" default:"90" help:"An active item not updated (or created) for N days is stale."`
	Today     string `placeholder:"YYYY-MM-DD" help:"Count from this date instead of today."`
}

// Run gathers the status and prints it.
func (c *StatusCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Status(s, app.StatusOptions{StaleDays: c.StaleDays, Today: c.Today, Evidence: !c.Line})
	if err != nil {
		return err
	}
	if r.ObservationsErr != nil {
		fmt.Fprintf(g.Stderr, "lore: status: observations: %v\n", r.ObservationsErr)
	}
	if r.EvidenceErr != nil {
		fmt.Fprintf(g.Stderr, "lore: status: ledger: %v\n", r.EvidenceErr)
	}
	switch {
	case c.JSON:
		return g.printJSON(r)
	case c.Line:
		fmt.Fprintln(g.Stdout, statusLine(r))
	default:
		printStatus(g.Stdout, r)
	}
	return nil
}
