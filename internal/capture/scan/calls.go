package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/redact"
	"github.com/lore-agents/lore/internal/lazyre"
)

// Call is one tool call in a transcript and how it ended (docs/design.md,
// Evidence of effect). Its fields are what the
// hook's matcher reads (match.Call), so lore stats and lore replay decide
// recorded calls as the hook decides live ones.
type Call struct {
	Agent   string    `json:"agent"`            // claude, codex, gemini
	Session string    `json:"session"`          // the session id (from the transcript; else the file's base name)
	File    string    `json:"file"`             // the transcript, home shown as ~
	Line    int       `json:"line"`             // the call's 1-based line (message number for Gemini JSON)
	Started time.Time `json:"started,omitzero"` // when the session started (its first timestamp); zero when unknown
	Time    time.Time `json:"time,omitzero"`    // the call's own timestamp when the transcript has one
	Tool    string    `json:"tool"`             // lore's tool name (NormalizeTool)
	// Command is a Bash call's command line, redacted, at most CallTextCap
	// bytes.
	Command string `json:"command,omitempty"`
	// Path is a file tool's file: repo-relative when under the root, else
	// as given (home as ~). An apply_patch touching several files names
	// the first here and all of them in Paths.
	Path  string   `json:"path,omitempty"`
	Paths []string `json:"paths,omitempty"`
	// Content is the text an Edit or Write call adds (content triggers),
	// redacted, at most CallTextCap bytes.
	Content string `json:"content,omitempty"`
	// Failed is how the call ended: "" (succeeded, or its result is
	// unknown), FailError, FailExit, FailTimeout, FailInterrupt, or
	// FailDenied (a hook, such as lore's own hold or deny, kept it from
	// running: not a failure of the call; see Failure).
	Failed string `json:"failed,omitempty"`
}

// How a call ended (Call.Failed).
const (
	FailError     = "error"     // an error result (the client's or the tool's)
	FailExit      = "exit"      // a shell command exited non-zero
	FailTimeout   = "timeout"   // the client stopped it for running too long
	FailInterrupt = "interrupt" // the user interrupted or rejected it
	FailDenied    = "denied"    // a PreToolUse hook blocked it: it never ran
)

// Failure says the call failed: an error, a non-zero exit, a timeout or
// an interrupt. A denied call did not fail (it never ran: a held call is
// the lesson working, not the mistake recurring).
func (c Call) Failure() bool { return c.Failed != "" && c.Failed != FailDenied }

// MatchCalls are the call as the hook's matcher reads it (match.Decide):
// one per file for a call naming several (apply_patch, up to 8 as the hook
// decides them, each with the whole added text), and no path for a file
// outside the repository (a path kept as given, absolute or under ~).
func (c Call) MatchCalls() []match.Call {
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{c.Path}
	}
	out := make([]match.Call, 0, min(len(paths), 8))
	for _, p := range paths[:min(len(paths), 8)] {
		if outside(p) {
			p = ""
		}
		out = append(out, match.Call{Tool: c.Tool, Command: c.Command, Path: p, Content: c.Content})
	}
	return out
}

// outside says a recorded path is not under the repository: it was kept
// as given (absolute, under ~, or up from the root).
func outside(p string) bool {
	return filepath.IsAbs(p) || p == "~" || p == ".." || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "../")
}

// CallTextCap is the most of a command or added text a Call keeps: long
// heredocs and whole files are cut there.
const CallTextCap = 4 << 10

// FileCalls are the calls read from one transcript.
type FileCalls struct {
	Key  string   // the transcript's absolute path
	Mark Bookmark // where the next read of the file starts
	// Keep says which calls recorded before stay: those on lines up to
	// Keep; the rest are replaced by Calls. 0: the file was read from its
	// start (new, rewritten, or a Gemini CLI chat), Calls are all of it.
	Keep  int
	Calls []Call
}

// CallsResult is what ReadCalls read.
type CallsResult struct {
	Files []FileCalls // the files read, in the order given
	Stats Stats
}

// ReadCalls reads the calls of the files past their bookmarks in marks
// (nil: every file whole), redacted. Files whose bookmark says they are
// unchanged are not read and are not in the result. A redaction failure
// fails the whole read: nothing unredacted escapes.
func ReadCalls(files []string, marks *Bookmarks, opt Options) (*CallsResult, error) {
	if marks == nil {
		marks = ParseBookmarks(nil)
	}
	res := &CallsResult{}
	for _, o := range scanAll(files, marks, opt, true) {
		res.Stats.add(o.stats)
		if o.err != nil {
			return nil, o.err
		}
		if o.found != nil {
			res.Files = append(res.Files, *o.found)
		}
	}
	return res, nil
}

