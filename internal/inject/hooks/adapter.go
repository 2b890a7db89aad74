package hooks

import "strings"

// Event is lore's agent-neutral name for a hook event.
type Event string

// The events lore handles (docs/design.md, Agent hooks).
const (
	SessionStart     Event = "SessionStart"
	UserPromptSubmit Event = "UserPromptSubmit"
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	SubagentStart    Event = "SubagentStart"
	SubagentStop     Event = "SubagentStop"
	PreCompact       Event = "PreCompact"
	PostCompact      Event = "PostCompact"
	Stop             Event = "Stop"
	SessionEnd       Event = "SessionEnd"
	// Quiet is an event lore answers with `{}` and nothing else: the
	// client sends it, lore has nothing to add (Codex's PermissionRequest,
	// after PreToolUse already decided, and Interrupt).
	Quiet Event = "Quiet"
)

// Agent is one agent's hook contract as a table: its event names, its tool
// names and what its events accept on stdout.
//
// Verified contracts (measured in the real clients; see docs/clients.md):
//   - Claude Code 2.1.x: every event gets session_id, transcript_path, cwd,
//     hook_event_name on stdin, a sub-agent's calls add agent_id; output is
//     {"hookSpecificOutput":{"hookEventName","additionalContext"}} for
//     SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, SubagentStart;
//     PreToolUse adds permissionDecision deny and permissionDecisionReason.
//     Context over 10,000 characters is replaced by a 2 KB preview
//     (anthropics/claude-code#44086), so lore stays under it.
//   - Codex 0.169: Claude-shaped JSON; tool_name is "Bash" (tool_input
//     {"command"}) or "apply_patch" (tool_input {"command": the patch});
//     additionalContext is taken at PreToolUse (0.124 rejected it);
//     sub-agents keep the parent's session_id and add agent_id. Outputs
//     other than `{}`, additionalContext and deny mark the hook Failed.
//   - Gemini CLI 0.61: BeforeTool blocks with top-level
//     {"decision":"deny","reason"} and ignores additionalContext; AfterTool,
//     BeforeAgent and SessionStart take hookSpecificOutput.additionalContext,
//     shown HTML-escaped inside <hook_context>.
type Agent struct {
	Name string
	// Events maps the agent's event names (and lore's, for convenience) to
	// lore's events.
	Events []EventName
	// Tools maps the agent's tool names to lore's vocabulary; names not
	// listed pass through unchanged.
	Tools []ToolName
	// InjectBeforeTool is false when the agent ignores additionalContext
	// before a tool runs: lore then denies there and injects after the tool.
	InjectBeforeTool bool
	// TopLevelDeny: the deny is {"decision":"deny","reason"} (Gemini) rather
	// than hookSpecificOutput.permissionDecision (Claude, Codex).
	TopLevelDeny bool
	// SubagentTool is the tool that runs a sub-agent when the agent sends
	// its hook calls with the parent's session_id and no agent_id (Gemini
	// CLI's invoke_agent): the calls between its BeforeTool and AfterTool
	// belong to the sub-agent's own context.
	SubagentTool string
	// EscapesHTML: the agent shows the model `&lt;!-- lore ... --&gt;`
	// (Gemini). The record (docs/design.md, Machine-readable interfaces) then
	// goes to the hook log, not into the model's text, where it would be
	// visible noise.
	EscapesHTML bool
}

// EventName maps one agent event name to lore's event.
type EventName struct {
	Name  string
	Event Event
}

// ToolName maps one agent tool name to lore's vocabulary.
type ToolName struct{ Name, Lore string }

