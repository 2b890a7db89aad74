package scan

import (
	"encoding/json"
	"io"
)

// geminiFile reads a Gemini CLI chat file (one JSON document with a
// messages array), message by message so memory stays bounded by one
// message. Messages before skip were read by an earlier scan. It returns
// the number of messages in the file.
func (s *session) geminiFile(r io.Reader, skip int) (int, error) {
	dec := json.NewDecoder(r)
	if _, err := dec.Token(); err != nil { // {
		return 0, err
	}
	count := 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return count, err
		}
		key, _ := t.(string)
		switch key {
		case "sessionId":
			var id string
			if err := dec.Decode(&id); err != nil {
				return count, err
			}
			s.id = id
		case "messages":
			if _, err := dec.Token(); err != nil { // [
				return count, err
			}
			for dec.More() {
				var m geminiMessage
				if err := dec.Decode(&m); err != nil {
					s.stats.BadJSON++
					return count, err
				}
				count++
				s.stats.Lines++
				if count > skip {
					s.geminiMessage(m, count)
				}
			}
			if _, err := dec.Token(); err != nil { // ]
				return count, err
			}
		default:
			var skipV json.RawMessage
			if err := dec.Decode(&skipV); err != nil {
				return count, err
			}
		}
	}
	return count, nil
}

type geminiMessage struct {
	Type      string `json:"type"`
	Content   any    `json:"content"`
	ToolCalls []struct {
		ID            string          `json:"id"`
		Name          string          `json:"name"`
		Args          json.RawMessage `json:"args"`
		Status        string          `json:"status"`
		ResultDisplay any             `json:"resultDisplay"`
		Result        json.RawMessage `json:"result"`
	} `json:"toolCalls"`
}

func (s *session) geminiMessage(m geminiMessage, n int) {
	text := ""
	switch c := m.Content.(type) {
	case string:
		text = c
	case []any: // newer files: [{"text": ...}]
		for _, p := range c {
			if mp, ok := p.(map[string]any); ok {
				if t, ok := mp["text"].(string); ok {
					text += t
				}
			}
		}
	}
	switch m.Type {
	case "user":
		s.text(true, text, n)
	case "gemini", "model", "assistant":
		s.text(false, text, n)
		for _, tc := range m.ToolCalls {
			tool := NormalizeTool(tc.Name)
			s.add(Event{Line: n, Kind: ToolCall, Tool: tool, ID: tc.ID, Text: callTarget(tc.Args)})
			out := ""
			if d, ok := tc.ResultDisplay.(string); ok {
				out = d
			} else if len(tc.Result) > 0 {
				out = string(tc.Result)
			}
			out = clip(out, resultExcerpt)
			if tc.Status == "" && out == "" {
				continue
			}
			s.add(Event{Line: n, Kind: ToolResult, Tool: tool, ID: tc.ID,
				Error: tc.Status == "error" || tc.Status == "cancelled", Text: out, Timeout: timeoutText(out) || tc.Status == "cancelled"})
		}
	default:
		s.stats.Unknown++
	}
}
