package scan

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/lore-agents/lore/internal/inject/protocol"
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
			if err = dec.Decode(&id); err == nil {
				s.id = id
			}
		case "messages":
			err = s.geminiMessages(dec, skip, &count)
		default:
			var skipV json.RawMessage
			err = dec.Decode(&skipV)
		}
		if err != nil {
			return count, err
		}
	}
	return count, nil
}

// geminiMessages reads the messages array, counting its messages in count
// and reading those past skip.
func (s *session) geminiMessages(dec *json.Decoder, skip int, count *int) error {
	if _, err := dec.Token(); err != nil { // [
		return err
	}
	for dec.More() {
		var m geminiMessage
		if err := dec.Decode(&m); err != nil {
			s.stats.BadJSON++
			return err
		}
		*count++
		s.stats.Lines++
		if *count > skip {
			s.geminiMessage(m, *count)
		}
	}
	_, err := dec.Token() // ]
	return err
}

type geminiMessage struct {
	Type      string       `json:"type"`
	Content   any          `json:"content"`
	Timestamp string       `json:"timestamp"`
	ToolCalls []geminiTool `json:"toolCalls"`
}

// geminiTool is one tool call of a message, with its result once done.
type geminiTool struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Status        string          `json:"status"`
	ResultDisplay any             `json:"resultDisplay"`
	Result        json.RawMessage `json:"result"`
}

func (s *session) geminiMessage(m geminiMessage, n int) {
	s.geminiEvents(geminiRecord(geminiLine{geminiMessage: m}, n))
}

// geminiEvents turns one message into events: the user's words (without
// the hook context Gemini CLI wraps around them), the model's words and
// tool calls. Info, error and warning messages are the CLI's own.
func (s *session) geminiEvents(r geminiRec) {
	if s.log != nil {
		s.log.stamp(r.time, "")
	}
	switch r.typ {
	case "user":
		s.text(true, protocol.StripHookContext(r.text), r.line)
	case "gemini", "model", "assistant":
		if s.log != nil {
			s.log.geminiCalls(r)
			return
		}
		s.text(false, r.text, r.line)
		s.events = append(s.events, r.calls...)
	case "info", "error", "warning":
	default:
		s.stats.Unknown++
	}
}

// geminiText joins the text of a message's content: a string, a list of
// parts or one part; thought parts are left out.
func geminiText(content any) string {
	switch c := content.(type) {
	case string:
		return c
	case map[string]any:
		t, _ := c["text"].(string)
		return t
	case []any:
		return partsText(c)
	}
	return ""
}

// partsText joins the text of the parts. A part marked thought (history
// synced by $set.messages keeps them) is the model's thinking, not its
// reply.
func partsText(parts []any) string {
	text := ""
	for _, p := range parts {
		mp, ok := p.(map[string]any)
		if !ok || mp["thought"] == true {
			continue
		}
		if t, ok := mp["text"].(string); ok {
			text += t
		}
	}
	return text
}

// geminiResult is the start of a tool call's result: the display text,
// else the functionResponse output (or error) of its parts, else the raw
// JSON.
func geminiResult(display any, result json.RawMessage) string {
	if d, ok := display.(string); ok && d != "" {
		return clip(d, resultExcerpt)
	}
	if len(result) == 0 || string(result) == "null" {
		return ""
	}
	if r, ok := functionResponse(result); ok {
		return clip(r, resultExcerpt)
	}
	return clip(string(result), resultExcerpt)
}

// functionResponse is the error and output of the first of the result's
// parts that has either.
func functionResponse(result json.RawMessage) (string, bool) {
	var parts []struct {
		FunctionResponse struct {
			Response struct {
				Output string `json:"output"`
				Error  string `json:"error"`
			} `json:"response"`
		} `json:"functionResponse"`
	}
	if json.Unmarshal(result, &parts) != nil {
		return "", false
	}
	for _, p := range parts {
		if r := p.FunctionResponse.Response; r.Output != "" || r.Error != "" {
			return r.Error + r.Output, true
		}
	}
	return "", false
}

// geminiRec is what scan keeps of one Gemini CLI message record: its
// words and its tool calls with clipped results, never a whole output.
type geminiRec struct {
	id   string
	line int // the JSONL line that last wrote it ($set.messages keeps the old one)
	typ  string
	text string
	// calls hold each tool call's events: the call, then its result.
	calls []Event
	// pending: a tool call has not finished (the record will be rewritten).
	pending bool
	// tools and time are the message's tool calls and timestamp as
	// recorded, for ReadCalls.
	tools []geminiTool
	time  string
}

// geminiLine is one line of a Gemini CLI chat file (0.61 and later:
// session-*.jsonl). Exactly one shape applies: the metadata line
// (sessionId, projectHash), a message record (id), a metadata update
// ($set, whose messages replace the whole list) or a rewind ($rewindTo).
type geminiLine struct {
	geminiMessage
	ID        string  `json:"id"`
	SessionID string  `json:"sessionId"`
	RewindTo  *string `json:"$rewindTo"`
	Set       *struct {
		Messages *[]geminiLine `json:"messages"`
	} `json:"$set"`
}

