package scan

import "strings"

// Kind is what an event in a transcript is.
type Kind uint8

// Event kinds, common to every agent's format.
const (
	UserText Kind = iota + 1
	AssistantText
	ToolCall
	ToolResult
)

// Event is one normalized step of a session: the words of the user or the
// assistant, a tool call, or a tool's result.
type Event struct {
	Line    int    // 1-based JSONL line (message number for JSON chat files)
	Kind    Kind   //
	Text    string // words; for a call the command or path; for a result an excerpt
	Tool    string // normalized tool name (calls and results)
	ID      string // links a call to its result
	Error   bool   // the result is an error
	Timeout bool   // the result says the call timed out or was interrupted
}

// toolNames maps agent tool names to lore's vocabulary (docs/clients.md, Tool
// names).
var toolNames = map[string]string{
	"shell": "Bash", "local_shell": "Bash", "local_shell_call": "Bash", "exec_command": "Bash",
	"shell_command": "Bash", "container.exec": "Bash", "run_shell_command": "Bash", "bash": "Bash",
	"apply_patch": "Edit", "replace": "Edit", "edit": "Edit", "MultiEdit": "Edit", "edit_file": "Edit",
	"read_file": "Read", "read_many_files": "Read", "view": "Read",
	"write_file": "Write", "create_file": "Write",
	"glob": "Glob", "list_directory": "Glob",
	"search_file_content": "Grep", "grep": "Grep", "grep_search": "Grep",
	"web_fetch": "WebFetch", "google_web_search": "WebSearch",
}

// NormalizeTool returns lore's name for an agent's tool name.
func NormalizeTool(name string) string {
	name = strings.TrimSpace(name)
	if n, ok := toolNames[name]; ok {
		return n
	}
	if n, ok := toolNames[strings.ToLower(name)]; ok {
		return n
	}
	return name
}
