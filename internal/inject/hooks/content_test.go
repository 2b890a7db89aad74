package hooks

import (
	"bytes"
	"strings"
	"testing"

	"github.com/buger/jsonparser"
)

// Code pain points as content lessons (docs/design.md, Matching and scoring).
var contentItems = map[string]string{
	".lore/lessons/mock-patch.md": `---
id: 01JMXCKPATCH00000000000000
kind: lesson
title: mock.patch targets the importing module
status: active
priority: high
triggers:
  paths: ['**/test_*.py']
  content: ['\bmock\.patch\(\s*["'']app\.clients\.']
---

## Fix
Patch app.handlers.fetch, where the name is looked up.
`,
	".lore/lessons/await.md": `---
id: 01JAWAFETCH000000000000000
kind: lesson
title: fetch_json is a coroutine, await it
status: active
priority: high
triggers:
  paths: ['**/*.py']
  content: ['(?m)^[ \t]*(\w+[ \t]*=[ \t]*)?[\w.]+\.fetch_json\(']
---

## Fix
Without await it returns a coroutine object and nothing runs.
`,
	".lore/lessons/dotenv.md": `---
id: 01JDXTENV00000000000000000
kind: lesson
title: load .env.local before .env
status: active
priority: high
triggers:
  tools: [Edit, Write]
  content: ['(?s)load_dotenv\(\s*["'']\.env["'']\s*\).*load_dotenv\(\s*["'']\.env\.local']
---

## Fix
load_dotenv never overrides: the file loaded first wins.
`,
}

