package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/buger/jsonparser"

	"github.com/lore-agents/lore/internal/inject/match"
)

// maxStdin bounds what lore reads from the agent: a hook payload carries a
// tool's input, never a whole file worth keeping.
const maxStdin = 8 << 20

// input is the union of the stdin fields lore reads from any agent.
type input struct {
	SessionID      string
	TranscriptPath string
	Cwd            string
	HookEventName  string
	Source         string // SessionStart: startup|resume|clear|compact
	Trigger        string // the same in some Gemini CLI releases
	Prompt         string
	ToolName       string
	ToolInput      []byte // the raw tool_input object
	// AgentID names a sub-agent (Claude Code, Codex); "" on the main thread.
	AgentID string
	// AgentTranscriptPath is a sub-agent's own transcript (SubagentStop).
	AgentTranscriptPath string
}

// inputKeys are the top-level stdin keys, in the order of input.strings.
var inputKeys = [][]string{{"session_id"}, {"transcript_path"}, {"cwd"}, {"hook_event_name"},
	{"source"}, {"trigger"}, {"prompt"}, {"tool_name"}, {"tool_input"}, {"agent_id"}, {"agent_transcript_path"}}

// toolInputKey is tool_input's index in inputKeys: an object, not a string.
const toolInputKey = 8

// strings returns the string fields of in, in the order of inputKeys (nil
// at toolInputKey).
func (in *input) strings() [11]*string {
	return [...]*string{&in.SessionID, &in.TranscriptPath, &in.Cwd, &in.HookEventName,
		&in.Source, &in.Trigger, &in.Prompt, &in.ToolName, nil, &in.AgentID, &in.AgentTranscriptPath}
}

// readInput reads the agent's JSON with jsonparser, which picks the few
// fields lore needs without reflection: encoding/json's decoder costs a
// fresh process ~0.25 ms of start-up and page faults (measured: a program
// that decodes this input with it runs 1.22x a trivial one, 1.06x with
// jsonparser), the whole budget of a hook call no item names.
func readInput(r io.Reader) (*input, error) {
	data, err := readObject(r)
	if err != nil {
		return nil, err
	}
	var in input
	if !in.each(data) {
		in = input{}
		if err := in.walk(data); err != nil {
			return nil, fmt.Errorf("hooks: stdin: %w", err)
		}
	}
	return &in, nil
}

