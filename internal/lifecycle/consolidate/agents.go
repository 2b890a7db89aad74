package consolidate

import (
	"embed"
	"io/fs"
)

// Names of the consolidation sub-agents (Claude Code agent definitions).
const (
	RememberAgent = "lore-remember-task"
	RefactorAgent = "lore-memory-refactor"
)

//go:embed agents/*.md
var agentFS embed.FS

// AgentFiles returns the sub-agent definitions by file name (e.g.
// "lore-remember-task.md"), in Claude Code's agent format (YAML frontmatter
// with name, description, tools; the body is the system prompt), for
// `lore init --agent claude` to install into .claude/agents/.
func AgentFiles() map[string][]byte {
	out := map[string][]byte{}
	entries, _ := fs.ReadDir(agentFS, "agents")
	for _, e := range entries {
		data, err := agentFS.ReadFile("agents/" + e.Name())
		if err == nil {
			out[e.Name()] = data
		}
	}
	return out
}
