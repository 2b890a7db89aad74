//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// The OpenAI Responses API as Codex uses it: POST /v1/responses, streamed
// as server-sent events.

type responsesReq struct {
	Model        string            `json:"model"`
	Instructions string            `json:"instructions"`
	Input        []json.RawMessage `json:"input"`
	Tools        []json.RawMessage `json:"tools"`
}

type respItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Name    string          `json:"name"`
	CallID  string          `json:"call_id"`
	Args    string          `json:"arguments"`
	Output  json.RawMessage `json:"output"`
	Input   string          `json:"input"` // custom tool calls (apply_patch)
}

// rconv is a parsed Responses request.
type rconv struct {
	req   *request
	body  responsesReq
	items []respItem
}

func parseResponses(r *request) (*rconv, bool) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Path, "/v1/responses") {
		return nil, false
	}
	c := &rconv{req: r}
	if json.Unmarshal(r.Body, &c.body) != nil {
		return nil, false
	}
	for _, raw := range c.body.Input {
		var it respItem
		json.Unmarshal(raw, &it)
		c.items = append(c.items, it)
	}
	return c, true
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type, Text string
	}
	json.Unmarshal(raw, &parts)
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text + "\n")
	}
	return sb.String()
}

func (it respItem) text() string {
	switch it.Type {
	case "message":
		return contentText(it.Content)
	case "function_call":
		return it.Args
	case "custom_tool_call":
		return it.Input
	case "function_call_output", "custom_tool_call_output":
		return contentText(it.Output)
	}
	return ""
}

// all is everything the model is shown.
func (c *rconv) all() string { return c.body.Instructions + "\n" + c.messages() }

func (c *rconv) messages() string {
	var sb strings.Builder
	for _, it := range c.items {
		sb.WriteString(it.text() + "\n")
	}
	return sb.String()
}

// msgs: user text messages and the model's turns (every item the model
// produced counts as one turn: the stand-in answers one item at a time).
func (c *rconv) msgs() []msg {
	var out []msg
	for _, it := range c.items {
		switch {
		case it.Type == "message" && it.Role == "user":
			out = append(out, msg{"user", contentText(it.Content)})
		case it.Type == "message" && it.Role == "assistant", it.Type == "function_call", it.Type == "custom_tool_call", it.Type == "local_shell_call":
			out = append(out, msg{"assistant", ""})
		}
	}
	return out
}

func (c *rconv) resultFor(callID string) (string, bool) {
	for _, it := range c.items {
		if (it.Type == "function_call_output" || it.Type == "custom_tool_call_output") && it.CallID == callID {
			return contentText(it.Output), true
		}
	}
	return "", false
}

// toolResult is a call's result and the input after it, where Codex puts
// context from hooks that ran around the call.
func (c *rconv) toolResult(callID string) string {
	res, _ := c.resultFor(callID)
	return res + c.afterResult(callID)
}

// afterResult is the input that follows a call's result: where Codex puts
// context from hooks that ran around the call.
func (c *rconv) afterResult(callID string) string {
	var sb strings.Builder
	found := false
	for _, it := range c.items {
		if found {
			sb.WriteString(it.text() + "\n")
		}
		if (it.Type == "function_call_output" || it.Type == "custom_tool_call_output") && it.CallID == callID {
			found = true
		}
	}
	return sb.String()
}

func (c *rconv) toolNames() []string {
	var names []string
	for _, t := range c.body.Tools {
		var x struct{ Type, Name string }
		json.Unmarshal(t, &x)
		names = append(names, x.Name)
	}
	return names
}

var respSeq atomic.Int64

// responsesHandler answers every Responses request with script's reply,
// turning a Bash call into Codex's shell tool as offered in the request.
func responsesHandler(script func(c *rconv) reply) func(w http.ResponseWriter, r *request) {
	return func(w http.ResponseWriter, r *request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v1/models") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"object":"list","data":[],"models":[]}`)
			return
		}
		c, ok := parseResponses(r)
		if !ok {
			http.Error(w, `{"error":{"message":"stand-in: unknown endpoint"}}`, http.StatusNotFound)
			return
		}
		rep := script(c)
		writeResponses(w, c, rep)
	}
}

// shellItem is a Bash reply as a call to the shell tool this Codex offers.
func shellItem(c *rconv, rep reply) map[string]any {
	cmd, _ := rep.Input["command"].(string)
	names := c.toolNames()
	has := func(n string) bool {
		for _, x := range names {
			if x == n {
				return true
			}
		}
		return false
	}
	var name string
	var args any
	switch {
	case has("exec_command"):
		name, args = "exec_command", map[string]any{"cmd": cmd}
	case has("shell_command"):
		name, args = "shell_command", map[string]any{"command": cmd}
	default:
		name, args = "shell", map[string]any{"command": []string{"bash", "-lc", cmd}}
	}
	if rep.Tool != "Bash" {
		name, args = rep.Tool, rep.Input
	}
	a, _ := json.Marshal(args)
	item := map[string]any{"type": "function_call", "id": "fc_" + rep.ID, "call_id": rep.ID, "name": name, "arguments": string(a), "status": "completed"}
	if ns, fn, ok := strings.Cut(name, "."); ok { // a tool in a namespace (multi_agent_v1.spawn_agent)
		item["namespace"], item["name"] = ns, fn
	}
	return item
}

func writeResponses(w http.ResponseWriter, c *rconv, rep reply) {
	id := fmt.Sprintf("resp_e2e_%04d", respSeq.Add(1))
	var item map[string]any
	if rep.Tool != "" {
		item = shellItem(c, rep)
	} else {
		item = map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}}}
	}
	used := 1000
	if rep.Usage > 0 {
		used = rep.Usage
	}
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	}
	ev(map[string]any{"type": "response.created", "response": map[string]any{"id": id, "status": "in_progress"}})
	ev(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if rep.Tool == "" {
		ev(map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "item_id": item["id"], "delta": rep.Text})
	}
	ev(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	ev(map[string]any{"type": "response.completed", "response": map[string]any{"id": id, "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": used, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 20, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": used + 20}}})
}
