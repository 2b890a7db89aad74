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

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
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
	writeFile(t, path, data)

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
	writeFile(t, path, lessonLine("s", "one")+lessonLine("s", "two"))
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
	writeFile(t, path, lessonLine("s", "new"))
	r4, _ := Scan([]string{path}, r3.Bookmarks, Options{})
	if len(r4.Candidates) != 1 || r4.Candidates[0].Mistake != "new" || r4.Candidates[0].Line != 1 {
		t.Fatalf("truncated: %+v", r4.Candidates)
	}
	// Rewritten, longer, with different early bytes: read from the start.
	writeFile(t, path, lessonLine("s", "neu")+lessonLine("s", "more"))
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

// TestGeminiIncremental: chat files are rewritten whole; only new messages
// count on a re-scan.
func TestGeminiIncremental(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chats", "session-1.json")
	msg := func(m string) string {
		b, _ := json.Marshal(map[string]any{"type": "gemini", "content": "#lesson\ntool: Bash\ntrigger: t\nmistake: " + m + "\nfix: f\n#/lesson"})
		return string(b)
	}
	writeFile(t, path, `{"sessionId":"g","messages":[`+msg("a")+`]}`)
	r1, _ := scanDir(t, dir, nil)
	writeFile(t, path, `{"sessionId":"g","messages":[`+msg("a")+","+msg("b")+`]}`)
	os.Chtimes(path, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	r2, _ := scanDir(t, dir, r1.Bookmarks)
	if len(r1.Candidates) != 1 || len(r2.Candidates) != 1 || r2.Candidates[0].Mistake != "b" || r2.Candidates[0].Line != 2 || r2.Candidates[0].Session != "g" {
		t.Fatalf("gemini: %+v then %+v", r1.Candidates, r2.Candidates)
	}
}

// TestDedupAndScores: the same lesson in two sessions is one candidate
// with both sessions, and the seed 003 formulas give it the multi-session
// bonuses.
func TestDedupAndScores(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.jsonl"), lessonLine("A", "same lesson"))
	writeFile(t, filepath.Join(dir, "b.jsonl"), lessonLine("B", "Same   lesson"))
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
	writeFile(t, filepath.Join(dir, "a.jsonl"), lessonLine("A", "pushed with "+key+" in the URL"))
	res, _ := scanDir(t, dir, nil)
	b, _ := json.Marshal(res.Candidates)
	if strings.Contains(string(b), key) || !strings.Contains(string(b), "[REDACTED:github-pat]") {
		t.Fatalf("secret not redacted: %s", b)
	}
}

// TestDefaultPaths: Claude Code's dashed project folder, Codex rollouts
// whose session ran in the repository (and only those), Gemini's folder
// named by the SHA-256 of the root.
func TestDefaultPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	root := "/work/my.repo"
	mine := filepath.Join(home, ".codex", "sessions", "2026", "01", "02", "rollout-a.jsonl")
	sub := filepath.Join(home, ".codex", "sessions", "2026", "01", "02", "rollout-b.jsonl")
	other := filepath.Join(home, ".codex", "sessions", "2026", "01", "03", "rollout-c.jsonl")
	writeFile(t, mine, `{"type":"session_meta","payload":{"id":"a","cwd":"/work/my.repo"}}`+"\n")
	writeFile(t, sub, `{"type":"session_meta","payload":{"id":"b","cwd":"/work/my.repo/cmd"}}`+"\n")
	writeFile(t, other, `{"type":"session_meta","payload":{"id":"c","cwd":"/work/my.repo2"}}`+"\n")
	got := DefaultPaths(root, home)
	sum := sha256.Sum256([]byte(root))
	want := []string{
		filepath.Join(home, ".claude", "projects", "-work-my-repo"),
		mine, sub,
		filepath.Join(home, ".gemini", "tmp", hex.EncodeToString(sum[:]), "chats"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got  %q\nwant %q", got, want)
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
