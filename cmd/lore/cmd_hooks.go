package main

import (
	"fmt"
	"path/filepath"

	"github.com/lore-agents/lore/app"
	"github.com/lore-agents/lore/githooks"
)

// HooksCmd manages lore's git hooks (post-commit, post-merge, post-checkout,
// post-rewrite), which keep the compiled manifest in step with .lore/.
type HooksCmd struct {
	Install   HooksInstallCmd   `cmd:"" help:"Install lore's git hooks, chaining any hook already there."`
	Uninstall HooksUninstallCmd `cmd:"" help:"Remove lore's git hooks and restore the hooks they chained."`
	Status    HooksStatusCmd    `cmd:"" help:"Show each git hook: lore, chained, foreign, missing, or managed by husky/lefthook."`
}

// HooksInstallCmd installs the hooks.
type HooksInstallCmd struct {
	JSON bool `name:"json" help:"Print the report as JSON."`
}

// HooksUninstallCmd removes them.
type HooksUninstallCmd struct {
	JSON bool `name:"json" help:"Print the report as JSON."`
}

// HooksStatusCmd reports them.
type HooksStatusCmd struct {
	JSON bool `name:"json" help:"Print the report as JSON."`
}

func (c *HooksInstallCmd) Run(g *Globals) error {
	return runHooks(g, githooks.Install, c.JSON)
}

func (c *HooksUninstallCmd) Run(g *Globals) error {
	return runHooks(g, githooks.Uninstall, c.JSON)
}

func (c *HooksStatusCmd) Run(g *Globals) error {
	return runHooks(g, githooks.Status, c.JSON)
}

func runHooks(g *Globals, op func(githooks.Target) (githooks.Report, error), asJSON bool) error {
	s, err := g.Store()
	if err != nil {
		return err
	}
	r, err := app.Hooks(s, op)
	if err != nil {
		return err
	}
	if asJSON {
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
		fmt.Fprintln(g.Stdout, hookLine(h))
		if h.Step != "" {
			fmt.Fprintf(g.Stdout, "  to do: %s\n", h.Step)
		}
	}
	return nil
}

// hookLine is one hook's state, what it chains and what just changed.
func hookLine(h githooks.Hook) string {
	line := fmt.Sprintf("%-14s %s", h.Name, h.State)
	if h.Chained != "" {
		line += " (runs " + filepath.Base(h.Chained) + " first"
		if h.Owner != "" {
			line += ", from " + h.Owner
		}
		line += ")"
	} else if h.Owner != "" && h.State == githooks.Foreign {
		line += " (" + h.Owner + ")"
	}
	if h.Changed != "" {
		line += ": " + h.Changed
	}
	return line
}
