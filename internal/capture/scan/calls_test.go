package scan

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// callsOf reads the calls of file, whole.
func callsOf(t *testing.T, file string, opt Options) []Call {
	t.Helper()
	res, err := ReadCalls([]string{file}, nil, opt)
	if err != nil || len(res.Files) != 1 {
		t.Fatalf("%s: %v %+v", file, err, res)
	}
	return res.Files[0].Calls
}

// callOn is the tool call recorded on line.
func callOn(t *testing.T, calls []Call, line int, tool string) Call {
	t.Helper()
	for _, c := range calls {
		if c.Line == line && c.Tool == tool {
			return c
		}
	}
	t.Fatalf("no %s call on line %d in %+v", tool, line, calls)
	return Call{}
}

// The outcome a person reading the transcript gives, per call, in real
// transcripts of each client. Real data has no Claude Code timeout (the
// labelled session, hand-built in the real format, has one), no Codex
// failure but an exit code (labelled rollouts), and no Gemini CLI
// failure but a status error (labelled chat); the rest is in
// TestCallOutcomesMinimal.
func TestCallOutcomesReal(t *testing.T) {
	cases := []struct {
		file         string
		line         int
		tool, failed string
		input        string // the command or path
	}{
		// Claude Code (MIT, see LICENSE-entire and LICENSE-spotter).
		{"transcripts/entire/claude-code/266b3f40-6f1d-491c-aeca-825cbb3fcbc5.jsonl", 338, "Bash", FailExit, "golangci-lint run ./... 2>&1"},      // Exit code 127
		{"transcripts/entire/claude-code/266b3f40-6f1d-491c-aeca-825cbb3fcbc5.jsonl", 353, "Read", FailError, "~/Repositories/cli/.golangci.yml"}, // File does not exist
		{"transcripts/entire/claude-code/266b3f40-6f1d-491c-aeca-825cbb3fcbc5.jsonl", 69, "Bash", "", ""},
		{"transcripts/claude-code/4d5611e5-241a-462a-8d15-5122611a9569.jsonl", 1470, "Bash", FailExit, "git push 2>&1"}, // Exit code 128
		{"transcripts/claude-code/short.jsonl", 8, "Bash", FailInterrupt, "mix phx.server 2>&1 | head -80"},             // the user rejected it
		{"transcripts/entire/claude-code/0cd9edf7-459c-4900-af40-cf2c64dea525.jsonl", 164, "Edit", FailInterrupt, ""},
		{"labelled/claude/project/s-main.jsonl", 6, "Bash", FailTimeout, "pytest -v tests/"}, // Command timed out after 2m 0.0s
		{"labelled/claude/project/s-main.jsonl", 10, "Bash", FailExit, "npm test"},
		// Codex (MIT, LICENSE-agentlogs): exec_command and apply_patch.
		{"transcripts/agentlogs/codex/crud.jsonl", 11, "Bash", "", ""},
		{"transcripts/agentlogs/codex/crud.jsonl", 24, "Edit", "", "fixtures/JOKE.md"},
		{"labelled/codex/rollout-2026-01-01T00-00-00-codex-1.jsonl", 5, "Bash", FailExit, "pnpm build"},     // metadata exit_code 1
		{"labelled/codex/rollout-2026-01-02T00-00-00-codex-2.jsonl", 3, "Bash", FailExit, "ruff check src"}, // Exit code: 2
		// Gemini CLI (MIT, LICENSE-entire): message numbers.
		{"transcripts/entire/gemini/chats/session-2026-01-15T20-51-f7633853.json", 3, "Bash", "", "ls -l docs/blue.md"},
		{"transcripts/entire/gemini/chats/session-2026-01-15T20-51-f7633853.json", 2, "Write", "", "docs/blue.md"},
		{"labelled/gemini/chats/session-2026-01-01-gem1.json", 2, "Bash", FailError, "mkdocs build --strict"},
	}
	opt := Options{Root: "/Users/philipp/dev/agentlogs", Home: "/Users/dip"}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s:%d", filepath.Base(tc.file), tc.line), func(t *testing.T) {
			c := callOn(t, callsOf(t, "testdata/"+tc.file, opt), tc.line, tc.tool)
			if c.Failed != tc.failed {
				t.Errorf("failed = %q, want %q (%+v)", c.Failed, tc.failed, c)
			}
			if in := c.Command + c.Path; tc.input != "" && in != tc.input {
				t.Errorf("input = %q, want %q", in, tc.input)
			}
		})
	}
}

