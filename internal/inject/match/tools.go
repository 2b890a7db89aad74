package match

import "strings"

// Target kinds: what a tool's call is matched on.
const (
	targetNone  = iota // no command or path (WebFetch, Task, ...)
	targetShell        // the command line, for commands/unless
	targetFile         // the repo-relative path, for paths/unless
)

// KnownTools are the tools with a target kind; each gets its own bucket.
var KnownTools = []string{"Bash", "Read", "Edit", "Write", "NotebookEdit", "Glob", "Grep"}

// PromptBucket is the manifest bucket of items DecidePrompt considers.
const PromptBucket = "#prompt"

// OtherBucket is the manifest bucket of tools no bucket names.
const OtherBucket = "*"

// Tool returns lore's spelling of a tool name: the known tools whatever
// their case, MultiEdit as Edit, the other clients' names for them
// (docs/clients.md, Tool names: Codex's shell, Gemini CLI's
// run_shell_command, ...) as lore's, others as given. An item's triggers
// and a call's tool go through it alike, so a lesson that names Gemini's
// shell fires on every client's. (A loop and a switch, not a map: a
// package-level map is built at init, on every hook call.)
func Tool(name string) string {
	if strings.EqualFold(name, "MultiEdit") {
		return "Edit"
	}
	for _, t := range KnownTools {
		if strings.EqualFold(name, t) {
			return t
		}
	}
	switch name {
	case "shell", "local_shell", "local_shell_call", "exec_command", "shell_command", "container.exec", "run_shell_command":
		return "Bash"
	case "apply_patch", "replace", "edit_file":
		return "Edit"
	case "read_file", "read_many_files", "view":
		return "Read"
	case "write_file", "create_file":
		return "Write"
	case "list_directory":
		return "Glob"
	case "search_file_content", "grep_search":
		return "Grep"
	case "web_fetch":
		return "WebFetch"
	case "google_web_search":
		return "WebSearch"
	}
	return name
}

func targetKind(tool string) int {
	switch tool {
	case "Bash":
		return targetShell
	case "Read", "Edit", "Write", "NotebookEdit", "Glob", "Grep":
		return targetFile
	}
	return targetNone
}

// Multiplier is the score multiplier of a 1-10 priority's band: critical
// (9-10) 2.0, high (7-8) 1.5, medium (4-6) 1.0, low (1-3) 0.5.
func Multiplier(p int) float64 {
	switch {
	case p >= 9:
		return 2.0
	case p >= 7:
		return 1.5
	case p >= 4:
		return 1.0
	}
	return 0.5
}

// Edits reports whether calls of the tool add text that content triggers
// are tried on (docs/design.md, Matching and scoring): Edit (MultiEdit,
// apply_patch, Gemini's replace), Write and NotebookEdit.
func Edits(tool string) bool {
	switch Tool(tool) {
	case "Edit", "Write", "NotebookEdit":
		return true
	}
	return false
}

// HasPath reports whether calls of the tool name a file path that paths
// triggers are matched on.
func HasPath(tool string) bool { return targetKind(Tool(tool)) == targetFile }

// HasTarget reports whether calls of the tool have a command or a path to
// match (docs/design.md, Matching and scoring); calls of other tools need none
// read.
func HasTarget(tool string) bool { return targetKind(Tool(tool)) != targetNone }
