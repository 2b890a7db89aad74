package scan

import (
	"bytes"
	"strings"
)

// session collects the events of one transcript file.
type session struct {
	id     string
	events []Event
	names  map[string]string // tool call id -> tool, to name results
	stats  *Stats
	// resumed: reading continues from a bookmark
	resumed bool
}

func (s *session) add(e Event) { s.events = append(s.events, e) }

// claudeTypes are the line types Claude Code writes that carry no evidence.
var claudeTypes = map[string]bool{`"progress"`: true, `"system"`: true, `"summary"`: true,
	`"file-history-snapshot"`: true, `"queue-operation"`: true, `"attachment"`: true, `"custom-title"`: true}

// resultExcerpt is how much of a tool result is decoded: enough for the
// evidence and for timeout words, never the megabytes of a file read.
const resultExcerpt = 600

// claudeLine reads one Claude Code JSONL line. Progress, snapshots, system
// and summary lines carry no evidence; isMeta (injected) lines and
// compaction summaries are skipped, so the injected protocol never counts.
func (s *session) claudeLine(line []byte, n int) {
	var typ, msg []byte
	meta := false
	ok := fieldsLazy(line, "message", func(k, v []byte) bool {
		switch string(k) {
		case "type":
			typ = v
			if string(v) != `"user"` && string(v) != `"assistant"` {
				if !claudeTypes[string(v)] {
					s.stats.Unknown++
				}
				return false // nothing else in this line matters
			}
		case "message":
			msg = v
			// Tool results are never injected text: skip the rest of the
			// line (toolUseResult repeats the whole output).
			if string(typ) == `"user"` && bytes.Contains(v[:min(len(v), 120)], []byte(`"tool_`)) {
				return false
			}
		case "isMeta", "isCompactSummary", "isVisibleInTranscriptOnly":
			meta = meta || isTrue(v)
		case "sessionId":
			if s.id == "" {
				s.id = str(v)
			}
		}
		return true
	})
	switch {
	case !ok:
		s.stats.BadJSON++
		return
	case typ == nil:
		s.stats.Unknown++
		return
	case msg == nil || meta || (string(typ) != `"user"` && string(typ) != `"assistant"`):
		return
	}
	user := string(typ) == `"user"`
	// msg and content run to the end of the line: their parsers stop at
	// the value's own end.
	var content []byte
	fieldsLazy(msg, "content", func(k, v []byte) bool {
		if string(k) == "content" {
			content = v
			return false
		}
		return true
	})
	if len(content) == 0 {
		return
	}
	if content[0] == '"' {
		if end, ok := skipString(content, 0); ok {
			s.text(user, str(content[:end]), n)
		}
		return
	}
	elements(content, func(el []byte) bool {
		s.claudeBlock(el, user, n)
		return true
	})
}

func (s *session) text(user bool, t string, n int) {
	if strings.TrimSpace(t) == "" {
		return
	}
	if user {
		if injectedUserText(t) {
			return
		}
		s.add(Event{Line: n, Kind: UserText, Text: t})
		return
	}
	s.add(Event{Line: n, Kind: AssistantText, Text: t})
}

// injectedUserText is text in a user turn that the harness wrote, not the
// user: slash-command echoes, caveats, hook output, compaction preambles.
func injectedUserText(t string) bool {
	t = strings.TrimSpace(t)
	for _, p := range []string{"<command-", "<local-command-", "<system-reminder>", "<user-prompt-submit-hook>",
		"Caveat: The messages below", "This session is being continued from a previous conversation",
		"<environment_context>", "<user_instructions>", "# AGENTS.md", "[Request interrupted"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func (s *session) claudeBlock(el []byte, user bool, n int) {
	var typ, text, name, id, input, useID, content []byte
	isErr := false
	fields(el, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			typ = v
		case "text":
			text = v
		case "name":
			name = v
		case "id":
			id = v
		case "input":
			input = v
		case "tool_use_id":
			useID = v
		case "is_error":
			isErr = isTrue(v)
		case "content":
			content = v
		}
		return true
	})
	switch string(typ) {
	case `"text"`:
		s.text(user, str(text), n)
	case `"tool_use"`:
		tool := NormalizeTool(str(name))
		s.names[str(id)] = tool
		s.add(Event{Line: n, Kind: ToolCall, Tool: tool, ID: str(id), Text: callTarget(input)})
	case `"tool_result"`:
		idv := str(useID)
		ex := resultText(content)
		s.add(Event{Line: n, Kind: ToolResult, Tool: s.names[idv], ID: idv, Error: isErr,
			Text: ex, Timeout: isErr && timeoutText(ex)})
	}
}

// callTarget is the part of a tool input a lesson is about: the command of
// a shell call, the path of a file tool, the pattern of a search.
func callTarget(input []byte) string {
	var cmd, path, pattern, other []byte
	fields(input, func(k, v []byte) bool {
		switch string(k) {
		case "command", "cmd":
			cmd = v
		case "file_path", "path", "notebook_path", "absolute_path":
			if path == nil {
				path = v
			}
		case "pattern", "query", "url":
			pattern = v
		case "description", "prompt":
			other = v
		}
		return true
	})
	for _, v := range [][]byte{cmd, path, pattern, other} {
		if v == nil {
			continue
		}
		if v[0] == '[' { // Codex: ["bash","-lc","..."]
			var parts []string
			elements(v, func(e []byte) bool { parts = append(parts, str(e)); return true })
			if len(parts) >= 3 && (parts[1] == "-lc" || parts[1] == "-c") {
				return parts[2]
			}
			return strings.Join(parts, " ")
		}
		return clip(str(v), 500)
	}
	return ""
}

// resultText decodes the start of a tool result (a string or a list of
// text blocks).
func resultText(content []byte) string {
	if len(content) == 0 {
		return ""
	}
	if content[0] == '"' {
		return strPrefix(content, resultExcerpt)
	}
	var out string
	elements(content, func(el []byte) bool {
		fields(el, func(k, v []byte) bool {
			if string(k) == "text" {
				out = strPrefix(v, resultExcerpt)
				return false
			}
			return true
		})
		return out == ""
	})
	return out
}

var timeoutWords = [][]byte{[]byte("timed out"), []byte("Timed out"), []byte("timeout"), []byte("Timeout"),
	[]byte("deadline exceeded"), []byte("interrupted by user"), []byte("hung"), []byte("still running after")}

func timeoutText(t string) bool {
	b := []byte(t)
	for _, w := range timeoutWords {
		if bytes.Contains(b, w) {
			return true
		}
	}
	return false
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
