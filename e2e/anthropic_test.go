//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// The Anthropic Messages API as Claude Code uses it: POST
// /v1/messages?beta=true, streamed as server-sent events.

type anthropicReq struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools  []json.RawMessage `json:"tools"`
	Stream bool              `json:"stream"`
}

// block is one content block of a message, flattened enough for assertions.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

func blocks(raw json.RawMessage) []block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	var bs []block
	json.Unmarshal(raw, &bs)
	return bs
}

// text flattens a content value (a string or blocks, tool results included).
func text(raw json.RawMessage) string {
	var sb strings.Builder
	for _, b := range blocks(raw) {
		switch b.Type {
		case "text":
			sb.WriteString(b.Text + "\n")
		case "tool_result":
			sb.WriteString(text(b.Content) + "\n")
		case "tool_use":
			sb.WriteString(string(b.Input) + "\n")
		}
	}
	return sb.String()
}

// conv is a parsed Messages request.
type conv struct {
	req  *request
	body anthropicReq
}

func parseAnthropic(r *request) (*conv, bool) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Path, "/v1/messages") || strings.Contains(r.Path, "count_tokens") {
		return nil, false
	}
	c := &conv{req: r}
	if err := json.Unmarshal(r.Body, &c.body); err != nil {
		return nil, false
	}
	return c, true
}

// all is everything the model is shown: system prompt and every message.
func (c *conv) all() string { return text(c.body.System) + c.messages() }

func (c *conv) messages() string {
	var sb strings.Builder
	for _, m := range c.body.Messages {
		sb.WriteString(text(m.Content))
	}
	return sb.String()
}

func (c *conv) lastUser() string {
	for i := len(c.body.Messages) - 1; i >= 0; i-- {
		if m := c.body.Messages[i]; m.Role == "user" {
			return text(m.Content)
		}
	}
	return ""
}

// msgs is the conversation for the script: user text blocks (not tool
// results, which may quote anything) and assistant turns.
func (c *conv) msgs() []msg {
	var out []msg
	for _, m := range c.body.Messages {
		var sb strings.Builder
		for _, b := range blocks(m.Content) {
			if b.Type == "text" {
				sb.WriteString(b.Text + "\n")
			}
		}
		out = append(out, msg{m.Role, sb.String()})
	}
	return out
}

// toolResult returns the text of the tool_result answering a tool_use id.
func (c *conv) toolResult(id string) string {
	for _, m := range c.body.Messages {
		for _, b := range blocks(m.Content) {
			if b.Type == "tool_result" && b.ToolUseID == id {
				return text(b.Content)
			}
		}
	}
	return ""
}

// hasTool reports whether the request offers the named tool.
func (c *conv) hasTool(name string) bool {
	for _, t := range c.body.Tools {
		var x struct{ Name string }
		json.Unmarshal(t, &x)
		if x.Name == name {
			return true
		}
	}
	return false
}

// reply is one scripted answer: text, or a tool call.
type reply struct {
	Text  string
	Tool  string
	Input map[string]any
	ID    string // tool_use id, for assertions
	Usage int    // tokens to report as used (0: a small default); a large value triggers auto-compaction
}

func say(s string) reply { return reply{Text: s} }

var toolSeq, msgSeq atomic.Int64

func call(tool string, input map[string]any) reply {
	return reply{Tool: tool, Input: input, ID: fmt.Sprintf("toolu_e2e_%03d", toolSeq.Add(1))}
}

func bash(cmd string) reply {
	return call("Bash", map[string]any{"command": cmd, "description": "run " + cmd})
}

// anthropicHandler answers every Messages request with script's reply;
// requests without tools (titles, summaries the client makes on the side)
// and compaction requests get plain text.
func anthropicHandler(script func(c *conv) reply) func(w http.ResponseWriter, r *request) {
	return func(w http.ResponseWriter, r *request) {
		if r.Method == http.MethodHead || r.Method == http.MethodGet {
			w.WriteHeader(http.StatusOK)
			return
		}
		if strings.Contains(r.Path, "count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"input_tokens":1000}`)
			return
		}
		c, ok := parseAnthropic(r)
		if !ok {
			http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"stand-in: unknown endpoint"}}`, http.StatusNotFound)
			return
		}
		var rep reply
		switch {
		case isCompaction(c):
			rep = say("<summary>E2E compaction summary: the user asked to run make check.</summary>")
		case len(c.body.Tools) == 0:
			rep = say("ok")
		default:
			rep = script(c)
		}
		writeAnthropic(w, c.body.Stream, c.body.Model, rep)
	}
}

// isCompaction: Claude Code's compaction request ends with a user message
// asking for a summary of the conversation.
func isCompaction(c *conv) bool {
	last := c.lastUser()
	return strings.Contains(last, "summary of the conversation") || strings.Contains(last, "detailed summary")
}

func writeAnthropic(w http.ResponseWriter, stream bool, model string, rep reply) {
	var content map[string]any
	stop := "end_turn"
	if rep.Tool != "" {
		content = map[string]any{"type": "tool_use", "id": rep.ID, "name": rep.Tool, "input": rep.Input}
		stop = "tool_use"
	} else {
		content = map[string]any{"type": "text", "text": rep.Text}
	}
	msgID := fmt.Sprintf("msg_e2e_%04d", msgSeq.Add(1)) // Claude Code merges responses that share an id
	usage := map[string]any{"input_tokens": 1000, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": model,
			"content": []any{content}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	ev := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if rep.Tool != "" {
		in, _ := json.Marshal(rep.Input)
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": rep.ID, "name": rep.Tool, "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
	} else {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": rep.Text}})
	}
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 20}})
	ev("message_stop", map[string]any{"type": "message_stop"})
}
