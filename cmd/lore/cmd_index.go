package main

import (
	"fmt"

	"github.com/lore-agents/lore/app"
	"github.com/lore-agents/lore/compile"
)

// IndexCmd prints the compact knowledge index the SessionStart hook injects.
type IndexCmd struct {
	Budget int  `placeholder:"BYTES" default:"2048" help:"The index's byte budget (the SessionStart block uses 2048)."`
	JSON   bool `name:"json" help:"Print the shown entries and the number left out as JSON."`
}

// Run compiles the store in memory and renders its index with the same
// function the SessionStart block uses.
func (c *IndexCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	if c.Budget < 0 {
		return usagef("--budget must be 0 or more")
	}
	in, errs, err := app.CompileInput(s, compile.GlobalDir())
	if err != nil {
		return err
	}
	for _, e := range errs {
		fmt.Fprintf(g.Stderr, "lore: index: skipped %v\n", e)
	}
	_, rep := compile.Compile(in)
	idx := compile.RenderIndex(rep.Index, c.Budget)
	if c.JSON {
		if idx.Shown == nil {
			idx.Shown = []compile.IndexEntry{}
		}
		return g.printJSON(idx)
	}
	_, err = fmt.Fprint(g.Stdout, idx.Text)
	return err
}
