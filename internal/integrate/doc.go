// Package integrate is the group that connects lore to the tools around
// it: agent (hook registrations and slash commands in Claude Code, Codex
// and Gemini CLI), githooks (lore's git hooks, chained with the user's)
// and interop (import from and export to other rule and memory formats).
//
// It may import every group below the application layer
// (docs/architecture.md).
package integrate
