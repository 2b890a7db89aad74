//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The Gemini API as Gemini CLI uses it: POST
// /v1beta/models/M:streamGenerateContent?alt=sse (the agent's turns),
// :generateContent (side calls: the router's classifier wants JSON with
// complexity_score, the next-speaker check JSON with next_speaker) and
// :countTokens.

type gemPart struct {
	Text             string          `json:"text"`
	FunctionCall     json.RawMessage `json:"functionCall"`
	FunctionResponse json.RawMessage `json:"functionResponse"`
}

type gemReq struct {
	Contents []struct {
		Role  string    `json:"role"`
		Parts []gemPart `json:"parts"`
	} `json:"contents"`
	SystemInstruction *struct {
		Parts []gemPart `json:"parts"`
	} `json:"systemInstruction"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

// gconv is a parsed Gemini request.
type gconv struct {
	req    *request
	body   gemReq
	stream bool
}

func parseGemini(r *request) (*gconv, bool) {
	if r.Method != http.MethodPost || !strings.Contains(r.Path, "GenerateContent") && !strings.Contains(r.Path, "generateContent") {
		return nil, false
	}
	c := &gconv{req: r, stream: strings.Contains(r.Path, ":streamGenerateContent")}
	if json.Unmarshal(r.Body, &c.body) != nil {
		return nil, false
	}
	return c, true
}

func partText(p gemPart) string {
	switch {
	case p.Text != "":
		return p.Text
	case p.FunctionCall != nil:
		return string(p.FunctionCall)
	case p.FunctionResponse != nil:
		// The tool's output, with hook context appended, as JSON: decode
		// it so markers compare as plain text.
		var fr struct {
			Response map[string]any `json:"response"`
		}
		json.Unmarshal(p.FunctionResponse, &fr)
		var sb strings.Builder
		for _, v := range fr.Response {
			sb.WriteString(fmt.Sprint(v) + "\n")
		}
		return sb.String()
	}
	return ""
}

func (c *gconv) all() string {
	var sb strings.Builder
	if c.body.SystemInstruction != nil {
		for _, p := range c.body.SystemInstruction.Parts {
			sb.WriteString(p.Text + "\n")
		}
	}
	return sb.String() + c.messages()
}

func (c *gconv) messages() string {
	var sb strings.Builder
	for _, m := range c.body.Contents {
		for _, p := range m.Parts {
			sb.WriteString(partText(p) + "\n")
		}
	}
	return sb.String()
}

func (c *gconv) msgs() []msg {
	var out []msg
	for _, m := range c.body.Contents {
		var sb strings.Builder
		for _, p := range m.Parts {
			sb.WriteString(p.Text + "\n")
		}
		out = append(out, msg{m.Role, sb.String()})
	}
	return out
}

func (c *gconv) hasTool(name string) bool {
	for _, t := range c.body.Tools {
		for _, d := range t.FunctionDeclarations {
			if d.Name == name {
				return true
			}
		}
	}
	return false
}

func (c *gconv) hasTools() bool {
	for _, t := range c.body.Tools {
		if len(t.FunctionDeclarations) > 0 {
			return true
		}
	}
	return false
}

// toolResult returns the text of the function response that follows the
// model's call with id (the stand-in puts its id into the call's args
// as no field of its own exists; Gemini answers calls in order).
func (c *gconv) toolResult(id string) string {
	seen := false
	for _, m := range c.body.Contents {
		for _, p := range m.Parts {
			if p.FunctionCall != nil && strings.Contains(string(p.FunctionCall), id) {
				seen = true
				continue
			}
			if seen && p.FunctionResponse != nil {
				return partText(p)
			}
		}
	}
	return ""
}

func geminiHandler(script func(c *gconv) reply) func(w http.ResponseWriter, r *request) {
	return func(w http.ResponseWriter, r *request) {
		if strings.Contains(r.Path, ":countTokens") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"totalTokens":100}`)
			return
		}
		c, ok := parseGemini(r)
		if !ok {
			http.Error(w, `{"error":{"code":404,"message":"stand-in: unknown endpoint","status":"NOT_FOUND"}}`, http.StatusNotFound)
			return
		}
		var rep reply
		body := string(r.Body)
		switch {
		case strings.Contains(body, "complexity_score"):
			rep = say(`{"complexity_reasoning":"a simple scripted task","complexity_score":10}`)
		case strings.Contains(body, "next_speaker"):
			rep = say(`{"reasoning":"the model finished its turn","next_speaker":"user"}`)
		case !c.hasTools():
			rep = say("ok")
		default:
			rep = script(c)
		}
		writeGemini(w, c.stream, rep)
	}
}

// geminiTool is a Bash reply as Gemini's run_shell_command.
func geminiCall(rep reply) map[string]any {
	if rep.Tool == "Bash" {
		cmd, _ := rep.Input["command"].(string)
		return map[string]any{"name": "run_shell_command", "args": map[string]any{"command": cmd, "description": "e2e " + rep.ID}}
	}
	return map[string]any{"name": rep.Tool, "args": rep.Input}
}

func writeGemini(w http.ResponseWriter, stream bool, rep reply) {
	var parts []any
	if rep.Text != "" {
		parts = append(parts, map[string]any{"text": rep.Text})
	}
	if rep.Tool != "" {
		parts = append(parts, map[string]any{"functionCall": geminiCall(rep)})
	}
	used := 1000
	if rep.Usage > 0 {
		used = rep.Usage
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": used, "candidatesTokenCount": 20, "totalTokenCount": used + 20},
		"modelVersion":  "gemini-e2e",
	}
	b, _ := json.Marshal(resp)
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
}