// each reads the fields of a well-formed object in one objectEach
// pass, which steps over tool_input once (EachKey scans it twice: to
// return it, then walking on through it; a Write's is tens of KiB). False,
// with in half-read, when objectEach refuses data or stops before its end,
// or a string does not parse: walk reads those as before.
func (in *input) each(data []byte) bool {
	fields := in.strings()
	var seen [len(fields)]bool
	end := -1
	err := objectEach(data, func(k, v []byte, t jsonparser.ValueType, off int) error {
		end = off
		if t == jsonparser.Number && strings.Trim(string(v), "0123456789+-.eE") != "" {
			return errNumber // jsonparser's number runs to the next comma or brace, over quotes and keys
		}
		for i, p := range inputKeys {
			if string(k) == p[0] && !seen[i] { // the first of a repeated key, as EachKey
				seen[i] = true
				if err := in.set(fields, i, v, t); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return err == nil && end >= 0 && string(bytes.TrimSpace(data[end:])) == "}"
}

// errNumber stops each at a number that is not one: walk reads it.
var errNumber = errors.New("not a number")

// set stores the value of the field at inputKeys[i] (fields: in.strings()).
func (in *input) set(fields [11]*string, i int, v []byte, t jsonparser.ValueType) (err error) {
	switch {
	case i == toolInputKey:
		if t == jsonparser.Object {
			in.ToolInput = v
		}
	case t == jsonparser.String:
		*fields[i], err = jsonparser.ParseString(v)
	}
	return err
}

// walk reads the fields with EachKey, which reads what it can of malformed
// JSON and stops quietly where it breaks.
func (in *input) walk(data []byte) error {
	fields := in.strings()
	var bad error
	jsonparser.EachKey(data, func(i int, v []byte, t jsonparser.ValueType, err error) {
		if err == nil {
			err = in.set(fields, i, v, t)
		}
		if err != nil {
			bad = err
		}
	}, inputKeys...)
	return bad
}

// readObject reads stdin, which must be one JSON object of at most
// maxStdin bytes.
func readObject(r io.Reader) ([]byte, error) {
	data, err := readAll(r, maxStdin+1)
	if err != nil {
		return nil, fmt.Errorf("hooks: read stdin: %w", err)
	}
	if len(data) > maxStdin {
		return nil, fmt.Errorf("hooks: stdin over %d bytes", maxStdin)
	}
	if t := bytes.TrimSpace(data); len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return nil, fmt.Errorf("hooks: stdin: not a JSON object")
	}
	return data, nil
}

// readAll is io.ReadAll for stdin, grown in larger steps. io.ReadAll
// starts at 512 bytes and grows by copying: to read a 65 KiB Write it
// touched about 290 KiB (some 70 page faults). Here the first 16 KiB hold
// any call but an edit's, and each step is 8 times the last: the Write
// touches 16 KiB and 128 KiB. (A first buffer of 128 KiB cost every small
// call 7 page faults more.)
func readAll(r io.Reader, limit int) ([]byte, error) {
	r = io.LimitReader(r, int64(limit))
	b := make([]byte, 0, min(16<<10, limit))
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) && cap(b) < limit { // full at limit, the next read is EOF
			b = append(make([]byte, 0, min(8*cap(b), limit)), b...)
		}
	}
}

// call is one tool call in lore's vocabulary, before the prompts are added.
type call struct {
	Tool    string
	Command string
	Paths   []string // absolute or cwd-relative as the agent sent them
	// The raw tool input and an apply_patch body: the text a call adds is
	// read from them only when the manifest has content triggers for it.
	input []byte
	patch string
	// scan is the tool input's members, read once for the ledger's hash
	// and the added text (nil until the hash reads them).
	scan *inputScan
}

// inputScan reads a tool input's top-level members once.
type inputScan struct {
	obj      []byte
	ms       []inputMember
	ok, done bool
}

// members returns the members of the input; !ok when objectEach refuses it.
func (s *inputScan) members() ([]inputMember, bool) {
	if !s.done {
		s.ms, s.ok = scanMembers(s.obj)
		s.done = true
	}
	return s.ms, s.ok
}

// inputMember is one top-level key of a tool input and its value as sent.
type inputMember struct {
	key string
	v   []byte
	t   jsonparser.ValueType
}

// scanMembers reads the members of obj in one objectEach pass; !ok when
// objectEach refuses obj.
func scanMembers(obj []byte) ([]inputMember, bool) {
	var ms []inputMember
	err := objectEach(obj, func(k, v []byte, t jsonparser.ValueType, _ int) error {
		ms = append(ms, inputMember{string(k), v, t})
		return nil
	})
	return ms, err == nil
}

// maxAdded bounds the text content triggers are tried on: a file written
// whole can be megabytes, and its opening is where imports and fixtures sit.
const maxAdded = 64 << 10

// addedPaths are the tool_input keys whose string is added text, in
// order, then the edits array of MultiEdit.
var addedPaths = [...][]string{{"new_string"}, {"content"}, {"new_source"}, {"edits"}}

const editsPath = 3

// added returns the text an Edit, MultiEdit, Write or NotebookEdit call
// adds (Claude Code; Gemini's replace and write_file use the same keys):
// new_string, content, new_source and each edit's new_string, at most
// maxAdded bytes.
func (c *call) added() string {
	if len(c.input) == 0 {
		return ""
	}
	if c.scan != nil { // read for the ledger's hash already
		if ms, ok := c.scan.members(); ok {
			return addedText(addedOf(ms))
		}
	}
	return addedText(addedValues(c.input))
}

// addedText joins the added strings among vals, the values at addedPaths.
func addedText(vals [len(addedPaths)]rawValue) string {
	if s, ok := onlyAdded(vals); ok {
		return s
	}
	return joinAdded(vals)
}

// joinAdded is addedText for any number of added values.
func joinAdded(vals [len(addedPaths)]rawValue) string {
	var b strings.Builder
	add := func(v []byte, t jsonparser.ValueType) {
		s := addedBytes(v, t)
		if len(s) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.Write(s[:min(len(s), max(0, maxAdded-b.Len()))])
	}
	for _, x := range vals[:editsPath] {
		add(x.v, x.t)
	}
	if vals[editsPath].t == jsonparser.Array {
		_, _ = jsonparser.ArrayEach(vals[editsPath].v, func(e []byte, t jsonparser.ValueType, _ int, _ error) {
			if t == jsonparser.Object && b.Len() < maxAdded {
				add(stringValue(e, "new_string"))
			}
		})
	}
	return b.String()
}

// onlyAdded is addedText for a call that adds one string (a Write's
// content, an Edit's new_string), with one copy of it fewer: each fresh 64
// KiB costs 16 page faults, about 60 us on this machine. !ok: the call has
// another added value, or none.
func onlyAdded(vals [len(addedPaths)]rawValue) (text string, ok bool) {
	var one []byte
	for _, x := range vals[:editsPath] {
		if x.t == jsonparser.String {
			if one != nil {
				return "", false
			}
			one = x.v
		}
	}
	if one == nil || vals[editsPath].t == jsonparser.Array {
		return "", false
	}
	s := addedBytes(one, jsonparser.String)
	if len(s) == 0 {
		return "", true
	}
	// Every escape is longer than the byte it stands for, so a shorter s
	// is unescape's own new buffer, which nothing writes again: it can be
	// the string's bytes. An s as long is the input itself, and is copied.
	fresh := len(s) < len(one)
	s = s[:min(len(s), maxAdded)]
	if fresh {
		return unsafe.String(&s[0], len(s)), true
	}
	return string(s), true
}

// addedBytes is the text of an added value: a string's, unescaped (v
// itself when nothing is escaped); nil for anything else or a bad escape.
func addedBytes(v []byte, t jsonparser.ValueType) []byte {
	if t != jsonparser.String {
		return nil
	}
	s, err := unescape(v)
	if err != nil {
		return nil
	}
	return s
}

// rawValue is a value as jsonparser found it.
type rawValue struct {
	v []byte
	t jsonparser.ValueType
}

// addedValues finds the values at addedPaths in the tool input obj, the
// first of a repeated key as a lookup would give. One pass: a Write's
// content is tens of KiB, and each key looked up on its own skips over it
// again. objectEach (jsonparser.ObjectEach's walk) steps over each value
// once where EachKey scans a matched string twice (once to return it, once
// walking on through it); EachKey, which stops quietly where the JSON
// breaks, reads what objectEach refuses.
func addedValues(obj []byte) [len(addedPaths)]rawValue {
	if ms, ok := scanMembers(obj); ok {
		return addedOf(ms)
	}
	var vals [len(addedPaths)]rawValue
	var found [len(addedPaths)]bool
	jsonparser.EachKey(obj, func(i int, v []byte, t jsonparser.ValueType, _ error) {
		if i >= 0 && !found[i] { // -1: malformed JSON, reported with no path
			found[i], vals[i] = true, rawValue{v, t}
		}
	}, addedPaths[:]...)
	return vals
}

// addedOf picks the values at addedPaths among an input's members, the
// first of a repeated key.
func addedOf(ms []inputMember) [len(addedPaths)]rawValue {
	var vals [len(addedPaths)]rawValue
	var found [len(addedPaths)]bool
	for _, m := range ms {
		for i, p := range addedPaths {
			if m.key == p[0] && !found[i] {
				found[i], vals[i] = true, rawValue{m.v, m.t}
			}
		}
	}
	return vals
}

// stringValue is the raw value at key and its type, for added's add.
func stringValue(obj []byte, key string) ([]byte, jsonparser.ValueType) {
	v, t, _, _ := jsonparser.Get(obj, key)
	return v, t
}

// command reads a shell call's command, or the patch Codex may send as
// one. Only those can carry it: a file tool's input (a Write of tens of
// KiB) is not scanned for keys it lacks.
func (a *Agent) command(tool string, in *input) string {
	if tool != "Bash" && a.Name != "codex" && in.ToolName != "apply_patch" {
		return ""
	}
	if command := commandOf(in.ToolInput); command != "" {
		return command
	}
	return stringAt(in.ToolInput, "cmd")
}

// toolCall normalizes the agent's tool name and input (docs/design.md, Matching
// and scoring: shell tools give a command; file tools a path; Glob and Grep
// their `path` or `dir_path`; apply_patch the paths of its file headers;
// read_many_files its `include` list).
func (a *Agent) toolCall(in *input) call {
	c := call{Tool: a.Tool(in.ToolName)}
	ti := in.ToolInput
	// Read tool_input only for tools that have a target: most calls of
	// other tools need nothing from it.
	if in.ToolName != "apply_patch" && !match.HasTarget(c.Tool) {
		return c
	}
	command := a.command(c.Tool, in)
	if in.ToolName == "apply_patch" || (a.Name == "codex" && strings.HasPrefix(command, "*** Begin Patch")) {
		patch := command
		if patch == "" {
			patch = stringAt(ti, "input")
		}
		return call{Tool: "Edit", Paths: patchPaths(patch), patch: patch}
	}
	if c.Tool == "Bash" {
		c.Command = command
		return c
	}
	c.input, c.Paths = ti, pathsOf(ti)
	return c
}

// pathsOf reads a file tool's path or paths. Gemini's search and listing
// tools name their folder dir_path; read_many_files names its files in
// include (older: paths), an array.
func pathsOf(ti []byte) []string {
	for _, key := range []string{"file_path", "absolute_path", "notebook_path", "path", "dir_path"} {
		if p := stringAt(ti, key); p != "" {
			return []string{p}
		}
	}
	for _, key := range []string{"include", "paths"} {
		if ps := stringsAt(ti, key); len(ps) > 0 {
			return ps
		}
	}
	return nil
}

// stringsAt returns the strings of the array at key in obj.
func stringsAt(obj []byte, key string) []string {
	if len(obj) == 0 {
		return nil
	}
	var out []string
	_, _ = jsonparser.ArrayEach(obj, func(v []byte, t jsonparser.ValueType, _ int, _ error) {
		if t != jsonparser.String {
			return
		}
		if s, err := jsonparser.ParseString(v); err == nil && s != "" {
			out = append(out, s)
		}
	}, key)
	return out
}

// stringAt returns the string value of key in the object obj, or "".
func stringAt(obj []byte, key string) string {
	if len(obj) == 0 {
		return ""
	}
	s, err := jsonparser.GetString(obj, key)
	if err != nil {
		return ""
	}
	return s
}

// commandOf reads tool_input.command: a string, or an argv array (Codex's
// shell tool) whose strings are joined with spaces; anything else is "".
func commandOf(obj []byte) string {
	if len(obj) == 0 {
		return ""
	}
	v, t, _, err := jsonparser.Get(obj, "command")
	if err != nil {
		return ""
	}
	switch t {
	case jsonparser.String:
		s, _ := jsonparser.ParseString(v)
		return s
	case jsonparser.Array:
		return argvCommand(v)
	}
	return ""
}

// argvCommand reads an argv array; "" when it holds anything but strings.
func argvCommand(v []byte) string {
	var argv []string
	ok := true
	_, err := jsonparser.ArrayEach(v, func(e []byte, et jsonparser.ValueType, _ int, _ error) {
		s, err := jsonparser.ParseString(e)
		if et != jsonparser.String || err != nil {
			ok = false
			return
		}
		argv = append(argv, s)
	})
	if err != nil || !ok {
		return ""
	}
	// ["bash","-lc","cmd"] runs cmd: match the script, not the wrapper.
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}
