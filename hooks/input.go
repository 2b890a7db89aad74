package hooks

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// maxStdin bounds what lore reads from the agent: a hook payload carries a
// tool's input, never a whole file worth keeping.
const maxStdin = 8 << 20

// input is the union of the stdin fields lore reads from any agent.
type input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Source         string          `json:"source"`  // SessionStart: startup|resume|clear|compact
	Trigger        string          `json:"trigger"` // the same in some Gemini CLI releases
	Prompt         string          `json:"prompt"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
}

// toolInput holds the tool_input fields that name a command or a file.
type toolInput struct {
	Command      json.RawMessage `json:"command"` // string, or an argv array (Codex shell)
	Cmd          string          `json:"cmd"`
	Input        string          `json:"input"` // Codex apply_patch as a function tool
	FilePath     string          `json:"file_path"`
	AbsolutePath string          `json:"absolute_path"`
	NotebookPath string          `json:"notebook_path"`
	Path         string          `json:"path"`
}

func readInput(r io.Reader) (*input, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxStdin+1))
	if err != nil {
		return nil, fmt.Errorf("hooks: read stdin: %w", err)
	}
	if len(data) > maxStdin {
		return nil, fmt.Errorf("hooks: stdin over %d bytes", maxStdin)
	}
	var in input
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("hooks: stdin: %w", err)
	}
	return &in, nil
}

// call is one tool call in lore's vocabulary, before the prompts are added.
type call struct {
	Tool    string
	Command string
	Paths   []string // absolute or cwd-relative as the agent sent them
}

// toolCall normalizes the agent's tool name and input (DESIGN section 8:
// shell tools give a command; file tools a path; Glob and Grep their
// `path`; apply_patch the paths of its file headers).
func (a *Agent) toolCall(in *input) call {
	c := call{Tool: a.Tool(in.ToolName)}
	var ti toolInput
	if len(in.ToolInput) > 0 {
		_ = json.Unmarshal(in.ToolInput, &ti) // a non-object input names no target
	}
	command := rawString(ti.Command)
	if command == "" {
		command = ti.Cmd
	}
	if in.ToolName == "apply_patch" || (a.Name == "codex" && strings.HasPrefix(command, "*** Begin Patch")) {
		c.Tool = "Edit"
		patch := command
		if patch == "" {
			patch = ti.Input
		}
		c.Paths = patchPaths(patch)
		return c
	}
	if c.Tool == "Bash" {
		c.Command = command
		return c
	}
	for _, p := range []string{ti.FilePath, ti.AbsolutePath, ti.NotebookPath, ti.Path} {
		if p != "" {
			c.Paths = []string{p}
			break
		}
	}
	return c
}

// rawString reads a JSON string, or joins a JSON array of strings with
// spaces (Codex's shell tool passes argv); anything else is "".
func rawString(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		// ["bash","-lc","cmd"] runs cmd: match the script, not the wrapper.
		if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
			return argv[2]
		}
		return strings.Join(argv, " ")
	}
	return ""
}

// relPath makes p relative to root (p may be relative to cwd). A path
// outside the repository has no repo-relative form: "".
func relPath(root, cwd, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		base := cwd
		if base == "" {
			base = root
		}
		p = filepath.Join(base, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}