// redactCalls replaces the secrets in what the calls keep; seen holds the
// texts already redacted in this file.
func redactCalls(calls []Call, seen map[string]string) error {
	for i := range calls {
		c := &calls[i]
		for _, p := range []*string{&c.Command, &c.Content, &c.Path} {
			if *p == "" {
				continue
			}
			r, ok := seen[*p]
			if !ok {
				var err error
				if r, err = redact.String(*p); err != nil {
					return fmt.Errorf("scan: redact: %w (nothing written)", err)
				}
				seen[*p] = r
			}
			*p = r
		}
	}
	return nil
}

// callLog records a transcript's calls as its reader meets them.
type callLog struct {
	root, home string
	calls      []Call
	starts     []int64        // the byte offset of each call's line (JSONL)
	open       map[string]int // a call awaiting its result -> its index
	lineStart  int64          // the offset of the line being read
	now        string         // the timestamp of the line or message being read
	first      string         // the first timestamp of this read
	started    string         // the session's first timestamp from earlier reads
	keep       int            // the lines read before (a resumed read)
	cwd        string
	// Codex's unified exec: a command still running after its first
	// output (its session id -> its call id), and the write_stdin calls
	// that poll one (call id -> session id).
	running, polls map[string]string
}

func newCallLog(opt *Options, prev Bookmark, had bool) *callLog {
	l := &callLog{root: opt.Root, home: opt.Home, open: map[string]int{},
		running: map[string]string{}, polls: map[string]string{}}
	if had {
		l.started, l.keep = prev.Started, prev.Line
	}
	return l
}

// stamp notes the timestamp and folder of the line being read.
func (l *callLog) stamp(ts, cwd string) {
	if ts != "" {
		l.now = ts
		if l.first == "" {
			l.first = ts
		}
	}
	if cwd != "" {
		l.cwd = cwd
	}
}

// call records a tool call read on line n: input is its JSON arguments,
// patch an apply_patch body.
func (l *callLog) call(n int, tool, id string, input []byte, patch string) {
	c := Call{Line: n, Tool: tool, Time: parseTime(l.now)}
	switch {
	case patch != "":
		c.Tool = "Edit"
		l.setPaths(&c, patchFiles(patch))
		c.Content = clip(patchAdded(patch), CallTextCap)
	case tool == "Bash":
		c.Command = commandOf(input)
	case match.HasTarget(tool):
		var added []string
		var path string
		fields(input, func(k, v []byte) bool {
			switch string(k) {
			case "file_path", "absolute_path", "notebook_path", "path", "dir_path":
				path = firstOf(path, str(v))
			case "new_string", "content", "new_source":
				added = append(added, str(v))
			case "edits":
				added = append(added, editsAdded(v)...)
			}
			return true
		})
		l.setPaths(&c, []string{path})
		if tool == "Edit" || tool == "Write" || tool == "NotebookEdit" {
			c.Content = clip(strings.Join(added, "\n"), CallTextCap)
		}
	}
	if id != "" {
		l.open[id] = len(l.calls)
	}
	l.calls = append(l.calls, c)
	l.starts = append(l.starts, l.lineStart)
}

// editsAdded is the new_string of each of a MultiEdit's edits.
func editsAdded(v []byte) []string {
	var out []string
	elements(v, func(e []byte) bool {
		fields(e, func(k, v []byte) bool {
			if string(k) == "new_string" {
				out = append(out, str(v))
			}
			return true
		})
		return true
	})
	return out
}

// commandOf is a shell call's command: the command or cmd string, or the
// script of an argument list ["bash","-lc",script].
func commandOf(input []byte) string {
	var cmd []byte
	fields(input, func(k, v []byte) bool {
		if string(k) == "command" || string(k) == "cmd" {
			cmd = v
			return false
		}
		return true
	})
	if len(cmd) == 0 {
		return ""
	}
	if cmd[0] != '[' {
		return clip(str(cmd), CallTextCap)
	}
	return clip(targetText(cmd), CallTextCap)
}

