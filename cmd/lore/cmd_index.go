package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// IndexCmd prints the compact knowledge index the SessionStart hook injects.
type IndexCmd struct {
	Budget int  `placeholder:"BYTES" default:"2048" help:"The index's byte budget (the SessionStart block uses 2048)."`
	JSON   bool `name:"json" help:"Print the shown entries and the number left out as JSON."`
}

// Run prints the index the SessionStart block would show.
func (c *IndexCmd) Run(g *Globals, s *gitstore.Store) error {
	if c.Budget < 0 {
		return usagef("--budget must be 0 or more")
	}
	r, err := app.Index(s, app.IndexOptions{Budget: c.Budget})
	if err != nil {
		return err
	}
	for _, line := range app.SkippedLines(r.Skipped) {
		fmt.Fprintf(g.Stderr, "lore: index: %s\n", line)
	}
	if c.JSON {
		return g.printJSON(r.Index)
	}
	_, err = fmt.Fprint(g.Stdout, r.Text)
	return err
}
