package hooks

import "strings"

// Event is lore's agent-neutral name for a hook event.
type Event string

// The events lore handles (DESIGN section 7).
const (
	SessionStart     Event = "SessionStart"
	UserPromptSubmit Event = "UserPromptSubmit"
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	SubagentStart    Event = "SubagentStart"
	PreCompact       Event = "PreCompact"
	Stop             Event = "Stop"
	SessionEnd       Event = "SessionEnd"
)

// Agent is one agent's hook contract as a table: its event names, its tool
// names and what its events accept on stdout.
//
// Verified contracts (see the package report for sources):
//   - Claude Code (code.claude.com/docs/en/hooks): every event gets
//     session_id, transcript_path, cwd, hook_event_name on stdin; output is
//     {"hookSpecificOutput":{"hookEventName","additionalContext"}} for
//     SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, SubagentStart;
//     PreToolUse adds permissionDecision allow|deny|ask|defer and
//     permissionDecisionReason (deny: the reason is shown to Claude). Context
//     over 10,000 characters is saved to a file and replaced by a 2 KB
//     preview (anthropics/claude-code#44086, #91614), so lore stays under it.
//   - Codex (openai/codex codex-rs/hooks): Claude-shaped JSON; tool_name is
//     "Bash" (tool_input {"command"}) or "apply_patch" (tool_input
//     {"command": the patch}); PreToolUse honours permissionDecision deny.
//     Releases before openai/codex#20692 ignore additionalContext at
//     PreToolUse, so lore only denies there and injects at PostToolUse.
//   - Gemini CLI (google-gemini/gemini-cli docs/hooks/reference.md): events
//     BeforeTool, AfterTool, BeforeAgent, SessionStart (source
//     startup|resume|clear), SessionEnd, PreCompress; BeforeTool blocks with
//     top-level {"decision":"deny","reason"} and has no additionalContext;
//     AfterTool, BeforeAgent and SessionStart take
//     hookSpecificOutput.additionalContext.
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
			{"SubagentStart", SubagentStart}, {"PreCompact", PreCompact},
			{"Stop", Stop}, {"SessionEnd", SessionEnd},
		},
		Tools:            []ToolName{{"MultiEdit", "Edit"}},
		InjectBeforeTool: true,
	},
	{
		Name: "codex",
		Events: []EventName{
			{"SessionStart", SessionStart}, {"UserPromptSubmit", UserPromptSubmit},
			{"PreToolUse", PreToolUse}, {"PostToolUse", PostToolUse},
			{"SubagentStart", SubagentStart}, {"PreCompact", PreCompact},
			{"Stop", Stop}, {"SessionEnd", SessionEnd},
		},
		Tools: []ToolName{
			{"shell", "Bash"}, {"local_shell", "Bash"}, {"shell_command", "Bash"},
			{"exec_command", "Bash"}, {"container.exec", "Bash"},
			{"apply_patch", "Edit"},
		},
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
			{"search_file_content", "Grep"}, {"web_fetch", "WebFetch"},
		},
		TopLevelDeny: true,
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

// patchPaths returns the file paths named by an apply_patch body's headers
// ("*** Add File: p", "*** Update File: p", "*** Delete File: p",
// "*** Move to: p"), in order and without repeats.
func patchPaths(patch string) []string {
	var paths []string
	seen := map[string]bool{}
	for len(patch) > 0 {
		line := patch
		if i := strings.IndexByte(patch, '\n'); i >= 0 {
			line, patch = patch[:i], patch[i+1:]
		} else {
			patch = ""
		}
		line = strings.TrimRight(line, "\r")
		for _, h := range [...]string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, h); ok {
				if p = strings.TrimSpace(p); p != "" && !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
			}
		}
	}
	return paths
}
