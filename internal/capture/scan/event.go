package scan

import (
	"strings"

	"github.com/lore-agents/lore/internal/inject/match"
)

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

// NormalizeTool returns lore's name for an agent's tool name.
func NormalizeTool(name string) string {
	name = strings.TrimSpace(name)
	if n := match.Tool(name); n != name {
		return n
	}
	if n := match.Tool(strings.ToLower(name)); n != strings.ToLower(name) {
		return n
	}
	return name
}