func TestContentThroughTheHook(t *testing.T) {
	root := repo(t, contentItems)
	const (
		mockBad  = "@mock.patch(\"app.clients.fetch\")\ndef test_get(fetch):\n"
		mockGood = "@mock.patch(\"app.handlers.fetch\")\ndef test_get(fetch):\n"
		awaitBad = "async def sync(c):\n    data = c.fetch_json(url)\n"
		envBad   = "load_dotenv('.env')\nload_dotenv('.env.local')\n"
		envGood  = "load_dotenv('.env.local')\nload_dotenv('.env')\n"
	)
	edit := func(tool, file string, input map[string]any) map[string]any {
		input["file_path"] = root + "/" + file
		return map[string]any{"session_id": newSession(t), "cwd": root, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input}
	}
	patch := func(body string) map[string]any {
		return map[string]any{"session_id": newSession(t), "cwd": root, "hook_event_name": "PreToolUse",
			"tool_name": "apply_patch", "tool_input": map[string]any{"command": "*** Begin Patch\n" + body + "*** End Patch\n"}}
	}
	gemini := func(tool, file string, input map[string]any) map[string]any {
		input["file_path"] = root + "/" + file
		return map[string]any{"session_id": newSession(t), "cwd": root, "hook_event_name": "AfterTool", "tool_name": tool, "tool_input": input}
	}
	plus := func(s string) string {
		return "+" + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n+") + "\n"
	}
	for _, tc := range []struct {
		name, agent, event string
		in                 map[string]any
		want               string // a title, or "" for nothing injected
	}{
		{"claude Edit adds the mistake", "claude", "PreToolUse", edit("Edit", "tests/test_h.py", map[string]any{"old_string": "x", "new_string": mockBad}), "mock.patch targets"},
		{"claude Edit has the fix", "claude", "PreToolUse", edit("Edit", "tests/test_h.py", map[string]any{"old_string": "x", "new_string": mockGood}), ""},
		{"claude Edit removes the mistake", "claude", "PreToolUse", edit("Edit", "tests/test_h.py", map[string]any{"old_string": mockBad, "new_string": mockGood}), ""},
		{"claude MultiEdit", "claude", "PreToolUse", edit("MultiEdit", "app/sync.py", map[string]any{"edits": []any{
			map[string]any{"old_string": "a", "new_string": "import x"}, map[string]any{"old_string": "b", "new_string": awaitBad}}}), "fetch_json is a coroutine"},
		{"claude MultiEdit awaited", "claude", "PreToolUse", edit("MultiEdit", "app/sync.py", map[string]any{"edits": []any{
			map[string]any{"old_string": "b", "new_string": "    data = await c.fetch_json(url)\n"}}}), ""},
		{"claude Write", "claude", "PreToolUse", edit("Write", "app/settings.py", map[string]any{"content": envBad}), "load .env.local before .env"},
		{"claude Write fixed", "claude", "PreToolUse", edit("Write", "app/settings.py", map[string]any{"content": envGood}), ""},
		{"claude Read of the same file", "claude", "PreToolUse", edit("Read", "tests/test_h.py", map[string]any{}), ""},
		{"codex apply_patch", "codex", "PreToolUse", patch("*** Update File: tests/test_h.py\n@@\n-x\n" + plus(mockBad)), "mock.patch targets"},
		{"codex apply_patch removes it", "codex", "PreToolUse", patch("*** Update File: tests/test_h.py\n@@\n" + strings.ReplaceAll("-"+mockBad, "\n", "\n-") + "\n" + plus(mockGood)), ""},
		// Paths and content both: the mistake in a file that is not a test
		// does not borrow the test file's path.
		{"codex apply_patch, two files", "codex", "PreToolUse", patch("*** Add File: app/patching.py\n" + plus(mockBad) + "*** Update File: tests/test_h.py\n@@\n" + plus(mockGood)), ""},
		{"gemini replace", "gemini", "AfterTool", gemini("replace", "app/sync.py", map[string]any{"old_string": "a", "new_string": awaitBad}), "fetch_json is a coroutine"},
		{"gemini write_file", "gemini", "AfterTool", gemini("write_file", "app/settings.py", map[string]any{"content": envBad}), "load .env.local before .env"},
		{"gemini replace fixed", "gemini", "AfterTool", gemini("replace", "app/settings.py", map[string]any{"old_string": envBad, "new_string": envGood}), ""},
	} {
		out := hook(t, tc.agent, tc.event, tc.in)
		switch {
		case tc.want == "" && out != "{}\n":
			t.Errorf("%s: injected %s", tc.name, out)
		case tc.want != "" && !strings.Contains(context(t, out), tc.want):
			t.Errorf("%s: %s lacks %q", tc.name, out, tc.want)
		}
	}
}

func TestAddedText(t *testing.T) {
	big := strings.Repeat("x", 2*maxAdded)
	c := call{input: []byte(`{"new_string":"` + big + `","edits":[{"new_string":"late"}]}`)}
	if got := c.added(); len(got) != maxAdded {
		t.Errorf("added() is %d bytes, want the %d-byte cap", len(got), maxAdded)
	}
	c = call{input: []byte(`{"new_source":"a = f()","edits":[{"new_string":"b"},{"old_string":"c"}]}`)}
	if got := c.added(); got != "a = f()\nb" {
		t.Errorf("added() = %q", got)
	}
	got := patchAdded("*** Begin Patch\n*** Update File: a.py\n@@\n-old\n+new\n ctx\n*** Add File: b.py\n+one\n+two\n*** Delete File: c.py\n*** Update File: d.py\n*** Move to: e.py\n+moved\n*** End Patch\n")
	want := map[string]string{"a.py": "new\n", "b.py": "one\ntwo\n", "d.py": "moved\n", "e.py": "moved\n"}
	if len(got) != len(want) {
		t.Errorf("patchAdded = %q, want %q", got, want)
	}
	for p, s := range want {
		if got[p] != s {
			t.Errorf("patchAdded[%s] = %q, want %q", p, got[p], s)
		}
	}
}

