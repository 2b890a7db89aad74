package scan

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/lore-agents/lore/internal/lazyre"
)

// codexLine reads one line of a Codex rollout file. Only response items
// count: event_msg agent_message lines repeat the assistant's text and are
// skipped, as are reasoning, turn context, compaction, world state and
// token usage records.
func (s *session) codexLine(line []byte, n int) {
	var rec struct {
		Type      string          `json:"type"`
		Timestamp string          `json:"timestamp"`
		Payload   json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(line, &rec); err != nil {
		s.stats.BadJSON++
		return
	}
	if s.log != nil {
		s.log.stamp(rec.Timestamp, "")
	}
	switch rec.Type {
	case "session_meta":
		s.codexMeta(rec.Payload)
	case "turn_context":
		if s.log != nil {
			s.codexMeta(rec.Payload) // its cwd; it carries no session id
		}
	case "response_item":
		s.codexItem(rec.Payload, n)
	case "event_msg", "compacted", "world_state", "token_usage_record":
		// bookkeeping (0.169 added the last two), not evidence
	default:
		s.stats.Unknown++
	}
}

// codexMeta takes the session id from a session_meta record and, for
// the calls, the folder the session (session_meta) or turn (turn_context)
// runs in.
func (s *session) codexMeta(payload json.RawMessage) {
	var m struct {
		ID  string `json:"id"`
		Cwd string `json:"cwd"`
	}
	if json.Unmarshal(payload, &m) != nil {
		return
	}
	if s.id == "" {
		s.id = m.ID
	}
	if s.log != nil && m.Cwd != "" {
		s.log.cwd = m.Cwd
	}
	if s.cwd == "" {
		s.cwd = m.Cwd
	}
}

// codexPayload is a response item: a message, a tool call or its output.
type codexPayload struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
}

func (s *session) codexItem(payload json.RawMessage, n int) {
	var p codexPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		s.stats.BadJSON++
		return
	}
	switch p.Type {
	case "message":
		if p.Role != "user" && p.Role != "assistant" {
			return // developer and system messages are instructions, not evidence
		}
		for _, c := range p.Content {
			s.text(p.Role == "user", c.Text, n)
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		s.codexCall(&p, n)
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		s.codexResult(&p, n)
	}
}

// codexResult reads a tool call's output. A hang (docs/design.md,
// Capture): a timeout, or no output after more than 30 s.
func (s *session) codexResult(p *codexPayload, n int) {
	out, failed, slow := codexOutput(p.Output)
	if s.log != nil {
		s.log.codexResult(p.CallID, p.Output, out, failed)
		return
	}
	ex := clip(out, resultExcerpt)
	hung := failed && timeoutText(ex) || slow && strings.TrimSpace(out) == ""
	s.add(Event{Line: n, Kind: ToolResult, Tool: s.names[p.CallID], ID: p.CallID,
		Error: failed || hung, Text: ex, Timeout: hung})
}

// codexCall reads a tool call, its target from the arguments, the shell
// action or the patch.
func (s *session) codexCall(p *codexPayload, n int) {
	tool := NormalizeTool(p.Name)
	if p.Type == "local_shell_call" {
		tool = "Bash"
	}
	if s.log != nil {
		s.codexCallDetail(p, tool, n)
		return
	}
	target := ""
	switch {
	case p.Arguments != "":
		target = callTarget([]byte(p.Arguments))
	case len(p.Action) > 0:
		target = callTarget(p.Action)
	case p.Input != "":
		target = patchTarget(p.Input)
	}
	s.names[p.CallID] = tool
	s.add(Event{Line: n, Kind: ToolCall, Tool: tool, ID: p.CallID, Text: target})
}

var exitRe = lazyre.New(`(?m)^(?:Exit code|Process exited with code):? (\d+)`)

// codexOutput reads a tool output: a JSON string holding {"output",
// "metadata":{"exit_code","duration_seconds"}} (older), plain text with
// "Exit code: N" and "Wall time: S seconds" (newer), or an object with
// content and success. slow: the call ran more than 30 seconds.
func codexOutput(raw json.RawMessage) (out string, failed, slow bool) {
	var text string
	if json.Unmarshal(raw, &text) != nil {
		var o struct {
			Content string `json:"content"`
			Success *bool  `json:"success"`
		}
		if json.Unmarshal(raw, &o) == nil {
			return o.Content, o.Success != nil && !*o.Success, false
		}
		return "", false, false
	}
	var inner struct {
		Output   string `json:"output"`
		Metadata struct {
			ExitCode *int    `json:"exit_code"`
			Duration float64 `json:"duration_seconds"`
		} `json:"metadata"`
	}
	if strings.HasPrefix(text, "{") && json.Unmarshal([]byte(text), &inner) == nil && inner.Metadata.ExitCode != nil {
		return inner.Output, *inner.Metadata.ExitCode != 0, inner.Metadata.Duration > 30
	}
	return codexText(text)
}

// codexText reads the newer plain-text output: its Output: section when
// timed, the exit code when given (else an "error" start says it failed).
func codexText(text string) (out string, failed, slow bool) {
	out = text
	if m := wallRe().FindStringSubmatch(text); m != nil {
		d, _ := strconv.ParseFloat(m[1], 64)
		slow = d > 30
		out = ""
		if i := strings.Index(text, "Output:\n"); i >= 0 {
			out = text[i+len("Output:\n"):]
		}
	}
	if m := exitRe().FindStringSubmatch(text); m != nil {
		code, _ := strconv.Atoi(m[1])
		return out, code != 0, slow
	}
	return out, strings.HasPrefix(text, "error") || strings.HasPrefix(text, "Error"), slow
}

var wallRe = lazyre.New(`(?m)^Wall time: ([0-9.]+) seconds`)

// patchTarget names the files an apply_patch input touches.
func patchTarget(patch string) string { return strings.Join(patchFiles(patch), " ") }

// patchFiles are the files an apply_patch input touches, in order.
func patchFiles(patch string) []string {
	var files []string
	for _, l := range strings.Split(patch, "\n") {
		for _, p := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
			if strings.HasPrefix(l, p) {
				files = append(files, strings.TrimSpace(strings.TrimPrefix(l, p)))
			}
		}
	}
	return files
}
