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
	cwd    string            // the folder the session ran in (edited files are named relative to it)
	stats  *Stats
	// resumed: reading continues from a bookmark
	resumed bool
	// log records the calls instead of the events (ReadCalls).
	log *callLog
}

func (s *session) add(e Event) {
	if s.log == nil {
		s.events = append(s.events, e)
	}
}

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
	r := claudeRecord{s: s}
	ok := fieldsLazy(line, "message", r.field)
	switch {
	case !ok:
		s.stats.BadJSON++
		return
	case r.typ == nil:
		s.stats.Unknown++
		return
	case r.msg == nil || r.meta || !r.turn():
		return
	}
	if s.log != nil {
		s.log.stamp(str(r.ts), str(r.cwd))
	}
	if s.cwd == "" && len(r.cwd) > 0 {
		s.cwd = str(r.cwd)
	}
	s.claudeMessage(r.msg, string(r.typ) == `"user"`, n)
}

// claudeRecord is what claudeLine needs of a line's top-level fields.
type claudeRecord struct {
	s                 *session
	typ, msg, ts, cwd []byte
	meta              bool
}

func (r *claudeRecord) turn() bool {
	return string(r.typ) == `"user"` || string(r.typ) == `"assistant"`
}

// field takes one top-level field; false stops the walk when nothing else
// in the line matters.
func (r *claudeRecord) field(k, v []byte) bool {
	switch string(k) {
	case "type":
		r.typ = v
		if !r.turn() {
			if !claudeTypes[string(v)] {
				r.s.stats.Unknown++
			}
			return false
		}
	case "message":
		r.msg = v
		// Tool results are never injected text: skip the rest of the
		// line (toolUseResult repeats the whole output).
		return string(r.typ) != `"user"` || !bytes.Contains(v[:min(len(v), 120)], []byte(`"tool_`))
	case "isMeta", "isCompactSummary", "isVisibleInTranscriptOnly":
		r.meta = r.meta || isTrue(v)
	case "sessionId":
		if r.s.id == "" {
			r.s.id = str(v)
		}
	case "timestamp":
		r.ts = v
	case "cwd":
		r.cwd = v
	}
	return true
}

// claudeMessage reads a message's content: a string, or a list of blocks.
// msg and content run to the end of the line: their parsers stop at the
// value's own end.
func (s *session) claudeMessage(msg []byte, user bool, n int) {
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
			if s.log != nil && strings.HasPrefix(strings.TrimSpace(t), "[Request interrupted") {
				s.log.interrupted()
			}
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

// claudeBlock reads one content block: text, a tool call or its result.
func (s *session) claudeBlock(el []byte, user bool, n int) {
	var b claudeContent
	fields(el, b.field)
	switch string(b.typ) {
	case `"text"`:
		s.text(user, str(b.text), n)
	case `"tool_use"`:
		tool := NormalizeTool(str(b.name))
		if s.log != nil {
			s.log.call(n, tool, str(b.id), b.input, "")
			return
		}
		s.names[str(b.id)] = tool
		s.add(Event{Line: n, Kind: ToolCall, Tool: tool, ID: str(b.id), Text: callTarget(b.input)})
	case `"tool_result"`:
		idv := str(b.useID)
		ex := resultText(b.content)
		if s.log != nil {
			s.log.result(idv, claudeFailure(b.isErr, ex, b.content))
			return
		}
		s.add(Event{Line: n, Kind: ToolResult, Tool: s.names[idv], ID: idv, Error: b.isErr,
			Text: ex, Timeout: b.isErr && timeoutText(ex)})
	}
}

// claudeContent holds the raw fields of a content block.
type claudeContent struct {
	typ, text, name, id, input, useID, content []byte
	isErr                                      bool
}

func (b *claudeContent) field(k, v []byte) bool {
	switch string(k) {
	case "type":
		b.typ = v
	case "text":
		b.text = v
	case "name":
		b.name = v
	case "id":
		b.id = v
	case "input":
		b.input = v
	case "tool_use_id":
		b.useID = v
	case "is_error":
		b.isErr = isTrue(v)
	case "content":
		b.content = v
	}
	return true
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
		if v != nil {
			return targetText(v)
		}
	}
	return ""
}

// targetText decodes a call target: a string, or Codex's argument list
// ["bash","-lc","..."] whose script is the target.
func targetText(v []byte) string {
	if v[0] != '[' {
		return clip(str(v), 500)
	}
	var parts []string
	elements(v, func(e []byte) bool { parts = append(parts, str(e)); return true })
	if len(parts) >= 3 && (parts[1] == "-lc" || parts[1] == "-c") {
		return parts[2]
	}
	return strings.Join(parts, " ")
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

// timeoutText says a result reports a timeout or an interrupt: one of
// timeoutWords as words of their own, not inside a name (a branch
// fix-timeouts, a file timeout_handler.go).
func timeoutText(t string) bool {
	b := []byte(t)
	for _, w := range timeoutWords {
		for off := 0; off < len(b); {
			i := bytes.Index(b[off:], w)
			if i < 0 {
				break
			}
			at := off + i
			if !nameByte(b, at-1) && !nameByte(b, at+len(w)) {
				return true
			}
			off = at + len(w)
		}
	}
	return false
}

// nameByte says b[i] continues a name: a letter, digit or one of -_./
// (out of range: no).
func nameByte(b []byte, i int) bool {
	if i < 0 || i >= len(b) {
		return false
	}
	c := b[i]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./", c) >= 0
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
