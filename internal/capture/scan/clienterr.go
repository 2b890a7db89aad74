package scan

import "strings"

// clientKind is one kind of error the agent's client itself returns for a
// tool call (not the output of a command): Claude Code's "File has not
// been read yet", Gemini CLI's "0 occurrences found for old_string",
// Codex's "Failed to find expected lines". Each kind is one lesson,
// however often and in whichever session it happens (docs/design.md,
// What fixed it).
type clientKind struct {
	kind, title, mistake, fix string
	tools                     []string // the tools the lesson is for; nil: the failed call's
	marks                     []string // words of the clients' messages for it
	prefixOnly                bool     // the message must start with a mark (it could be a command's output)
}

var editTools = []string{"Edit", "Write"}

var clientKinds = []clientKind{
	{kind: "read-first", tools: editTools,
		title:   "Read a file before editing or writing it: the client refuses a file not read yet",
		mistake: "Edited or wrote a file not read in this session; the client refused the call (\"File has not been read yet\").",
		fix:     "Read the file before the first Edit or Write of it.",
		marks:   []string{"File has not been read yet"}},
	{kind: "stale-read", tools: editTools,
		title:   "Read a file again when it changed since it was read: the client refuses the write",
		mistake: "Wrote a file that changed since it was read (the user, a formatter or a hook changed it); the client refused the call.",
		fix:     "Read the file again, then edit it.",
		marks:   []string{"File has been modified since read", "modified since it was last read"}},
	{kind: "no-match", tools: editTools,
		title:   "Edit refused: the text to replace is not in the file as given",
		mistake: "The text to replace was not in the file as given (whitespace, indentation or an older version); the client refused the edit.",
		fix:     "Read the file again and copy the text to replace exactly, with its whitespace and indentation.",
		marks: []string{"String to replace not found", "0 occurrences found for old_string", "could not find the string to replace",
			"Failed to find expected lines", "Failed to find context"}},
	{kind: "many-matches", tools: editTools,
		title:   "Edit refused: the text to replace occurs more than once in the file",
		mistake: "The text to replace occurs more than once in the file; the client refused the edit.",
		fix:     "Include enough surrounding lines to make the text unique, or replace every occurrence on purpose.",
		marks:   []string{"matches of the string to replace", "Found multiple matches", "occurrences but found", "Expected 1 occurrence but found"}},
	{kind: "permission",
		title:      "A call the permission settings deny is refused: do not retry it as is",
		mistake:    "The tool call was denied by the client's permission settings.",
		fix:        "Use a command the settings allow, or ask the user to allow it; do not retry the denied call.",
		marks:      []string{"Permission to use ", "Permission denied by the user's settings"},
		prefixOnly: true},
	{kind: "invalid-input",
		title:   "Tool call refused: its parameters did not pass the client's validation",
		mistake: "The tool call's parameters were missing or of the wrong type; the client refused it before running it.",
		fix:     "Pass every required parameter with the type the tool's schema gives.",
		marks:   []string{"InputValidationError", "params must have required property", "Invalid parameters provided", "failed to parse function arguments"}},
}

// clientErrorKind is the kind of client error a failed call's result
// reports, or nil when it is a command's or tool's own failure.
func clientErrorKind(text string) *clientKind {
	t := untagged(text)
	head := t[:min(len(t), 300)]
	for k := range clientKinds {
		for _, m := range clientKinds[k].marks {
			if strings.HasPrefix(head, m) || !clientKinds[k].prefixOnly && strings.Contains(head, m) {
				return &clientKinds[k]
			}
		}
	}
	return nil
}

// clientError is the lesson of kind k for the refused call i (its result
// r). Every refusal of one kind gets the same text, so the scan merges
// them into one draft with each occurrence as evidence; the fix is
// confirmed when the same call then succeeded.
func (f *finder) clientError(i, r int, k *clientKind) *Candidate {
	call := f.evs[i]
	c := &Candidate{Tier: 2, Signal: SignalClientError, Line: call.Line, Title: k.title, Mistake: k.mistake, Fix: k.fix,
		Tools: k.tools, Tags: []string{"client-error:" + k.kind}}
	if c.Tools == nil {
		c.Tools = []string{call.Tool}
	}
	c.Evidence = append(c.Evidence, Evidence{Line: call.Line, Text: call.Tool + ": " + clip(command(call.Text), 300)},
		Evidence{Line: f.evs[r].Line, Text: "error: " + clip(firstLines(untagged(f.evs[r].Text), 1), 300)})
	for j := r + 1; j < len(f.evs) && j <= r+retryWindow; j++ {
		if e := f.evs[j]; e.Kind == ToolCall && e.Tool == call.Tool && e.Text == call.Text {
			if rj := f.result(j); rj >= 0 && !f.evs[rj].Error {
				c.signals.errorFix, c.signals.fixConfirmed = true, true
				break
			}
		}
	}
	return c
}

// untagged is a client error's text without Claude Code's
// <tool_use_error> tags around it.
func untagged(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(t, "<tool_use_error>")
	return strings.TrimSpace(strings.ReplaceAll(t, "</tool_use_error>", ""))
}