// eachKeyAdded is what addedValues read before it used ObjectEach: the one
// EachKey walk it still falls back to (with
// the guard that a malformed input once lacked: EachKey reports it as
// path -1, and found[-1] panicked).
func eachKeyAdded(obj []byte) [len(addedPaths)]rawValue {
	var vals [len(addedPaths)]rawValue
	var found [len(addedPaths)]bool
	jsonparser.EachKey(obj, func(i int, v []byte, t jsonparser.ValueType, _ error) {
		if i >= 0 && !found[i] {
			found[i], vals[i] = true, rawValue{v, t}
		}
	}, addedPaths[:]...)
	return vals
}

// addedSamples are the tool inputs of the agents' editing tools: Claude
// Code's Edit, MultiEdit, Write and NotebookEdit, Gemini CLI's replace and
// write_file (Codex's apply_patch is read by patchAdded).
var addedSamples = []string{
	`{"file_path":"/r/a.py","old_string":"x","new_string":"@mock.patch(\"app.clients.fetch\")\ndef test_get(fetch):\n"}`,
	`{"file_path":"/r/a.py","edits":[{"old_string":"a","new_string":"import x"},{"old_string":"b","new_string":"async def sync(c):\n    data = c.fetch_json(url)\n"}]}`,
	`{"file_path":"/r/s.py","content":"load_dotenv('.env')\nload_dotenv('.env.local')\n"}`,
	`{"notebook_path":"/r/n.ipynb","cell_id":"c1","new_source":"a = f()\t\u00e9\\","edit_mode":"replace"}`,
	`{"file_path":"/r/a.py","instruction":"fix","old_string":"a","new_string":"b","expected_replacements":1}`,
	`{"file_path":"/r/s.py","content":""}`,
	`{"content":"a","content":"b","new_string":1,"edits":{"new_string":"x"}}`,
	`{"nested":{"content":"deep"},"list":[{"new_string":"in"}],"new_string":"top"}`,
	`{"content" "x"}`,
	`{"a":tru,"content":"x"}`,
	`{"a":1,,"content":"x"}`,
	`{"content":"x"} {"new_string":"y"}`,
	// Where objectEach steps over strings and blocks, and unescape decodes.
	`{"old_string":"\\\"","content":"a\\\\","new_string":"\"}{][\\"}`,
	`{"nested":{"a":"}","b":[{"content":"no"}]},"edits":[{"new_string":"\\\"]\n"},{"new_string":"\u00e9\t"}],"content":"\/\b\f\r"}`,
	`{"content":"bad \q escape","new_string":"cut \u12"}`, `{"content":"x\"}`, `{"edits":[{"new_string":"a"}`,
}

// The added text read in one objectEach pass is what the EachKey walk read,
// valid JSON or not, for a tool input as readInput gives it.
func FuzzAddedValues(f *testing.F) {
	for _, s := range addedSamples {
		f.Add(`{"tool_name":"Edit","tool_input":` + s + `}`)
	}
	f.Add(`{"tool_name":"Write","tool_input":` + strings.ReplaceAll(editInput(63<<10, true), "$ROOT", "/r") + `}`)
	f.Fuzz(func(t *testing.T, s string) {
		in, err := readInput(strings.NewReader(s))
		if err != nil {
			return
		}
		got, want := addedValues(in.ToolInput), eachKeyAdded(in.ToolInput)
		for i := range got {
			if got[i].t != want[i].t || !bytes.Equal(got[i].v, want[i].v) {
				t.Errorf("%s: %s is %s %q, EachKey read %s %q", in.ToolInput, addedPaths[i], got[i].t, got[i].v, want[i].t, want[i].v)
			}
		}
		// Read alone, and from the members the ledger's hash read.
		for _, c := range []call{{input: in.ToolInput}, {input: in.ToolInput, scan: &inputScan{obj: in.ToolInput}}} {
			if gotText, wantText := c.added(), joinAdded(want); gotText != wantText {
				t.Errorf("%s: added() = %q, the EachKey walk joined gave %q", in.ToolInput, gotText, wantText)
			}
		}
	})
}