// Agents are the adapters. The tables are slices, not maps: a map literal
// is built by package initialisation on every hook call.
var Agents = []*Agent{
	{
		Name: "claude",
		Events: []EventName{
			{"SessionStart", SessionStart}, {"UserPromptSubmit", UserPromptSubmit},
			{"PreToolUse", PreToolUse}, {"PostToolUse", PostToolUse},
			{"SubagentStart", SubagentStart}, {"SubagentStop", SubagentStop},
			{"PreCompact", PreCompact}, {"PostCompact", PostCompact},
			{"Stop", Stop}, {"SessionEnd", SessionEnd}, {"PermissionRequest", Quiet},
		},
		Tools:            []ToolName{{"MultiEdit", "Edit"}},
		InjectBeforeTool: true,
	},
	{
		Name: "codex",
		Events: []EventName{
			{"SessionStart", SessionStart}, {"UserPromptSubmit", UserPromptSubmit},
			{"PreToolUse", PreToolUse}, {"PostToolUse", PostToolUse},
			{"SubagentStart", SubagentStart}, {"SubagentStop", SubagentStop},
			{"PreCompact", PreCompact}, {"PostCompact", PostCompact},
			{"Stop", Stop}, {"SessionEnd", SessionEnd},
			{"PermissionRequest", Quiet}, {"Interrupt", Quiet},
		},
		Tools: []ToolName{
			{"shell", "Bash"}, {"local_shell", "Bash"}, {"shell_command", "Bash"},
			{"exec_command", "Bash"}, {"container.exec", "Bash"},
			{"apply_patch", "Edit"},
		},
		InjectBeforeTool: true,
	},
	{
		Name: "gemini",
		Events: []EventName{
			{"SessionStart", SessionStart}, {"BeforeAgent", UserPromptSubmit},
			{"BeforeTool", PreToolUse}, {"AfterTool", PostToolUse},
			{"PreCompress", PreCompact}, {"AfterAgent", Stop}, {"SessionEnd", SessionEnd},
			{"UserPromptSubmit", UserPromptSubmit}, {"PreToolUse", PreToolUse},
			{"PostToolUse", PostToolUse}, {"PreCompact", PreCompact}, {"Stop", Stop},
		},
		Tools: []ToolName{
			{"run_shell_command", "Bash"}, {"read_file", "Read"}, {"read_many_files", "Read"},
			{"write_file", "Write"}, {"replace", "Edit"}, {"glob", "Glob"},
			{"list_directory", "Glob"}, {"grep_search", "Grep"},
			{"search_file_content", "Grep"}, {"web_fetch", "WebFetch"},
		},
		TopLevelDeny: true,
		EscapesHTML:  true,
		SubagentTool: "invoke_agent",
	},
}

// AgentNamed returns the adapter for name, or nil.
func AgentNamed(name string) *Agent {
	for _, a := range Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Event maps an agent's event name to lore's.
func (a *Agent) Event(name string) (Event, bool) {
	for _, e := range a.Events {
		if e.Name == name {
			return e.Event, true
		}
	}
	return "", false
}

// Tool maps an agent's tool name to lore's vocabulary.
func (a *Agent) Tool(name string) string {
	for _, t := range a.Tools {
		if t.Name == name {
			return t.Lore
		}
	}
	return name
}

// patchAdded returns, for each file an apply_patch body names, the text
// of its `+` lines (at most maxAdded bytes a file): what content triggers
// are tried on for that file.
func patchAdded(patch string) map[string]string {
	out := map[string]string{}
	var cur []string // the section's file, and where it moves to
	eachLine(patch, func(line string) {
		switch {
		case strings.HasPrefix(line, "*** Move to: "):
			cur = append(cur, strings.TrimSpace(line[len("*** Move to: "):]))
		case strings.HasPrefix(line, "*** "):
			cur = cur[:0]
			for _, h := range [...]string{"*** Add File: ", "*** Update File: "} {
				if p, ok := strings.CutPrefix(line, h); ok {
					cur = append(cur, strings.TrimSpace(p))
				}
			}
		case strings.HasPrefix(line, "+"):
			for _, p := range cur {
				if s := out[p]; len(s) < maxAdded {
					out[p] = s + line[1:] + "\n"
				}
			}
		}
	})
	return out
}

// patchPaths returns the file paths named by an apply_patch body's headers
// ("*** Add File: p", "*** Update File: p", "*** Delete File: p",
// "*** Move to: p"), in order and without repeats.
func patchPaths(patch string) []string {
	var paths []string
	seen := map[string]bool{}
	eachLine(patch, func(line string) {
		for _, h := range [...]string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, h); ok {
				if p = strings.TrimSpace(p); p != "" && !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
			}
		}
	})
	return paths
}

// eachLine calls f with each line of text, without its line ending (LF or
// CRLF).
func eachLine(text string, f func(line string)) {
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		f(strings.TrimRight(line, "\r"))
	}
}
