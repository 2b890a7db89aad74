package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// LintCmd checks the whole store and optionally fixes what it can.
type LintCmd struct {
	Fix    bool `help:"Rewrite what lint can fix by itself: a trailing (?!.*(A|B)) into unless, duplicate PF-/ADR- numbers."`
	Strict bool `help:"Exit 1 on warnings too."`
	JSON   bool `name:"json" help:"Print the findings (and fixes) as JSON."`
}

// Run lints; with --fix it first rewrites under the store lock, then lints
// the result.
func (c *LintCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Lint(s, app.LintOptions{Fix: c.Fix})
	if !c.JSON {
		for _, f := range r.Fixed {
			for _, w := range f.Changes {
				fmt.Fprintf(g.Stdout, "fixed %s: %s\n", f.Path, w)
			}
		}
	}
	if err != nil {
		return err
	}
	if c.JSON {
		err = g.printJSON(r)
	} else {
		printFindings(g, r)
	}
	if err == nil && r.Failed(c.Strict) {
		err = errFindings
	}
	return err
}

func printFindings(g *Globals, r app.LintReport) {
	for _, f := range r.Findings {
		style := styleRed
		if f.Severity == lint.Warning {
			style = styleYellow
		}
		fmt.Fprintln(g.Stdout, g.paint(style, f.String()))
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(g.Stderr, "lint: %d error(s), %d warning(s)\n", r.Errors, r.Warnings)
	}
}
