package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK's stdio transport ends the session on the first line that is
// not a JSON-RPC message (go-sdk #1209), so one stray line from a client
// would cut an agent off its memory for the rest of the session. guard
// stands between stdin and the SDK: it passes each well-formed message on,
// and answers any other line itself with the JSON-RPC error the
// specification asks for (a parse error for text that is not JSON, an invalid request for
// JSON that is not a request), on the same output the SDK writes to.

// maxLine is the longest line passed on: the SDK's own default frame cap.
const maxLine = 16 << 20

// lockedWriter serialises the SDK's writes with guard's (each is one
// whole line in one Write call), and counts the responses written, so
// that guard can wait for the answers to the calls it passed on.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	done    *sync.Cond
	calls   int // requests passed on to the SDK
	answers int // responses the SDK wrote
}

func newLockedWriter(w io.Writer) *lockedWriter {
	l := &lockedWriter{w: w}
	l.done = sync.NewCond(&l.mu)
	return l
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if k := count(p, isResponse); k > 0 {
		l.answers += k
		l.done.Broadcast()
	}
	return n, err
}

// Close leaves the output open: it is the process's stdout.
func (l *lockedWriter) Close() error { return nil }

// passed counts calls guard handed to the SDK.
func (l *lockedWriter) passed(n int) {
	l.mu.Lock()
	l.calls += n
	l.mu.Unlock()
}

// drainWait bounds drain: a call the SDK never answers (one the client
// cancelled) must not keep the server from exiting when stdin closes.
var drainWait = 10 * time.Second

// drain waits until every call passed on is answered, or drainWait: a
// client that writes its requests and closes stdin still gets every
// answer.
func (l *lockedWriter) drain() {
	expired := false
	t := time.AfterFunc(drainWait, func() {
		l.mu.Lock()
		expired = true
		l.done.Broadcast()
		l.mu.Unlock()
	})
	defer t.Stop()
	l.mu.Lock()
	for l.answers < l.calls && !expired {
		l.done.Wait()
	}
	l.mu.Unlock()
}

func isResponse(m jsonrpc.Message) bool { _, ok := m.(*jsonrpc.Response); return ok }

func isCall(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.IsCall()
}

// count is how many of the messages in a line (one, or a batch) are of
// the kind asked.
func count(line []byte, kind func(jsonrpc.Message) bool) int {
	n := 0
	for _, m := range messages(line) {
		if msg, err := jsonrpc.DecodeMessage(m); err == nil && kind(msg) {
			n++
		}
	}
	return n
}

// messages splits a line into its JSON values: the elements of a batch,
// or the line itself.
func messages(line []byte) []json.RawMessage {
	msgs := []json.RawMessage{line}
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
		msgs = nil
		_ = json.Unmarshal(line, &msgs)
	}
	return msgs
}

// guard copies the messages of in to pass, one a line, and answers the
// other lines on out; at the end of in (or a read error) it closes pass.
func guard(in io.Reader, pass *io.PipeWriter, out *lockedWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if werr := route(line, tooLong, pass, out); werr != nil {
				pass.CloseWithError(werr)
				return
			}
		}
		if err != nil {
			out.drain()
			_ = pass.Close() // a pipe writer's Close never fails
			return
		}
	}
}

// readLine reads one line without its newline; a line over maxLine is
// read to its end and dropped (tooLong).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine {
				line, tooLong = nil, true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// route passes a message on, or writes the error that answers the line.
func route(line []byte, tooLong bool, pass io.Writer, out *lockedWriter) error {
	code, msg := validate(line)
	if tooLong {
		code, msg = jsonrpc.CodeParseError, fmt.Sprintf("Parse error: line longer than %d bytes", maxLine)
	}
	if code == 0 {
		out.passed(count(line, isCall))
		_, err := pass.Write(append(line, '\n'))
		return err
	}
	resp, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": msg}})
	_, err := out.Write(append(resp, '\n'))
	return err
}

// validate says whether a line is a JSON-RPC message (or a batch of
// them) the SDK will read: 0, or the error code and message to answer.
func validate(line []byte) (int, string) {
	if !json.Valid(line) {
		return jsonrpc.CodeParseError, "Parse error: the line is not JSON"
	}
	msgs := messages(line)
	if len(msgs) == 0 {
		return jsonrpc.CodeInvalidRequest, "Invalid Request: an empty or malformed batch"
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error()
		}
	}
	return 0, ""
}
