// Package agent installs, checks and removes lore's integration with the
// coding agents in a repository: hook entries merged into each agent's
// project settings (.claude/settings.json, .codex/hooks.json,
// .gemini/settings.json) as text, so the user's bytes stay as they were,
// and the slash commands and sub-agent files lore ships.
package agent

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/lore-agents/lore/internal/inject/hooks"
)

// Agent is one agent lore installs into.
type Agent struct {
	Name     string // as in `lore-hook <name> <event>`
	Title    string // for people
	Settings string // the hooks file, relative to the work tree
	Comments bool   // the file may hold // and /* */ comments
	// events are the events lore wants registered, in order; Events keeps
	// those the hook adapter handles, so no call ever logs "unknown event".
	events []string
	// Timeout is the agent-side timeout in the agent's unit; lore's own
	// deadline (hooks.Deadline) is far below it.
	Timeout int
	// HookName names lore's entries where the agent shows one.
	HookName string
	// off is the setting in the hooks file that turns every hook off, and
	// its value when it does.
	off []string
	// UserShell: the agent runs a hook command in the user's login shell
	// ($SHELL -lc), which need not be POSIX.
	UserShell bool
	// CanFailClosed: the agent can block a call when the hook cannot run
	// (Claude Code's onFailure, since 2.1.295).
	CanFailClosed bool
	Commands      []File
	// NoCommands says why there are none (printed instead).
	NoCommands string
	// Trust is the step without which the agent does not run project hooks.
	Trust string
}

// Agents are the agents lore installs into.
var Agents = []*Agent{
	{
		Name: "claude", Title: "Claude Code", Settings: ".claude/settings.json",
		// PreCompact is not registered: its {} answer is shown to the model
		// as "PreCompact ... completed successfully: {}" and re-injection
		// happens at SessionStart(compact) anyway.
		events:        []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"},
		Timeout:       10,
		CanFailClosed: true,
		off:           []string{"disableAllHooks", "true"},
		Commands:      ClaudeCommands,
	},
	{
		Name: "codex", Title: "Codex CLI", Settings: ".codex/hooks.json",
		// Codex 0.169 takes context at PreToolUse, so PostToolUse would
		// only cost a process per call; PreCompact, PostCompact,
		// PermissionRequest and Interrupt add nothing that
		// SessionStart(compact) and PreToolUse do not.
		events:     []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"},
		Timeout:    10,
		UserShell:  true, // codex-rs hooks: $SHELL -lc <command>
		NoCommands: "Codex CLI reads custom prompts only from ~/.codex/prompts, not from the project: run lore scan and lore review yourself",
		Trust: "Codex runs project hooks only in a trusted project, and new or changed hooks only once you trust them: " +
			"start `codex` here and choose \"Trust all and continue\" (or run `codex --dangerously-bypass-hook-trust` for one run); " +
			"`codex exec` skips untrusted hooks without a word, and any change to .codex/hooks.json needs the review again; " +
			"lore doctor says which hooks Codex trusts",
	},
	{
		Name: "gemini", Title: "Gemini CLI", Settings: ".gemini/settings.json", Comments: true,
		// BeforeTool denies, AfterTool and BeforeAgent carry lessons (BeforeTool
		// ignores context); PreCompress fires every turn and would add nothing.
		events:   []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"},
		Timeout:  10000, // milliseconds
		HookName: "lore",
		off:      []string{"hooksConfig", "enabled", "false"},
		Commands: GeminiCommands,
		Trust: "Gemini CLI reads .gemini/settings.json only in a trusted folder: trust this folder when gemini asks " +
			"(or with /permissions), or set GEMINI_CLI_TRUST_WORKSPACE=true for a headless run; " +
			"not --skip-trust: it runs without .gemini/settings.json, so without lore",
	},
}

// Named returns the agent called name, or nil.
func Named(name string) *Agent {
	for _, a := range Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Names lists the agents' names.
func Names() []string {
	var n []string
	for _, a := range Agents {
		n = append(n, a.Name)
	}
	return n
}

// Events are the events lore registers for the agent, in order: those it
// wants that the hook adapter handles.
func (a *Agent) Events() []string {
	adapter := hooks.AgentNamed(a.Name)
	var out []string
	for _, e := range a.events {
		if _, ok := adapter.Event(e); ok {
			out = append(out, e)
		}
	}
	return out
}

// handler is one hook entry; the field order is the order in the file.
type handler struct {
	Type      string `json:"type"`
	Command   string `json:"command"`
	Name      string `json:"name,omitempty"`
	Timeout   int    `json:"timeout"`
	OnFailure string `json:"onFailure,omitempty"`
}

type group struct {
	Hooks []handler `json:"hooks"`
}

// group is lore's entry for one event. closed: a PreToolUse guard that
// cannot run blocks the call instead of letting it through.
func (a *Agent) group(event string, closed bool) group {
	closed = closed && a.CanFailClosed && event == "PreToolUse"
	h := handler{Type: "command", Command: a.Command(event, closed), Name: a.HookName, Timeout: a.Timeout}
	if closed {
		h.OnFailure = "block"
	}
	return group{Hooks: []handler{h}}
}

// Command is the hook command line for an event. It names the binaries
// instead of a path, so a committed settings file works on every
// teammate's machine: lore-hook when it is on PATH, else `lore hook`, else
// it answers {} and exits 0, so a guard that cannot run lets the call
// through instead of failing every call with exit 127. With closed it exits
// 1 instead, which Claude Code's onFailure:"block" turns into a blocked
// call. The line is POSIX sh; for an agent that runs hooks in the user's
// own shell (fish is not sh) it is wrapped in sh -c.
//
// The hook runs with GOMAXPROCS=1: it is one goroutine, and a second P
// only wakes threads that find nothing to do (measured: 1.31x the trivial
// Go program with two cores, 1.21x with one, where the trivial program
// gains nothing). It must come from the environment: runtime.GOMAXPROCS(1)
// in main stops the world and cost 0.14x more. The hook gives the lore
// processes it starts the default back.
func (a *Agent) Command(event string, closed bool) string {
	last := `echo "{}"`
	if closed {
		last = `echo "lore: neither lore-hook nor lore is on PATH" >&2; exit 1`
	}
	line := fmt.Sprintf("if command -v lore-hook >/dev/null 2>&1; then GOMAXPROCS=1 exec lore-hook %[1]s %[2]s; "+
		"elif command -v lore >/dev/null 2>&1; then GOMAXPROCS=1 exec lore hook %[1]s %[2]s; else %[3]s; fi", a.Name, event, last)
	if a.UserShell {
		return "sh -c '" + line + "'"
	}
	return line
}

// loreCommand matches a hook command lore installed, in any of the forms
// lore has written: `lore-hook <agent> <event>` or `lore hook <agent>
// <event>`, by name or by (quoted) path, alone or inside a shell line.
var loreCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|("'/\\])(?:lore-hook(?:\.exe)?["']?|lore(?:\.exe)?["']?\s+hook)\s+(claude|codex|gemini)\s+[A-Za-z]+`)
})

// IsLoreCommand reports whether a hook command is one lore installed.
func IsLoreCommand(cmd string) bool { return loreCommand().MatchString(strings.TrimSpace(cmd)) }