// The Claude call's session, file, time and the session's start come
// from the transcript.
func TestCallFields(t *testing.T) {
	file := "testdata/transcripts/entire/claude-code/266b3f40-6f1d-491c-aeca-825cbb3fcbc5.jsonl"
	abs, _ := filepath.Abs(file)
	c := callOn(t, callsOf(t, file, Options{Home: filepath.Dir(abs)}), 338, "Bash")
	want := Call{Agent: AgentClaude, Session: "266b3f40-6f1d-491c-aeca-825cbb3fcbc5", File: "~/" + filepath.Base(file),
		Line: 338, Tool: "Bash", Command: "golangci-lint run ./... 2>&1", Failed: FailExit}
	got := c
	got.Started, got.Time = want.Started, want.Time
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("call = %+v\nwant %+v", got, want)
	}
	if c.Started.Format("15:04:05.000") != "15:09:12.436" || c.Time.Format("15:04:05.000") != "15:34:20.469" {
		t.Fatalf("started %v, time %v", c.Started, c.Time)
	}
}

// Minimal transcripts in each client's real format for the outcomes real
// data lacks: a hook's deny (lore's own, and each client's wording), a
// Codex abort and timeout, Gemini CLI's cancelled call and non-zero exit.
func TestCallOutcomesMinimal(t *testing.T) {
	record := `\n<!-- lore {\"injected\":[],\"dropped\":[],\"held\":[\"pytest-x\"]} -->`
	claude := []string{
		`{"type":"user","sessionId":"c1","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"run the tests"}}`,
		`{"type":"assistant","sessionId":"c1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"pytest"}}]}}`,
		`{"type":"user","sessionId":"c1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"Run pytest with -x: a failure otherwise hangs the suite.` + record + `"}]}}`,
		`{"type":"assistant","sessionId":"c1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"rm -rf build"}}]}}`,
		`{"type":"user","sessionId":"c1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":"PreToolUse:Bash hook error: [guard]: no rm -rf"}]}}`,
		`{"type":"assistant","sessionId":"c1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"sleep 999"}}]}}`,
		`{"type":"user","sessionId":"c1","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}`,
	}
	codex := []string{
		`{"timestamp":"2026-03-01T10:00:00Z","type":"session_meta","payload":{"id":"x1","cwd":"/r"}}`,
		`{"timestamp":"2026-03-01T10:00:01Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"pytest\"}","call_id":"a"}}`,
		`{"timestamp":"2026-03-01T10:00:09Z","type":"response_item","payload":{"type":"function_call_output","call_id":"a","output":"aborted"}}`,
		`{"timestamp":"2026-03-01T10:00:10Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"npm test\"]}","call_id":"b"}}`,
		`{"timestamp":"2026-03-01T10:00:20Z","type":"response_item","payload":{"type":"function_call_output","call_id":"b","output":"{\"output\":\"command timed out after 10000 milliseconds\\n\",\"metadata\":{\"exit_code\":124,\"duration_seconds\":10.0}}"}}`,
		`{"timestamp":"2026-03-01T10:00:21Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"pytest\"}","call_id":"c"}}`,
		`{"timestamp":"2026-03-01T10:00:22Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"Command blocked by PreToolUse hook: Run pytest with -x"}}`,
	}
	gemini := []string{
		`{"sessionId":"g1","projectHash":"h","startTime":"2026-03-01T10:00:00Z"}`,
		`{"id":"m1","timestamp":"2026-03-01T10:00:01Z","type":"gemini","content":"","toolCalls":[{"id":"s1","name":"run_shell_command","args":{"command":"npm test"},"status":"success","result":[{"functionResponse":{"id":"s1","name":"run_shell_command","response":{"output":"Command: npm test\nDirectory: (root)\nOutput: 1 failing\nError: (none)\nExit Code: 1\nSignal: (none)"}}}],"resultDisplay":"1 failing"}]}`,
		`{"id":"m2","timestamp":"2026-03-01T10:00:02Z","type":"gemini","content":"","toolCalls":[{"id":"s2","name":"run_shell_command","args":{"command":"npm run dev"},"status":"cancelled","resultDisplay":"Command was cancelled"}]}`,
		`{"id":"m3","timestamp":"2026-03-01T10:00:03Z","type":"gemini","content":"","toolCalls":[{"id":"s3","name":"run_shell_command","args":{"command":"pytest"},"status":"error","resultDisplay":"Tool execution blocked: Run pytest with -x"}]}`,
		`{"id":"m4","timestamp":"2026-03-01T10:00:04Z","type":"user","content":[{"text":"thanks"}]}`,
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string // Failed per call, in order
	}{
		{"claude.jsonl", claude, []string{FailDenied, FailDenied, FailInterrupt}},
		{"rollout-x.jsonl", codex, []string{FailInterrupt, FailTimeout, FailDenied}},
		{"session-g.jsonl", gemini, []string{FailExit, FailInterrupt, FailDenied}},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range callsOf(t, path, Options{}) {
			got = append(got, c.Failed)
			if c.Failed == FailDenied && c.Failure() {
				t.Errorf("%s: a denied call counts as a failure", tc.name)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: outcomes %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Appending to a transcript reads only the new calls (and a call whose
// result was still to come is read again with it); rewriting it reads it
// whole again.
func TestReadCallsIncremental(t *testing.T) {
	src := "testdata/transcripts/entire/claude-code/266b3f40-6f1d-491c-aeca-825cbb3fcbc5.jsonl"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	full := callsOf(t, src, Options{})
	lines := strings.SplitAfter(string(data), "\n")
	// Cut right after the golangci-lint call (line 338): its result
	// (line 339) is not written yet.
	cut := 338
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(strings.Join(lines[:cut], ""))
	first, err := ReadCalls([]string{path}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fc := first.Files[0]
	pending := fc.Calls[len(fc.Calls)-1]
	if pending.Line != 338 || pending.Failed != "" || fc.Mark.Line != 337 {
		t.Fatalf("pending call %+v, bookmark at line %d", pending, fc.Mark.Line)
	}
	marks := ParseBookmarks(nil)
	marks.Files[fc.Key] = fc.Mark
	write(string(data))
	next, err := ReadCalls([]string{path}, marks, Options{})
	if err != nil {
		t.Fatal(err)
	}
	nc := next.Files[0]
	if nc.Keep != 337 || nc.Calls[0].Line != 338 || nc.Calls[0].Failed != FailExit {
		t.Fatalf("resumed: keep %d, first call %+v", nc.Keep, nc.Calls[0])
	}
	merged := append(fc.Calls[:len(fc.Calls)-1:len(fc.Calls)-1], nc.Calls...)
	if !sameCalls(merged, full) {
		t.Fatalf("appended read gave %d calls, a whole read %d", len(merged), len(full))
	}
	marks.Files[nc.Key] = nc.Mark
	if again, _ := ReadCalls([]string{path}, marks, Options{}); len(again.Files) != 0 {
		t.Fatalf("nothing new, yet read %+v", again.Files)
	}
	write(strings.Join(lines[100:], "")) // rewritten
	re, err := ReadCalls([]string{path}, marks, Options{})
	if err != nil || re.Files[0].Keep != 0 || re.Files[0].Calls[0].Line >= 100 {
		t.Fatalf("rewritten: %v keep %d", err, re.Files[0].Keep)
	}
}

// sameCalls compares calls but for the file they were read from.
func sameCalls(a, b []Call) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.File, y.File = "", ""
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// A secret in a command or in added text never leaves ReadCalls.
func TestReadCallsRedacts(t *testing.T) {
	key := "ghp_" + strings.Repeat("x", 8) + "1234567890abcdef" + strings.Repeat("Q", 10)
	aws := "AKIAIOSFODNN7EXAMPLX"
	lines := []string{
		`{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"curl -H 'Authorization: token ` + key + `' https://api.github.com"}}]}}`,
		`{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Write","input":{"file_path":"/r/.env","content":"AWS_ACCESS_KEY_ID=` + aws + `\n"}}]}}`,
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := callsOf(t, path, Options{Root: "/r"})
	if len(calls) != 2 || calls[1].Path != ".env" {
		t.Fatalf("calls %+v", calls)
	}
	for _, c := range calls {
		if text := fmt.Sprintf("%+v", c); strings.Contains(text, key) || strings.Contains(text, aws) || !strings.Contains(text, "[REDACTED:") {
			t.Fatalf("secret kept: %s", text)
		}
	}
}

// The pair (testdata/pair/README.md): pytest without -x times out twice
// in the first session; in the second, every pytest call passes.
func TestPairCalls(t *testing.T) {
	files, err := Files([]string{"testdata/pair"})
	if err != nil || len(files) != 2 {
		t.Fatalf("files %v %v", files, err)
	}
	res, err := ReadCalls(files, nil, Options{Root: "/home/user/proj"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		for _, c := range f.Calls {
			got = append(got, fmt.Sprintf("%s:%d %s %q %s %v", c.Session[:8], c.Line, c.Started.Format("01-02"), c.Command, c.Failed, c.Failure()))
		}
	}
	want := []string{
		`a1e0c2d4:2 03-02 "pytest tests/" timeout true`,
		`a1e0c2d4:5 03-02 "pytest tests/ -q" timeout true`,
		`a1e0c2d4:7 03-02 "pytest -x tests/test_dates.py" exit true`,
		`a1e0c2d4:10 03-02 "pytest -x tests/"  false`,
		`b2f1d3e5:2 03-09 "pytest -x tests/test_weeks.py"  false`,
		`b2f1d3e5:4 03-09 "pytest -x tests/"  false`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pair calls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzCallLine feeds arbitrary lines to the three readers in calls mode:
// nothing may panic, every call has a line, and what it keeps is valid
// UTF-8 within the cap.
func FuzzCallLine(f *testing.F) {
	f.Add([]byte(`{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"MultiEdit","input":{"file_path":"/r/x","edits":[{"new_string":"y"}]}}]}}`))
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","is_error":true,"content":"Exit code 1"}]}}`))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch","call_id":"c"}}`))
	f.Add([]byte(`{"id":"m","type":"gemini","toolCalls":[{"id":"c","name":"run_shell_command","args":{"command":"x"},"status":"success","result":[{"functionResponse":{"response":{"output":"Exit Code: 3"}}}]}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var st Stats
		log := newCallLog(&Options{Root: "/r", Home: "/h"}, Bookmark{}, false)
		s := &session{names: map[string]string{}, stats: &st, log: log}
		fuzzlimit.Run(t, func() {
			s.claudeLine(line, 1)
			s.codexLine(line, 2)
			s.geminiJSONL(bytes.NewReader(line), 0, 0)
			_, _ = log.holdBack(int64(len(line)), 3)
		})
		for _, c := range log.calls {
			if c.Line < 1 || len(c.Command) > CallTextCap+len("…") || len(c.Content) > CallTextCap+len("…") {
				t.Fatalf("call %+v", c)
			}
			if !utf8.ValidString(c.Command + c.Content + c.Path) {
				t.Fatalf("invalid UTF-8 in %+v", c)
			}
		}
	})
}

// A call reaches the matcher as the hook would send it: one call per
// patched file, no path outside the repository.
func TestMatchCalls(t *testing.T) {
	patch := Call{Tool: "Edit", Path: "a.py", Paths: []string{"a.py", "~/b.py", "/etc/c", "../d"}, Content: "x = 1\n"}
	got := patch.MatchCalls()
	if len(got) != 4 || got[0].Path != "a.py" || got[1].Path != "" || got[2].Path != "" || got[3].Path != "" || got[0].Content != "x = 1\n" || got[0].Tool != "Edit" {
		t.Fatalf("patch: %+v", got)
	}
	bash := Call{Tool: "Bash", Command: "pytest"}.MatchCalls()
	if len(bash) != 1 || bash[0].Command != "pytest" || bash[0].Path != "" {
		t.Fatalf("bash: %+v", bash)
	}
}

// Codex's unified exec: a command still running after its first output
// takes the outcome of the write_stdin poll that sees it end, and until
// then keeps the bookmark before it. Minimal rollout in the output
// format of Codex 0.89 (testdata/transcripts/agentlogs/codex/crud.jsonl).
func TestCodexRunningCommand(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-03-01T10:00:00Z","type":"session_meta","payload":{"id":"x2","cwd":"/r"}}`,
		`{"timestamp":"2026-03-01T10:00:01Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cargo test\",\"yield_time_ms\":10000}","call_id":"e"}}`,
		`{"timestamp":"2026-03-01T10:00:11Z","type":"response_item","payload":{"type":"function_call_output","call_id":"e","output":"Chunk ID: 1a\nWall time: 10.0012 seconds\nProcess running with session ID 42\nOriginal token count: 3\nOutput:\nCompiling\n"}}`,
		`{"timestamp":"2026-03-01T10:00:12Z","type":"response_item","payload":{"type":"function_call","name":"write_stdin","arguments":"{\"session_id\":42,\"chars\":\"\"}","call_id":"w1"}}`,
		`{"timestamp":"2026-03-01T10:00:42Z","type":"response_item","payload":{"type":"function_call_output","call_id":"w1","output":"Chunk ID: 2b\nWall time: 30.0020 seconds\nProcess running with session ID 42\nOriginal token count: 4\nOutput:\nRunning 12 tests\n"}}`,
		`{"timestamp":"2026-03-01T10:00:43Z","type":"response_item","payload":{"type":"function_call","name":"write_stdin","arguments":"{\"session_id\":42,\"chars\":\"\"}","call_id":"w2"}}`,
		`{"timestamp":"2026-03-01T10:00:50Z","type":"response_item","payload":{"type":"function_call_output","call_id":"w2","output":"Chunk ID: 3c\nWall time: 7.0100 seconds\nProcess exited with code 101\nOriginal token count: 9\nOutput:\ntest result: FAILED. 11 passed; 1 failed\n"}}`,
	}
	path := filepath.Join(t.TempDir(), "rollout-y.jsonl")
	write := func(n int) {
		if err := os.WriteFile(path, []byte(strings.Join(lines[:n], "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(5)
	first, err := ReadCalls([]string{path}, nil, Options{})
	if err != nil || first.Files[0].Mark.Line != 1 {
		t.Fatalf("running: %v, bookmark %+v", err, first.Files[0].Mark)
	}
	marks := ParseBookmarks(nil)
	marks.Files[first.Files[0].Key] = first.Files[0].Mark
	write(len(lines))
	next, err := ReadCalls([]string{path}, marks, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range next.Files[0].Calls {
		got = append(got, fmt.Sprintf("%d %s %s %s", c.Line, c.Tool, c.Command, c.Failed))
	}
	want := []string{"2 Bash cargo test exit", "4 write_stdin  ", "6 write_stdin  "}
	if next.Files[0].Keep != 1 || !reflect.DeepEqual(got, want) {
		t.Fatalf("keep %d, calls %q, want %q", next.Files[0].Keep, got, want)
	}
}
