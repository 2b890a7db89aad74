package main

import (
	"fmt"
	"path/filepath"

	"github.com/lore-agents/lore/githooks"
	"github.com/lore-agents/lore/gitstore"
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

// hooksReport is `lore hooks ... --json`.
type hooksReport struct {
	githooks.Report
	HooksPath string `json:"hooksPath,omitempty"` // core.hooksPath as configured
	Source    string `json:"source,omitempty"`    // the config file that set it
}

func runHooks(g *Globals, op func(githooks.Target) (githooks.Report, error), asJSON bool) error {
	s, err := g.Store()
	if err != nil {
		return err
	}
	t, hp, err := hooksTarget(s)
	if err != nil {
		return err
	}
	r, err := op(t)
	if err != nil {
		return err
	}
	if asJSON {
		return g.printJSON(hooksReport{Report: r, HooksPath: hp.Value, Source: hp.Source})
	}
	where := "default"
	if hp.Value != "" {
		where = fmt.Sprintf("core.hooksPath=%s in %s", hp.Value, hp.Source)
	}
	fmt.Fprintf(g.Stdout, "hooks path: %s (%s)\n", s.Rel(r.Dir), where)
	if r.Manager != "" {
		fmt.Fprintf(g.Stdout, "%s owns this folder: lore's scripts live in %s and %s runs them once each hook has the line below\n",
			r.Manager, s.Rel(t.Private), r.Manager)
	}
	for _, h := range r.Hooks {
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
		fmt.Fprintln(g.Stdout, line)
		if h.Step != "" {
			fmt.Fprintf(g.Stdout, "  to do: %s\n", h.Step)
		}
	}
	return nil
}

// hooksTarget finds the folder git runs hooks from for this work tree.
func hooksTarget(s *gitstore.Store) (githooks.Target, gitstore.HooksPath, error) {
	hp, err := s.HooksPath()
	if err != nil {
		return githooks.Target{}, hp, err
	}
	_, common, err := s.GitDirs()
	if err != nil {
		return githooks.Target{}, hp, err
	}
	return githooks.Target{Dir: hp.Dir, Root: s.Root, Private: filepath.Join(common, githooks.PrivateDir)}, hp, nil
}

// initGitHooks is lore init's part: install the git hooks and print what
// changed, one line each; it returns how many lines it printed.
func initGitHooks(g *Globals, s *gitstore.Store) (int, error) {
	t, _, err := hooksTarget(s)
	if err != nil {
		return 0, err
	}
	r, err := githooks.Install(t)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, h := range r.Hooks {
		if h.Changed == "" {
			continue
		}
		n++
		if r.Manager != "" {
			fmt.Fprintf(g.Stdout, "git hook %s: %s (%s owns %s)\n", h.Name, h.Changed, r.Manager, s.Rel(r.Dir))
		} else {
			fmt.Fprintf(g.Stdout, "git hook %s: %s (%s)\n", h.Name, h.Changed, s.Rel(h.Path))
		}
		if h.Step != "" {
			fmt.Fprintf(g.Stdout, "  to do: %s\n", h.Step)
		}
	}
	return n, nil
}
