package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// stdlibInput decodes the same fields with encoding/json: the oracle for
// readInput, which uses jsonparser to keep reflection off the hook path.
func stdlibInput(data []byte) (*input, error) {
	var v struct {
		SessionID       string          `json:"session_id"`
		TranscriptPath  string          `json:"transcript_path"`
		Cwd             string          `json:"cwd"`
		HookEventName   string          `json:"hook_event_name"`
		Source          string          `json:"source"`
		Trigger         string          `json:"trigger"`
		Prompt          string          `json:"prompt"`
		ToolName        string          `json:"tool_name"`
		ToolInput       json.RawMessage `json:"tool_input"`
		AgentID         string          `json:"agent_id"`
		AgentTranscript string          `json:"agent_transcript_path"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	in := &input{v.SessionID, v.TranscriptPath, v.Cwd, v.HookEventName, v.Source, v.Trigger, v.Prompt, v.ToolName, nil, v.AgentID, v.AgentTranscript}
	if t := bytes.TrimSpace(v.ToolInput); len(t) > 0 && t[0] == '{' {
		in.ToolInput = t
	}
	return in, nil
}

func sameInput(t *testing.T, data []byte) {
	t.Helper()
	// encoding/json also takes "Tool_Name" for tool_name, the last of two
	// equal keys, and invalid UTF-8 (as U+FFFD); agents send valid JSON with
	// each key once, exactly. Compare only such input.
	if t := bytes.TrimSpace(data); !utf8.Valid(data) || len(t) == 0 || t[0] != '{' {
		return
	}
	lower := bytes.ToLower(data)
	for _, k := range append(inputKeys, []string{"command"}, []string{"file_path"}) {
		q := []byte(`"` + k[0] + `"`)
		if bytes.Count(lower, q) != bytes.Count(data, q) || bytes.Count(data, q) > 1 {
			return
		}
	}
	want, err := stdlibInput(data)
	if err != nil {
		return // not the agent's JSON; readInput may refuse it or read what it can
	}
	got, err := readInput(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("readInput(%q): %v, encoding/json reads it", data, err)
	}
	if got.SessionID != want.SessionID || got.TranscriptPath != want.TranscriptPath || got.Cwd != want.Cwd ||
		got.HookEventName != want.HookEventName || got.Source != want.Source || got.Trigger != want.Trigger ||
		got.Prompt != want.Prompt || got.ToolName != want.ToolName ||
		got.AgentID != want.AgentID || got.AgentTranscriptPath != want.AgentTranscriptPath || !bytes.Equal(bytes.TrimSpace(got.ToolInput), want.ToolInput) {
		t.Fatalf("readInput(%q)\n got  %+v\n want %+v", data, got, want)
	}
	var ti struct {
		Command json.RawMessage `json:"command"`
		Path    string          `json:"file_path"`
	}
	if len(want.ToolInput) > 0 && json.Unmarshal(want.ToolInput, &ti) == nil {
		var s string
		if json.Unmarshal(ti.Command, &s) == nil && commandOf(got.ToolInput) != s {
			t.Fatalf("command of %q = %q, want %q", data, commandOf(got.ToolInput), s)
		}
		if p := stringAt(got.ToolInput, "file_path"); p != ti.Path {
			t.Fatalf("file_path of %q = %q, want %q", data, p, ti.Path)
		}
	}
}

var inputSamples = []string{
	`{"session_id":"s","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd app && pytest -x"}}`,
	`{"session_id":"s\u00e9\ud83d\ude00","prompt":"line\nnext \"quoted\" \\ back","tool_name":"Edit","tool_input":{"file_path":"/r/a b/\u00fc.py","old_string":"x"}}`,
	`{"tool_name":"shell","tool_input":{"command":["bash","-lc","git push --force"]}}`,
	`{"session_id":"s","agent_id":"a1","agent_type":"Explore","agent_transcript_path":"/t/subagents/agent-a1.jsonl"}`,
	` { "tool_input" : { "nested" : {"command":"no"} , "command" : "yes" } , "tool_name" : "Bash" } `,
	`{"tool_name":"Bash","tool_input":"not an object"}`,
	`{"session_id":null,"tool_name":7,"tool_input":null}`,
}

func TestReadInputAgreesWithEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "contracts", "*.json"))
	if len(files) == 0 {
		t.Fatal("no recorded contracts")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// A contract file records stdin under "stdin" (see contract_test.go).
		var c struct {
			Stdin json.RawMessage `json:"stdin"`
		}
		if json.Unmarshal(data, &c) == nil && len(c.Stdin) > 0 {
			data = c.Stdin
		}
		sameInput(t, data)
	}
	for _, s := range inputSamples {
		sameInput(t, []byte(s))
	}
	if got := commandOf([]byte(`{"command":["bash","-lc","git push --force"]}`)); got != "git push --force" {
		t.Errorf("argv command = %q", got)
	}
	for _, bad := range []string{"", "null", "[]", `"x"`, "{", `{"a":`} {
		if in, err := readInput(strings.NewReader(bad)); err == nil && in.ToolName != "" {
			t.Errorf("readInput(%q) = %+v", bad, in)
		}
	}
}

// FuzzReadInput: whatever encoding/json reads, readInput reads the same.
func FuzzReadInput(f *testing.F) {
	for _, s := range inputSamples {
		f.Add(s)
	}
	f.Add(`{"tool_name":"apply_patch","tool_input":{"input":"*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n"}}`)
	f.Fuzz(func(t *testing.T, s string) {
		// Every input, not only the JSON sameInput compares, is read in time.
		fuzzlimit.Run(t, func() {
			if in, err := readInput(strings.NewReader(s)); err == nil {
				for _, a := range Agents {
					a.toolCall(in)
				}
			}
			patchPaths(s)
		})
		sameInput(t, []byte(s))
	})
}

// FuzzEachReadsAsWalk: where the one objectEach pass reads stdin, the EachKey
// walk it replaced reads the same fields without error.
func FuzzEachReadsAsWalk(f *testing.F) {
	for _, s := range inputSamples {
		f.Add(s)
	}
	for _, s := range []string{`{"a":1} {"session_id":"x"}`, `{"a":["session_id":"x"],"cwd":"/r"}`, `{"cwd":"/a","cwd":"/b","tool_input":1,"tool_input":{}}`,
		`{"prompt":"\ud800x","cwd":"\q"}`, `{"tool_name":"Write","tool_input":{"content":"a\"b\\\n"},"x":tru}`, `{"tool_name":"Edit","tool_input":{"new_string":"x"} ,}`, ` {"se\u0073sion_id":"s"} `,
		// Where objectEach steps over strings and blocks (jsonscan.go).
		`{"cwd":"\\\"","prompt":"\\\\","tool_input":{"a":"}\"{","b":["]",{"c":"\\"}]},"tool_name":"Bash"}`,
		`{"tool_input":{"a":[}],"tool_name":"x"},"cwd":"/r"}`, `{"tool_name":"Write","tool_input":{"content":"x\"}`, `{"cwd":"\u002fr\ud83d\ude00"}`} {
		f.Add(s)
	}
	f.Add(benchWriteInput())
	f.Fuzz(func(t *testing.T, s string) {
		data, err := readObject(strings.NewReader(s))
		if err != nil {
			return
		}
		var got, want input
		if !got.each(data) {
			return
		}
		if err := want.walk(data); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: objectEach read %+v, the EachKey walk %+v (%v)", s, got, want, err)
		}
	})
}

// TestReadAllStopsAtItsLimit: stdin is read to the limit and no further,
// in a buffer never larger than the limit.
func TestReadAllStopsAtItsLimit(t *testing.T) {
	for _, n := range []int{0, 1, 16 << 10, 16<<10 + 1, 200 << 10} {
		data, err := readAll(strings.NewReader(strings.Repeat("x", n)), 100<<10)
		if want := min(n, 100<<10); err != nil || len(data) != want || cap(data) > 100<<10 {
			t.Errorf("%d bytes: read %d (cap %d), %v; want %d", n, len(data), cap(data), err, want)
		}
	}
}
