package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
)

// InitCmd creates the .lore/ layout of docs/design.md, What lives in a
// repository.
type InitCmd struct {
	NoGitHooks bool     `name:"no-git-hooks" help:"Do not install lore's git hooks (see lore hooks)."`
	Agent      []string `name:"agent" placeholder:"AGENT" help:"Also register lore's hooks and slash commands for these agents: claude, codex, gemini; or lore's MCP server and rule files for cursor, copilot, windsurf, cline (repeat the flag or separate with commas)."`
	MCP        bool     `name:"mcp" help:"With --agent claude, codex or gemini: also register lore's MCP server (lore mcp) beside the hooks."`
	Guards     string   `name:"guards" enum:",open,closed" default:"" help:"When lore-hook cannot run: open lets the tool call through (the default), closed blocks it (Claude Code 2.1.295+ only). Unset: keep what is registered."`
	Uninstall  bool     `name:"uninstall" help:"With --agent: remove exactly what --agent installed, and nothing else."`
}

// Run creates what is missing and leaves every existing file alone; it
// prints what was done even when a later step fails.
func (c *InitCmd) Run(g *Globals) error {
	s, err := g.Store()
	if err != nil {
		return err
	}
	r, err := app.Init(s, app.InitOptions{GitHooks: !c.NoGitHooks, Agents: c.Agent, Guards: c.Guards, Uninstall: c.Uninstall, MCP: c.MCP})
	for _, rel := range r.Created {
		fmt.Fprintf(g.Stdout, "created %s\n", rel)
	}
	if r.MergeLine != "" {
		fmt.Fprintf(g.Stdout, "added to .gitattributes: %s (a merge keeps both sides' learnings)\n", r.MergeLine)
	}
	for _, h := range r.Hooks.Hooks {
		if h.Changed == "" {
			continue
		}
		where := s.Rel(h.Path)
		if r.Hooks.Manager != "" {
			where = r.Hooks.Manager + " owns " + s.Rel(r.Hooks.Dir)
		}
		fmt.Fprintf(g.Stdout, "git hook %s: %s (%s)\n", h.Name, h.Changed, where)
		if h.Step != "" {
			fmt.Fprintf(g.Stdout, "  to do: %s\n", h.Step)
		}
	}
	for _, st := range r.AgentSteps {
		printAgentStep(g.Stdout, st.Did, st.Path, st.Why)
	}
	if r.PathProblem != "" {
		fmt.Fprintf(g.Stdout, "warning: %s\n", r.PathProblem)
	}
	if r.Unchanged {
		fmt.Fprintln(g.Stdout, "lore is already initialized here: nothing changed")
	}
	return err
}