// setPaths sets the call's file and, when it names several, all of them.
func (l *callLog) setPaths(c *Call, paths []string) {
	var out []string
	for _, p := range paths {
		if p != "" {
			out = append(out, l.localPath(p))
		}
	}
	if len(out) > 0 {
		c.Path = out[0]
	}
	if len(out) > 1 {
		c.Paths = out
	}
}

// localPath is p repo-relative as the hook sees it (match.RelPath) when
// it is under the root, else as given with the home folder as ~.
func (l *callLog) localPath(p string) string {
	if l.root != "" {
		if rel := match.RelPath(l.root, l.cwd, p); rel != "" {
			return rel
		}
	}
	return homeTilde(p, l.home)
}

func homeTilde(p, home string) string {
	home = strings.TrimRight(home, "/")
	if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + p[len(home):]
	}
	return p
}

// patchAdded is the text an apply_patch body adds: its + lines.
func patchAdded(patch string) string {
	var b strings.Builder
	for _, line := range strings.Split(patch, "\n") {
		if strings.HasPrefix(line, "+") && b.Len() < CallTextCap {
			b.WriteString(line[1:])
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// result records how the call id ended.
func (l *callLog) result(id, failed string) {
	if i, ok := l.open[id]; ok {
		l.calls[i].Failed = failed
		delete(l.open, id)
	}
}

// interrupted marks the calls still awaiting a result as interrupted: the
// user stopped the turn (Claude Code writes "[Request interrupted by
// user...]" in place of their results).
func (l *callLog) interrupted() {
	for id, i := range l.open {
		l.calls[i].Failed = FailInterrupt
		delete(l.open, id)
	}
}

// holdBackLimit is how far back a call still awaiting its result keeps
// the bookmark: a call running while the transcript is read is read again
// with its result next time; an older one never got one and stays
// unknown.
const holdBackLimit = 4 << 20

// holdBack is where the next read of a JSONL file starts: before the
// line of the first call still awaiting its result, else at end (the
// offset and line after the last complete line).
func (l *callLog) holdBack(end int64, line int) (int64, int) {
	first := -1
	for _, i := range l.open {
		if first < 0 || i < first {
			first = i
		}
	}
	if first < 0 || end-l.starts[first] > holdBackLimit {
		return end, line
	}
	return l.starts[first], l.calls[first].Line - 1
}

// fileCalls completes the calls read from path with what the session
// knows, and moves the bookmark m.
func (l *callLog) fileCalls(path string, s *session, m *Bookmark) *FileCalls {
	keep := l.keep
	started := l.started
	if !s.resumed || started == "" {
		keep, started = 0, l.first
	}
	m.Started = started
	t := parseTime(started)
	abs := key(path)
	file := homeTilde(abs, l.home)
	for i := range l.calls {
		c := &l.calls[i]
		c.Agent, c.Session, c.File, c.Started = m.Agent, s.id, file, t
	}
	return &FileCalls{Key: abs, Mark: *m, Keep: keep, Calls: l.calls}
}

func parseTime(ts string) time.Time {
	if ts == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// geminiCalls records a Gemini CLI message's tool calls: each is recorded
// with its status, so a call and its result come together.
func (l *callLog) geminiCalls(r geminiRec) {
	for _, tc := range r.tools {
		out := geminiResult(tc.ResultDisplay, tc.Result)
		if !geminiDone(tc.Status, out) && tc.Status != "" {
			continue // still running: the record will be rewritten
		}
		l.call(r.line, NormalizeTool(tc.Name), "", tc.Args, "")
		l.calls[len(l.calls)-1].Failed = geminiFailure(tc.Status, out, tc.Result)
	}
}

// The words clients use for a call that never ran or was stopped
// (docs/clients.md, When context reaches the model).
var (
	hookBlocked = []string{
		"Command blocked by PreToolUse hook", // Codex
		"Tool execution blocked",             // Gemini CLI
	}
	loreRecord   = [][]byte{[]byte("<!-- lore {"), []byte(`\u003c!-- lore {`)}
	claudeHookRe = lazyre.New(`^PreToolUse:\S+ hook error`)
	exitCodeRe   = lazyre.New(`(?m)^(?:Exit code|Exit Code|Process exited with code):? (-?\d+)`)
)

// denied says a result is a hook's block: the client's words for it, or
// lore's own record, which ends every reason lore denies or holds with.
func denied(text string, raw []byte) bool {
	t := strings.TrimSpace(text)
	for _, p := range hookBlocked {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	if claudeHookRe().MatchString(t) {
		return true
	}
	for _, r := range loreRecord {
		if bytes.Contains(raw, r) {
			return true
		}
	}
	return false
}

// timedOut says the result's first line reports a timeout.
func timedOut(text string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	first = strings.ToLower(first)
	return strings.Contains(first, "timed out") || strings.Contains(first, "deadline exceeded")
}

// exitCode is the non-zero exit code the text reports, or 0.
func exitCode(text string) int {
	if m := exitCodeRe().FindStringSubmatch(text); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// claudeFailure classifies a Claude Code tool result: its excerpt text
// and its raw content (where lore's record is looked for).
func claudeFailure(isErr bool, text string, raw []byte) string {
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "[Request interrupted by user"), strings.HasPrefix(t, "The user doesn't want to proceed"):
		return FailInterrupt
	case !isErr:
		return ""
	case denied(t, raw):
		return FailDenied
	case timedOut(t):
		return FailTimeout
	case exitCode(t) != 0:
		return FailExit
	}
	return FailError
}

// codexFailure classifies a Codex tool output (raw), out being its text
// and failed what codexOutput says.
func codexFailure(raw json.RawMessage, out string, failed bool) string {
	var text string
	if json.Unmarshal(raw, &text) != nil {
		text = out
	}
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "aborted"):
		return FailInterrupt
	case denied(t, raw):
		return FailDenied
	case !failed:
		return ""
	case timedOut(out) || timedOut(t):
		return FailTimeout
	case bytes.Contains(raw, []byte(`exit_code`)) || exitCode(t) != 0:
		return FailExit
	}
	return FailError
}

// geminiFailure classifies a Gemini CLI tool call by its status and
// result: a shell command's non-zero "Exit Code" is an exit whatever the
// status says.
func geminiFailure(status, out string, raw json.RawMessage) string {
	switch {
	case status == "cancelled":
		return FailInterrupt
	case status == "error" && denied(out, raw):
		return FailDenied
	case status == "error" && timedOut(out):
		return FailTimeout
	}
	if text, ok := functionResponse(raw); ok && exitCode(text) != 0 {
		return FailExit
	}
	if status == "error" {
		return FailError
	}
	return ""
}

var runningRe = lazyre.New(`Process running with session ID (\d+)`)

// codexResult records a Codex tool output (raw; out and failed as
// codexOutput reads it). A command that outlives its first output
// (unified exec: "Process running with session ID N") stays open; the
// write_stdin call that polls it and sees it end gives it its outcome,
// the poll itself none.
func (l *callLog) codexResult(id string, raw json.RawMessage, out string, failed bool) {
	failure := codexFailure(raw, out, failed)
	var session string
	if m := runningRe().FindSubmatch(raw); m != nil {
		session = string(m[1])
	}
	if polled, ok := l.polls[id]; ok {
		delete(l.polls, id)
		l.result(id, "")
		if exec, ok := l.running[polled]; ok && session == "" {
			l.result(exec, failure)
			delete(l.running, polled)
		}
		return
	}
	if session != "" {
		l.running[session] = id
		return
	}
	l.result(id, failure)
}

// codexCallDetail records a Codex tool call with its arguments.
func (s *session) codexCallDetail(p *codexPayload, tool string, n int) {
	if p.Name == "write_stdin" {
		fields([]byte(p.Arguments), func(k, v []byte) bool {
			if string(k) == "session_id" {
				s.log.polls[p.CallID] = string(bytes.Trim(v, `"`))
			}
			return true
		})
	}
	switch {
	case p.Input != "" && strings.Contains(p.Input, "*** Begin Patch"):
		s.log.call(n, tool, p.CallID, nil, p.Input)
	case p.Arguments != "":
		args := []byte(p.Arguments)
		if patch := stringField(args, "input"); strings.Contains(patch, "*** Begin Patch") {
			s.log.call(n, tool, p.CallID, nil, patch)
			return
		}
		s.log.call(n, tool, p.CallID, args, "")
	default:
		s.log.call(n, tool, p.CallID, p.Action, "")
	}
}

// stringField is the string at key in a JSON object, or "".
func stringField(obj []byte, k string) string {
	var out string
	fields(obj, func(key, v []byte) bool {
		if string(key) == k {
			out = str(v)
			return false
		}
		return true
	})
	return out
}