// geminiJSONL reads a Gemini CLI JSONL chat file. A message record is
// appended again whole each time it changes (tool calls added, tokens
// counted), so the file is replayed into the final list of messages
// (upserts by id, $set.messages, $rewindTo) and the messages from skip on
// become events. It returns how many leading messages are settled (done,
// and followed by another): the next scan starts there, so a message still
// growing is read again whole, and what it yields twice merges by hash.
// prevLines is how many lines the previous scan read: a rewind or a list
// replaced after them moves the start back to the first changed message.
func (s *session) geminiJSONL(f io.Reader, skip, prevLines int) (settled, lines int) {
	rp := geminiReplay{s: s, index: map[string]int{}}
	lr := newLineReader(f, 0, 0, s.stats)
	defer lr.release()
	for {
		l, ok := lr.next()
		if !ok {
			break
		}
		g, ok := s.geminiDecode(l)
		if !ok {
			continue
		}
		if changed := rp.apply(&g, lr.line); changed >= 0 && lr.line > prevLines {
			skip = min(skip, changed)
		}
	}
	recs := rp.recs
	skip = min(skip, len(recs))
	for _, r := range recs[skip:] {
		s.geminiEvents(r)
	}
	for settled < len(recs)-1 && !recs[settled].pending {
		settled++
	}
	return settled, lr.line
}

// geminiDecode decodes one line of a JSONL chat file; a blank line is
// skipped, anything but a JSON object counted as bad.
func (s *session) geminiDecode(l []byte) (g geminiLine, ok bool) {
	l = bytes.TrimSpace(l)
	if len(l) == 0 {
		return g, false
	}
	if l[0] != '{' || json.Unmarshal(l, &g) != nil {
		s.stats.BadJSON++
		return g, false
	}
	return g, true
}

// geminiReplay is the list of messages as a JSONL chat file's lines
// leave it.
type geminiReplay struct {
	s     *session
	recs  []geminiRec
	index map[string]int // message id -> position in recs
}

// apply replays one line read as line; it returns the first message the
// line changed when it replaced any, else -1.
func (rp *geminiReplay) apply(g *geminiLine, line int) (changed int) {
	switch {
	case g.RewindTo != nil:
		return rp.rewind(*g.RewindTo)
	case g.Set != nil:
		if g.Set.Messages == nil {
			return -1 // lastUpdated, summary, directories
		}
		return rp.replace(*g.Set.Messages, line)
	case g.ID != "":
		rp.upsert(geminiRecord(*g, line))
	case g.SessionID != "":
		if rp.s.id == "" {
			rp.s.id = g.SessionID
		}
	default:
		rp.s.stats.Unknown++
	}
	return -1
}

// rewind drops the message id and all after it.
func (rp *geminiReplay) rewind(id string) int {
	i, found := rp.index[id]
	if !found {
		i = 0 // as Gemini CLI does: an unknown id clears the list
	}
	rp.recs = rp.recs[:i]
	rp.index = reindex(rp.recs)
	return i
}

// replace puts msgs, all written on line, in place of the list. A message
// already read keeps its line: this one line holds the whole list.
func (rp *geminiReplay) replace(msgs []geminiLine, line int) int {
	var next []geminiRec
	for _, m := range msgs {
		l := line
		if i, found := rp.index[m.ID]; found {
			l = rp.recs[i].line
		}
		next = append(next, geminiRecord(m, l))
	}
	changed := firstChange(rp.recs, next)
	rp.recs, rp.index = next, reindex(next)
	return changed
}

// upsert puts r in place of the message with its id, or appends it.
func (rp *geminiReplay) upsert(r geminiRec) {
	if i, found := rp.index[r.id]; found {
		rp.recs[i] = r
		return
	}
	rp.index[r.id] = len(rp.recs)
	rp.recs = append(rp.recs, r)
}

func geminiRecord(g geminiLine, line int) geminiRec {
	r := geminiRec{id: g.ID, line: line, typ: g.Type, text: geminiText(g.Content), tools: g.ToolCalls, time: g.Timestamp}
	for _, tc := range g.ToolCalls {
		tool := NormalizeTool(tc.Name)
		r.calls = append(r.calls, Event{Line: line, Kind: ToolCall, Tool: tool, ID: tc.ID, Text: callTarget(tc.Args)})
		out := geminiResult(tc.ResultDisplay, tc.Result)
		if !geminiDone(tc.Status, out) {
			// Not done with a status: validating, scheduled,
			// awaiting_approval, executing. The record will be rewritten.
			r.pending = r.pending || tc.Status != ""
			continue
		}
		r.calls = append(r.calls, Event{Line: line, Kind: ToolResult, Tool: tool, ID: tc.ID,
			Error: tc.Status == "error" || tc.Status == "cancelled", Text: out, Timeout: timeoutText(out) || tc.Status == "cancelled"})
	}
	return r
}

// geminiDone says a tool call with this status and output has a result:
// it finished, or (older chat files, no status) it has an output.
func geminiDone(status, out string) bool {
	switch status {
	case "success", "error", "cancelled":
		return true
	case "":
		return out != ""
	}
	return false
}

func reindex(recs []geminiRec) map[string]int {
	m := make(map[string]int, len(recs))
	for i, r := range recs {
		m[r.id] = i
	}
	return m
}

// firstChange is the first position where the two lists name different
// messages (or len(a) when b only extends a).
func firstChange(a, b []geminiRec) int {
	for i := range a {
		if i >= len(b) || a[i].id != b[i].id {
			return i
		}
	}
	return len(a)
}
