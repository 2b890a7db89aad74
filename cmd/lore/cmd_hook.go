package main

import "github.com/lore-agents/lore/internal/inject/hooks"

// HookCmd is the agent hook inside the full CLI; cmd/lore-hook is the same
// function in a lean binary (the one `lore init --agent` registers when it
// is installed next to lore).
type HookCmd struct {
	Agent string `arg:"" help:"The agent: claude, codex or gemini."`
	Event string `arg:"" help:"The agent's hook event, e.g. PreToolUse."`
}

// Run never fails: hook problems go to .lore/cache/hook.log and stderr.
func (c *HookCmd) Run(g *Globals) error {
	hooks.Main([]string{c.Agent, c.Event}, g.Stdin, g.Stdout, g.Stderr)
	return nil
}
