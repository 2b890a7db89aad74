package main

import (
	"fmt"

	"github.com/alecthomas/kong"

	"github.com/lore-agents/lore/internal/app"
)

// HooksCmd manages lore's git hooks (post-commit, post-merge, post-checkout,
// post-rewrite), which keep the compiled manifest in step with .lore/.
type HooksCmd struct {
	Install   HooksActionCmd `cmd:"" help:"Install lore's git hooks, chaining any hook already there."`
	Uninstall HooksActionCmd `cmd:"" help:"Remove lore's git hooks and restore the hooks they chained."`
	Status    HooksActionCmd `cmd:"" help:"Show each git hook: lore, chained, foreign, missing, or managed by husky/lefthook."`
}

// HooksActionCmd is each of them: the command's name is the action.
type HooksActionCmd struct {
	JSON bool `name:"json" help:"Print the report as JSON."`
}

// Run installs, removes or reports the hooks, and prints each one's state.
func (c *HooksActionCmd) Run(g *Globals, ctx *kong.Context) error {
	s, err := g.Store()
	if err != nil {
		return err
	}
	r, err := app.Hooks(s, ctx.Selected().Name)
	if err != nil {
		return err
	}
	if c.JSON {
		return g.printJSON(r)
	}
	where := "default"
	if r.HooksPath != "" {
		where = fmt.Sprintf("core.hooksPath=%s in %s", r.HooksPath, r.Source)
	}
	fmt.Fprintf(g.Stdout, "hooks path: %s (%s)\n", s.Rel(r.Dir), where)
	if r.Manager != "" {
		fmt.Fprintf(g.Stdout, "%s owns this folder: lore's scripts live in %s and %s runs them once each hook has the line below\n",
			r.Manager, s.Rel(r.Private), r.Manager)
	}
	for _, h := range r.Hooks {
		fmt.Fprintln(g.Stdout, h)
		if h.Step != "" {
			fmt.Fprintf(g.Stdout, "  to do: %s\n", h.Step)
		}
	}
	return nil
}
