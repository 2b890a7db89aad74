package scan

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/testrepo"
)

// oracleCounts decodes every line with encoding/json and counts what the
// skimmer must find: tool calls, tool results, non-empty assistant texts.
func oracleCounts(t *testing.T, path string) (lines, calls, results, texts int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		lines++
		var rec struct {
			Type    string `json:"type"`
			IsMeta  bool   `json:"isMeta"`
			Summary bool   `json:"isCompactSummary"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s:%d: fixture is not JSON: %v", path, lines, err)
		}
		if (rec.Type != "user" && rec.Type != "assistant") || rec.IsMeta || rec.Summary {
			continue
		}
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(rec.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch {
			case b.Type == "tool_use":
				calls++
			case b.Type == "tool_result":
				results++
			case b.Type == "text" && rec.Type == "assistant" && strings.TrimSpace(b.Text) != "":
				texts++
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return
}

// TestRealTranscripts parses every line of the real Claude Code
// transcripts in testdata/transcripts (two Claude Code versions, main
// files, subagents and compaction agents) and checks the skimmer against
// an encoding/json oracle.
func TestRealTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/transcripts/*/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	subs, _ := filepath.Glob("testdata/transcripts/*/*/subagents/*.jsonl")
	files = append(files, subs...)
	if len(files) < 9 {
		t.Fatalf("found %d fixture files", len(files))
	}
	totalCalls := 0
	for _, path := range files {
		var st Stats
		s := &session{names: map[string]string{}, stats: &st}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		lr := newLineReader(f, 0, 0, &st)
		for {
			l, ok := lr.next()
			if !ok {
				break
			}
			s.claudeLine(l, lr.line)
		}
		lr.release()
		f.Close()
		lines, calls, results, texts := oracleCounts(t, path)
		var gotCalls, gotResults, gotTexts int
		for _, e := range s.events {
			switch e.Kind {
			case ToolCall:
				gotCalls++
			case ToolResult:
				gotResults++
			case AssistantText:
				gotTexts++
			}
		}
		if st.Lines != lines || st.BadJSON != 0 || st.TooLong != 0 || st.Truncated != 0 {
			t.Errorf("%s: stats %+v, want %d lines and nothing skipped", path, st, lines)
		}
		if gotCalls != calls || gotResults != results || gotTexts != texts {
			t.Errorf("%s: calls/results/texts = %d/%d/%d, oracle %d/%d/%d", path, gotCalls, gotResults, gotTexts, calls, results, texts)
		}
		totalCalls += calls
	}
	if totalCalls < 500 {
		t.Fatalf("only %d tool calls in the fixtures", totalCalls)
	}

	// The whole scan: no #lesson block exists in these sessions, so every
	// candidate is Tier 2, and each carries evidence and a valid score.
	all, _ := Files([]string{"testdata/transcripts"})
	res, err := Scan(all, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fixtures: %+v, %d candidates", res.Stats, len(res.Candidates))
	if len(res.Candidates) == 0 {
		t.Fatal("no Tier 2 candidate in 8 MB of real sessions")
	}
	for _, c := range res.Candidates {
		if c.Tier != 2 || len(c.Evidence) == 0 || c.Hash == "" || c.Title == "" || c.Confidence < 0.4 || c.Confidence > 1 || c.Priority < 1 || c.Priority > 10 {
			t.Errorf("bad candidate %+v", c)
		}
		if strings.Contains(c.File, "acompact") {
			t.Errorf("candidate from a compaction agent: %s", c.File)
		}
	}
}

func scanDir(t *testing.T, dir string, bm *Bookmarks) (*Result, error) {
	t.Helper()
	files, err := Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return Scan(files, bm, Options{})
}

func lessonLine(session, mistake string) string {
	text := "#lesson\ntool: Bash\ntrigger: make\nmistake: " + mistake + "\nfix: make -j1\n#/lesson"
	b, _ := json.Marshal(map[string]any{"type": "assistant", "sessionId": session,
		"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}})
	return string(b) + "\n"
}

// TestBadLines: huge, truncated, invalid UTF-8, non-JSON and unknown lines
// are skipped and counted; the rest of the file is still read and memory
// stays bounded by the line cap.
func TestBadLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.jsonl")
	huge := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"` + strings.Repeat("a", 30<<20) + `"}]}}` + "\n"
	big := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"y","content":"` + strings.Repeat("b", 5<<20) + `"}]}}` + "\n"
	data := "\xef\xbb\xbf" + lessonLine("s", "first") +
		huge +
		"this is not json\n" +
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"bad utf8 \xff\xfe here"}]}}` + "\n" +
		`{"type":"brand-new-kind","payload":1}` + "\n" +
		`[1,2,3]` + "\n" +
		big +
		lessonLine("s", "after the huge line") +
		`{"type":"assistant","message":{"role":"assis` // truncated last line
	testrepo.WriteFile(t, path, data)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := Scan([]string{path}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	st := res.Stats
	if st.Lines != 8 || st.TooLong != 1 || st.BadJSON != 2 || st.Unknown != 1 || st.Truncated != 1 {
		t.Errorf("stats %+v: want 8 lines, 1 too long, 2 bad, 1 unknown, 1 truncated", st)
	}
	var mistakes []string
	for _, c := range res.Candidates {
		mistakes = append(mistakes, c.Mistake)
	}
	if strings.Join(mistakes, "|") != "first|after the huge line" {
		t.Errorf("candidates %q", mistakes)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 40<<20 {
		t.Errorf("scan allocated %d MB for a 35 MB file with a 30 MB line", grew>>20)
	}
	// The truncated line is not consumed: completing it makes it count.
	bm := res.Bookmarks.Files[key(path)]
	if want := int64(len(data) - len(`{"type":"assistant","message":{"role":"assis`)); bm.Offset != want {
		t.Fatalf("bookmark offset %d, want %d (before the truncated line)", bm.Offset, want)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprint(f, `tant","content":[{"type":"text","text":"#lesson\ntool: Bash\ntrigger: make\nmistake: completed later\nfix: x\n#/lesson"}]}}`+"\n")
	f.Close()
	again, err := Scan([]string{path}, res.Bookmarks, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Candidates) != 1 || again.Candidates[0].Mistake != "completed later" || again.Candidates[0].Line != 9 {
		t.Fatalf("after completing the line: %+v", again.Candidates)
	}
}

// TestIncremental: a re-scan reads only what was appended, keeps line
// numbers absolute, and reads a truncated or rewritten file again.
func TestIncremental(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	testrepo.WriteFile(t, path, lessonLine("s", "one")+lessonLine("s", "two"))
	r1, err := Scan([]string{path}, nil, Options{})
	if err != nil || len(r1.Candidates) != 2 {
		t.Fatalf("first scan: %v %+v", err, r1)
	}
	r2, _ := Scan([]string{path}, r1.Bookmarks, Options{})
	if r2.Stats.Files != 0 || len(r2.Candidates) != 0 {
		t.Fatalf("unchanged file re-read: %+v", r2.Stats)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(lessonLine("s", "three"))
	f.Close()
	r3, _ := Scan([]string{path}, r2.Bookmarks, Options{})
	if len(r3.Candidates) != 1 || r3.Candidates[0].Mistake != "three" || r3.Candidates[0].Line != 3 || r3.Stats.Lines != 1 {
		t.Fatalf("append: %+v %+v", r3.Stats, r3.Candidates)
	}
	// Truncated to a shorter file: read from the start.
	testrepo.WriteFile(t, path, lessonLine("s", "new"))
	r4, _ := Scan([]string{path}, r3.Bookmarks, Options{})
	if len(r4.Candidates) != 1 || r4.Candidates[0].Mistake != "new" || r4.Candidates[0].Line != 1 {
		t.Fatalf("truncated: %+v", r4.Candidates)
	}
	// Rewritten, longer, with different early bytes: read from the start.
	testrepo.WriteFile(t, path, lessonLine("s", "neu")+lessonLine("s", "more"))
	os.Chtimes(path, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	r5, _ := Scan([]string{path}, r4.Bookmarks, Options{})
	if len(r5.Candidates) != 2 || r5.Candidates[0].Mistake != "neu" {
		t.Fatalf("rewritten: %+v", r5.Candidates)
	}
	// --since leaves old files alone.
	r6, _ := Scan([]string{path}, nil, Options{Since: time.Now().Add(time.Hour)})
	if r6.Stats.Files != 0 {
		t.Fatalf("since: read %d files", r6.Stats.Files)
	}
}

// TestRescanOfSeveralFiles: of three bookmarked files, the appended one is
// read from its bookmark, the unchanged one is not read, and the removed
// one counts as an error and keeps its bookmark; with several workers or
// none. Moved says whether any bookmark moved.
func TestRescanOfSeveralFiles(t *testing.T) {
	for _, workers := range []int{1, 4} {
		dir := t.TempDir()
		var paths []string
		for _, name := range []string{"a", "b", "c"} {
			p := filepath.Join(dir, name+".jsonl")
			testrepo.WriteFile(t, p, lessonLine(name, "first in "+name))
			paths = append(paths, p)
		}
		r1, err := Scan(paths, nil, Options{Workers: workers})
		if err != nil || len(r1.Candidates) != 3 {
			t.Fatalf("first scan: %v %+v", err, r1)
		}
		f, _ := os.OpenFile(paths[0], os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(lessonLine("a", "second in a"))
		f.Close()
		os.Remove(paths[2])
		r2, err := Scan(paths, r1.Bookmarks, Options{Workers: workers})
		if err != nil || len(r2.Candidates) != 1 || r2.Candidates[0].Mistake != "second in a" {
			t.Fatalf("workers %d: re-scan: %v %+v", workers, err, r2.Candidates)
		}
		if r2.Stats.Files != 1 || r2.Stats.Errors != 1 {
			t.Errorf("workers %d: read %d files, %d errors; want 1 and 1", workers, r2.Stats.Files, r2.Stats.Errors)
		}
		for _, p := range paths[1:] {
			if r2.Bookmarks.Files[p] != r1.Bookmarks.Files[p] {
				t.Errorf("workers %d: %s: bookmark %+v, want it kept: %+v", workers, p, r2.Bookmarks.Files[p], r1.Bookmarks.Files[p])
			}
		}
		if r2.Bookmarks.Files[paths[0]] == r1.Bookmarks.Files[paths[0]] || !r1.Moved || !r2.Moved {
			t.Errorf("workers %d: the appended file's bookmark did not move (moved %v, %v)", workers, r1.Moved, r2.Moved)
		}
		if r3, _ := Scan(paths, r2.Bookmarks, Options{Workers: workers}); r3.Moved || r3.Stats.Files != 0 {
			t.Errorf("workers %d: nothing new, yet moved %v after reading %d files", workers, r3.Moved, r3.Stats.Files)
		}
	}
}

// TestGeminiIncremental: chat files are rewritten whole; only new messages
// count on a re-scan.
func TestGeminiIncremental(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chats", "session-1.json")
	msg := func(m string) string {
		b, _ := json.Marshal(map[string]any{"type": "gemini", "content": "#lesson\ntool: Bash\ntrigger: t\nmistake: " + m + "\nfix: f\n#/lesson"})
		return string(b)
	}
	testrepo.WriteFile(t, path, `{"sessionId":"g","messages":[`+msg("a")+`]}`)
	r1, _ := scanDir(t, dir, nil)
	testrepo.WriteFile(t, path, `{"sessionId":"g","messages":[`+msg("a")+","+msg("b")+`]}`)
	os.Chtimes(path, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	r2, _ := scanDir(t, dir, r1.Bookmarks)
	if len(r1.Candidates) != 1 || len(r2.Candidates) != 1 || r2.Candidates[0].Mistake != "b" || r2.Candidates[0].Line != 2 || r2.Candidates[0].Session != "g" {
		t.Fatalf("gemini: %+v then %+v", r1.Candidates, r2.Candidates)
	}
}

// TestDedupAndScores: the same lesson in two sessions is one candidate
// with both sessions, and docs/design.md, Candidate scores, gives it the
// multi-session bonuses.
func TestDedupAndScores(t *testing.T) {
	dir := t.TempDir()
	testrepo.WriteFile(t, filepath.Join(dir, "a.jsonl"), lessonLine("A", "same lesson"))
	testrepo.WriteFile(t, filepath.Join(dir, "b.jsonl"), lessonLine("B", "Same   lesson"))
	res, _ := scanDir(t, dir, nil)
	if len(res.Candidates) != 1 {
		t.Fatalf("want one candidate, got %d", len(res.Candidates))
	}
	c := res.Candidates[0]
	// self-report: 0.85 + 0.10 (2 sessions); priority 3 + 2 (sessions) + 1 (self-report).
	if c.Occurrences != 2 || strings.Join(c.Sessions, ",") != "A,B" || c.Confidence != 0.95 || c.Priority != 6 {
		t.Fatalf("got occurrences %d sessions %v confidence %v priority %d", c.Occurrences, c.Sessions, c.Confidence, c.Priority)
	}
}

// TestSecretsRedactedInCandidates: a secret in a block never reaches a
// candidate (and so never a draft or the --json output).
func TestSecretsRedactedInCandidates(t *testing.T) {
	dir := t.TempDir()
	key := "ghp_" + strings.Repeat("x", 8) + fmt.Sprint(time.Now().UnixNano()) + strings.Repeat("Q", 10)
	testrepo.WriteFile(t, filepath.Join(dir, "a.jsonl"), lessonLine("A", "pushed with "+key+" in the URL"))
	res, _ := scanDir(t, dir, nil)
	b, _ := json.Marshal(res.Candidates)
	if strings.Contains(string(b), key) || !strings.Contains(string(b), "[REDACTED:github-pat]") {
		t.Fatalf("secret not redacted: %s", b)
	}
}

// TestDefaultPaths: Claude Code's dashed project folder, Codex rollouts
// whose session ran in the repository (and only those, whatever the size
// of their session_meta line), Gemini's chat folders by projects.json,
// by .project_root marker and by the older SHA-256 name.
func TestDefaultPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("GEMINI_CLI_HOME", "")
	root := "/work/my.repo"
	day := filepath.Join(home, ".codex", "sessions", "2026", "01", "02")
	mine := filepath.Join(day, "rollout-a.jsonl")
	sub := filepath.Join(day, "rollout-b.jsonl")
	long := filepath.Join(day, "rollout-d.jsonl")
	huge := filepath.Join(day, "rollout-e.jsonl")
	other := filepath.Join(home, ".codex", "sessions", "2026", "01", "03", "rollout-c.jsonl")
	testrepo.WriteFile(t, mine, `{"type":"session_meta","payload":{"id":"a","cwd":"/work/my.repo"}}`+"\n")
	testrepo.WriteFile(t, sub, `{"type":"session_meta","payload":{"id":"b","cwd":"/work/my.repo/cmd"}}`+"\n")
	testrepo.WriteFile(t, other, `{"type":"session_meta","payload":{"id":"c","cwd":"/work/my.repo2"}}`+"\n")
	// session_meta carries the base instructions: 21.5 KB by default, far
	// more with a custom instructions file, and cwd may come after them.
	meta := func(size int) string {
		return `{"timestamp":"2026-01-02T00:00:00Z","type":"session_meta","payload":{"id":"d","instructions":"` +
			strings.Repeat("x", size) + `","cwd":"/work/my.repo"}}` + "\n" + `{"type":"turn_context","payload":{}}` + "\n"
	}
	testrepo.WriteFile(t, long, meta(300<<10))
	testrepo.WriteFile(t, huge, meta(MaxLine+1)) // over the line cap: skipped, not fatal
	gem := filepath.Join(home, ".gemini")
	testrepo.WriteFile(t, filepath.Join(gem, "projects.json"), `{"projects":{"/work/my.repo":"my-repo","/work/other":"other"}}`)
	testrepo.WriteFile(t, filepath.Join(gem, "tmp", "my-repo-1", ".project_root"), "/work/my.repo\n")
	testrepo.WriteFile(t, filepath.Join(gem, "tmp", "other", ".project_root"), "/work/other")
	got := DefaultPaths(root, home)
	sum := sha256.Sum256([]byte(root))
	want := []string{
		filepath.Join(home, ".claude", "projects", "-work-my-repo"),
		mine, sub, long,
		filepath.Join(gem, "tmp", "my-repo", "chats"),
		filepath.Join(gem, "tmp", "my-repo-1", "chats"),
		filepath.Join(gem, "tmp", hex.EncodeToString(sum[:]), "chats"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	t.Setenv("GEMINI_CLI_HOME", filepath.Join(home, "profile"))
	testrepo.WriteFile(t, filepath.Join(home, "profile", ".gemini", "projects.json"), `{"projects":{"/work/my.repo":"p"}}`)
	if got := geminiChats(root, home); got[0] != filepath.Join(home, "profile", ".gemini", "tmp", "p", "chats") {
		t.Errorf("GEMINI_CLI_HOME: %q", got)
	}
}

// TestCodexRollout0169: a rollout as Codex 0.169 writes it, with a
// session_meta line of 300 KB and the new world_state and
// token_usage_record lines: the block is found and nothing is unknown.
func TestCodexRollout0169(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout-2026-11-20T10-00-00-019a.jsonl")
	text := "#lesson\ntool: shell\ntrigger: cargo test\nmistake: cargo test ran every workspace member\nfix: cargo test -p core\n#/lesson"
	recs := []any{
		map[string]any{"timestamp": "2026-11-20T10:00:00Z", "type": "session_meta", "payload": map[string]any{
			"id": "019a", "cwd": "/r", "cli_version": "0.169.0", "instructions": strings.Repeat("You are Codex. ", 20000)}},
		map[string]any{"type": "world_state", "payload": map[string]any{"cwd": "/r"}},
		map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text}}}},
		map[string]any{"type": "event_msg", "payload": map[string]any{"type": "agent_message", "message": text}},
		map[string]any{"type": "token_usage_record", "payload": map[string]any{"input_tokens": 10}},
	}
	var b strings.Builder
	for _, r := range recs {
		data, _ := json.Marshal(r)
		b.Write(data)
		b.WriteByte('\n')
	}
	testrepo.WriteFile(t, path, b.String())
	res, err := Scan([]string{path}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 1 || res.Candidates[0].Fix != "cargo test -p core" || res.Candidates[0].Session != "019a" || res.Candidates[0].Line != 3 {
		t.Fatalf("candidates %+v", res.Candidates)
	}
	if st := res.Stats; st.Unknown != 0 || st.TooLong != 0 || st.Lines != 5 {
		t.Errorf("stats %+v", st)
	}
}

// geminiLines renders records as a Gemini CLI JSONL chat file.
func geminiLines(t *testing.T, recs ...any) string {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

func geminiLesson(id, mistake string, calls ...any) map[string]any {
	m := map[string]any{"id": id, "type": "gemini",
		"content": []any{map[string]any{"text": "#lesson\ntool: Bash\ntrigger: t\nmistake: " + mistake + "\nfix: f\n#/lesson"}}}
	if len(calls) > 0 {
		m["toolCalls"] = calls
	}
	return m
}

// TestGeminiJSONL: a message recorded again whole counts once; a message
// whose tool call is still running is read again next time; a rewind
// before the bookmark still lets the messages after it count.
func TestGeminiJSONL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chats", "session-2026-01-02T10-00-abcd1234.jsonl")
	running := map[string]any{"id": "c1", "name": "run_shell_command", "args": map[string]any{"command": "make"}, "status": "executing"}
	done := map[string]any{"id": "c1", "name": "run_shell_command", "args": map[string]any{"command": "make"}, "status": "success", "resultDisplay": "ok"}
	data := geminiLines(t,
		map[string]any{"sessionId": "abcd1234-full", "projectHash": "h", "startTime": "2026-01-02T10:00:00Z"},
		map[string]any{"id": "u1", "type": "user", "content": []any{map[string]any{"text": "<hook_context>#lesson\nmistake: injected\n#/lesson</hook_context>\nbuild it"}}},
		geminiLesson("g1", "one"),
		map[string]any{"$set": map[string]any{"lastUpdated": "x"}},
		geminiLesson("g1", "one"), // tokens counted: the same message again
		geminiLesson("g2", "two", running),
	)
	testrepo.WriteFile(t, path, data)
	r1, err := scanDir(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r1.Candidates {
		got = append(got, fmt.Sprint(c.Mistake, "@", c.Line, "x", c.Occurrences, " ", c.Session))
	}
	if strings.Join(got, ",") != "one@5x1 abcd1234-full,two@6x1 abcd1234-full" {
		t.Fatalf("first scan: %q", got)
	}
	if bm := r1.Bookmarks.Files[key(path)]; bm.Agent != AgentGemini || bm.Offset != 2 || bm.Line != 6 {
		t.Fatalf("bookmark %+v: want gemini, 2 settled messages, 6 lines", bm)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(geminiLines(t, geminiLesson("g2", "two", done), geminiLesson("g3", "three")))
	f.Close()
	r2, _ := scanDir(t, dir, r1.Bookmarks)
	got = nil
	for _, c := range r2.Candidates {
		got = append(got, c.Mistake)
	}
	// g2 was still running: read again (its block merges by hash later).
	if strings.Join(got, ",") != "two,three" {
		t.Fatalf("after appending: %q", got)
	}
	// Rewound to g2 (before the bookmark, 3 settled), then a new message.
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(geminiLines(t, map[string]any{"$rewindTo": "g2"}, geminiLesson("g4", "four")))
	f.Close()
	r3, _ := scanDir(t, dir, r2.Bookmarks)
	if len(r3.Candidates) != 1 || r3.Candidates[0].Mistake != "four" || r3.Candidates[0].Line != 10 {
		t.Fatalf("after a rewind: %+v", r3.Candidates)
	}
	r4, _ := scanDir(t, dir, r3.Bookmarks)
	if r4.Stats.Files != 0 || len(r4.Candidates) != 0 {
		t.Fatalf("unchanged file: %+v %+v", r4.Stats, r4.Candidates)
	}
	// The whole list replaced: no new candidate for messages already read.
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(geminiLines(t, map[string]any{"$set": map[string]any{"messages": []any{
		map[string]any{"id": "u1", "type": "user", "content": "build it"}, geminiLesson("g1", "one"), geminiLesson("g4", "four"),
		geminiLesson("g5", "five"),
		map[string]any{"id": "g6", "type": "gemini", "content": []any{map[string]any{"thought": true,
			"text": "#lesson\ntool: Bash\ntrigger: t\nmistake: thought part\nfix: f\n#/lesson"}}}}}}))
	f.Close()
	r5, _ := scanDir(t, dir, r4.Bookmarks)
	got = nil
	for _, c := range r5.Candidates {
		got = append(got, fmt.Sprint(c.Mistake, "@", c.Line))
	}
	if strings.Join(got, ",") != "four@10,five@11" {
		t.Fatalf("after $set.messages: %q", got)
	}
}

func TestPhrases(t *testing.T) {
	for _, c := range []struct {
		ps   phrases
		text string
		want string
	}{
		{explicitPhrases, "OK. Lesson Learned: pin the version", "lesson learned"},
		{explicitPhrases, "the lessons learnedness", ""},
		{dataLossPhrases, "it Overwrote the file", "overwr"},
		{dataLossPhrases, "undeleted", ""},
		{diagnosisPhrases, "So the Root Cause is X", "root cause"},
		{causalPhrases, "İİ because", "because"}, // offsets survive non-ASCII
	} {
		lower := lowerASCII(c.text)
		loc := c.ps.index(lower)
		got := ""
		if loc != nil {
			got = lower[loc[0]:loc[1]]
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}

// lessons-learned writes problem:/solution:; they are mistake and fix.
func TestLessonProblemSolution(t *testing.T) {
	bs := ParseBlocks("#lesson\ntool: Bash\nproblem: pip install fails in the venv\nsolution: use uv pip install\n#/lesson")
	if len(bs) != 1 {
		t.Fatalf("got %d blocks", len(bs))
	}
	c := fromBlock(bs[0])
	if c.Mistake != "pip install fails in the venv" || c.Fix != "use uv pip install" {
		t.Fatalf("mistake %q fix %q", c.Mistake, c.Fix)
	}
}

// Two process-knowledge blocks with different labels and bodies are two
// candidates, not one folded into the other.
func TestProcessKnowledgeHashCoversLabelAndBody(t *testing.T) {
	a := fromBlock(ParseBlocks("[PROCESS_KNOWLEDGE]\ntype: checklist\nlabel: Release steps\nchecklist: tag, push, announce\n[/PROCESS_KNOWLEDGE]")[0])
	b := fromBlock(ParseBlocks("[PROCESS_KNOWLEDGE]\ntype: checklist\nlabel: Migration steps\nchecklist: backup, migrate\n[/PROCESS_KNOWLEDGE]")[0])
	c := fromBlock(ParseBlocks("[PROCESS_KNOWLEDGE]\ntype: requirement\nlabel: Release steps\nnotes: sign the tag\n[/PROCESS_KNOWLEDGE]")[0])
	ha, hb, hc := a.hash(), b.hash(), c.hash()
	if ha == hb || ha == hc || hb == hc {
		t.Fatalf("hashes collide: %s %s %s", ha, hb, hc)
	}
	if ha == ContentHash(a.Tool, "", "", "") {
		t.Fatal("hash ignores the label and body")
	}
}

// The same failure on another branch is the same incident.
func TestShapeFoldsNames(t *testing.T) {
	x := shape("fatal: The current branch spotter-dov has no upstream branch.", "git push", "git push --set-upstream origin spotter-dov")
	y := shape("fatal: The current branch spotter-a0y has no upstream branch.", "git push", "git push --set-upstream origin spotter-a0y")
	if x != y {
		t.Fatalf("%q != %q", x, y)
	}
	if shape("permission denied", "ls") == shape("no such file", "ls") {
		t.Fatal("different failures share a shape")
	}
}

func TestCommandDropsHeredoc(t *testing.T) {
	got := command("git add a.go && git commit -m \"$(cat <<'EOF'\nfeat: x\n\nbody\nEOF\n)\" && git push")
	if got != "git add a.go && git commit -m … && git push" {
		t.Fatalf("got %q", got)
	}
	if got := command("grep -c x <<< \"$v\""); got != "grep -c x <<< \"$v\"" {
		t.Fatalf("here-string: %q", got)
	}
	if got := errorLine("Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.\\nRun 'mix format' to fix."); got != "Pre-commit validation failed: [FORMAT] Code is not formatted." {
		t.Fatalf("errorLine %q", got)
	}
	if got := errorLine("Exit code 6\nChecking 1 source file ...\n\n  Software Design\n┃ [D] ↘ Nested modules could be aliased"); got != "[D] ↘ Nested modules could be aliased" {
		t.Fatalf("errorLine %q", got)
	}
}

// One incident, one draft: a statement right after an error that was fixed
// is that incident's lesson, not a second candidate; paths under the
// repository and the home folder are localized.
func TestStatementFoldsIntoIncident(t *testing.T) {
	dir := t.TempDir()
	lines := `{"type":"assistant","sessionId":"r","message":{"role":"assistant","content":[{"type":"tool_use","id":"k1","name":"Bash","input":{"command":"ruff check /home/al/src/app/src"}}]}}
{"type":"user","sessionId":"r","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"k1","is_error":true,"content":"Exit code 2\nruff: unknown option --strict in /home/al/src/app/pyproject.toml"}]}}
{"type":"assistant","sessionId":"r","message":{"role":"assistant","content":[{"type":"tool_use","id":"k2","name":"Bash","input":{"command":"ruff check --isolated src"}}]}}
{"type":"user","sessionId":"r","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"k2","is_error":false,"content":"All checks passed!"}]}}
{"type":"assistant","sessionId":"r","message":{"role":"assistant","content":[{"type":"text","text":"Lesson learned: ruff reads pyproject options; use --isolated when they are stale."}]}}
`
	testrepo.WriteFile(t, filepath.Join(dir, "r.jsonl"), lines)
	files, err := Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Scan(files, nil, Options{Root: "/home/al/src/app", Home: "/home/al"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 1 {
		t.Fatalf("%d candidates, want 1: %+v", len(res.Candidates), res.Candidates)
	}
	c := res.Candidates[0]
	if c.Signal != SignalErrorFix || c.Fix != "Add --isolated: ruff check --isolated src" || !strings.Contains(c.Evidence[len(c.Evidence)-1].Text, "Lesson learned") {
		t.Fatalf("%+v", c)
	}
	if c.Trigger != "ruff check src" || strings.Contains(c.Mistake, "/home/al") || !strings.Contains(c.Mistake, "pyproject.toml") {
		t.Fatalf("not localized: trigger %q mistake %q", c.Trigger, c.Mistake)
	}
}

// TestSelfReportStartsAtMedium: a block the agent wrote (#lesson or
// [PROCESS_KNOWLEDGE]) seen once is a medium draft, whose triggers can
// reach the threshold once promoted; a block's own priority wins, low too.
func TestSelfReportStartsAtMedium(t *testing.T) {
	for text, want := range map[string]int{
		"#lesson\ntool: Bash\ntrigger: pytest\nmistake: pytest hangs\nfix: python -m pytest\n#/lesson":                     5,
		"#lesson\ntool: Bash\ntrigger: pytest\nmistake: pytest hangs\nfix: python -m pytest\npriority: low\n#/lesson":      2,
		"#lesson\ntool: Bash\ntrigger: pytest\nmistake: pytest hangs\nfix: python -m pytest\npriority: critical\n#/lesson": 9,
		"[PROCESS_KNOWLEDGE]\ntype: checklist\nlabel: Release steps\nchecklist: tag, push\n[/PROCESS_KNOWLEDGE]":           5,
	} {
		c := fromBlock(ParseBlocks(text)[0])
		c.Occurrences = 1
		c.score()
		if c.Priority != want {
			t.Errorf("priority %d, want %d for\n%s", c.Priority, want, text)
		}
	}
}
