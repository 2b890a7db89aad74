package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

// server runs Serve over pipes, as lore mcp runs it over stdio; stdin
// closes the server's input, done reports Serve's return.
type server struct {
	stdin  *io.PipeWriter
	stdout *io.PipeReader
	done   chan error
}

func start(t *testing.T, s *gitstore.Store) *server {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	sv := &server{stdin: inW, stdout: outR, done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), s, inR, outW)
		outW.Close()
		sv.done <- err
	}()
	t.Cleanup(func() { inW.Close() })
	return sv
}

// connect is the SDK's own client on a server.
func connect(t *testing.T, s *gitstore.Store) *mcp.ClientSession {
	t.Helper()
	sv := start(t, s)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: sv.stdout, Writer: sv.stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured result into out; it
// returns the tool error's text ("" when the call succeeded).
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return res.Content[0].(*mcp.TextContent).Text
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: %v in %s", tool, err, data)
	}
	return ""
}

// store is a repository with one active lesson on go test.
func store(t *testing.T) *gitstore.Store {
	t.Helper()
	s := testrepo.NewStore(t)
	add(t, s, "Run go test with -count=1", `^go test`, "cached test results hid a failure", "pass -count=1")
	return s
}

func add(t *testing.T, s *gitstore.Store, title, command, mistake, fix string) app.Added {
	t.Helper()
	a, err := app.Add(s, app.AddOptions{Spec: markdown.Spec{Kind: "lesson", Title: title, Priority: "high",
		Triggers: markdown.Triggers{Tools: []string{"Bash"}, Commands: []string{command}}},
		Sections: map[string]string{"Mistake": mistake, "Fix": fix}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestTools(t *testing.T) {
	s := store(t)
	cs := connect(t, s)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "lore_check lore_record lore_search lore_show" {
		t.Errorf("tools: %s", got)
	}

	var chk CheckOut
	if e := call(t, cs, "lore_check", map[string]any{"tool": "Bash", "command": "go test ./..."}, &chk); e != "" {
		t.Fatal(e)
	}
	if len(chk.Items) != 1 || !strings.Contains(chk.Items[0].Text, "pass -count=1") || len(chk.Items[0].Reasons) == 0 {
		t.Errorf("lore_check go test: %+v", chk)
	}
	if call(t, cs, "lore_check", map[string]any{"tool": "Bash", "command": "ls"}, &chk); len(chk.Items) != 0 {
		t.Errorf("lore_check ls delivered %+v", chk.Items)
	}

	var found SearchOut
	if e := call(t, cs, "lore_search", map[string]any{"query": "cached test"}, &found); e != "" {
		t.Fatal(e)
	}
	if len(found.Items) != 1 || found.Items[0].Title != "Run go test with -count=1" {
		t.Fatalf("lore_search: %+v", found)
	}

	var shown ShowOut
	if e := call(t, cs, "lore_show", map[string]any{"id": found.Items[0].ID}, &shown); e != "" {
		t.Fatal(e)
	}
	if shown.Path != found.Items[0].Path || !strings.Contains(shown.Body, "## Fix") {
		t.Errorf("lore_show: %+v", shown)
	}
	if e := call(t, cs, "lore_show", map[string]any{"id": "no-such-item"}, &shown); !strings.Contains(e, "no-such-item") {
		t.Errorf("lore_show of a missing item: %q", e)
	}
}

func TestRecord(t *testing.T) {
	s := store(t)
	cs := connect(t, s)
	args := map[string]any{"title": "npm ci needs the lockfile", "mistake": "npm ci failed: no package-lock.json",
		"fix": "commit package-lock.json; token ghp_" + strings.Repeat("a1B2", 9), "tool": "Bash", "trigger": "npm ci",
		"tags": []string{"lang:js"}, "priority": 6}
	var rec RecordOut
	if e := call(t, cs, "lore_record", args, &rec); e != "" {
		t.Fatal(e)
	}
	if rec.Known || rec.Status != "draft" || !strings.HasPrefix(rec.Path, ".lore/lessons/") {
		t.Fatalf("lore_record: %+v", rec)
	}
	data, err := os.ReadFile(filepath.Join(s.Root, rec.Path))
	if err != nil {
		t.Fatal(err)
	}
	draft := string(data)
	for _, want := range []string{"status: draft", "npm ci failed", "lang:js"} {
		if !strings.Contains(draft, want) {
			t.Errorf("draft lacks %q:\n%s", want, draft)
		}
	}
	if strings.Contains(draft, "ZnT0jh2V") {
		t.Errorf("the token was not redacted:\n%s", draft)
	}
	// The same lesson again is known: nothing more is written.
	var again RecordOut
	call(t, cs, "lore_record", args, &again)
	if !again.Known || again.Path != "" {
		t.Errorf("second lore_record: %+v", again)
	}
	entries, _ := os.ReadDir(filepath.Join(s.Root, ".lore", "lessons"))
	if len(entries) != 2 {
		t.Errorf("%d files in lessons, want the lesson and one draft", len(entries))
	}
	// A draft is not delivered: lore_record never makes an active item.
	var chk CheckOut
	call(t, cs, "lore_check", map[string]any{"tool": "Bash", "command": "npm ci"}, &chk)
	if len(chk.Items) != 0 {
		t.Errorf("a draft was delivered: %+v", chk.Items)
	}
}

func TestBadInput(t *testing.T) {
	cs := connect(t, store(t))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"lore_check", map[string]any{"command": "go test"}, "tool"},
		{"lore_search", map[string]any{}, "query"},
		{"lore_record", map[string]any{"title": "t", "mistake": "", "fix": ""}, "mistake or a fix"},
		{"lore_record", map[string]any{"title": "t", "mistake": "m", "fix": "f", "priority": 11}, "priority"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		msg := fmt.Sprint(err)
		if err == nil && res.IsError {
			msg = res.Content[0].(*mcp.TextContent).Text
		} else if err == nil {
			msg = "no error"
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: %s, want an error naming %q", c.tool, c.args, msg, c.want)
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lore_nope"}); err == nil || !strings.Contains(err.Error(), "lore_nope") {
		t.Errorf("unknown tool: %v", err)
	}
	// The session still serves.
	var found SearchOut
	if e := call(t, cs, "lore_search", map[string]any{"query": "go"}, &found); e != "" || len(found.Items) != 1 {
		t.Errorf("after bad input: %q %+v", e, found)
	}
}

// A line that is not JSON, or JSON that is not a message, gets its
// JSON-RPC error and the server keeps serving; it returns when stdin
// closes, after answering every request it read.
func TestRawLines(t *testing.T) {
	sv := start(t, store(t))
	in := strings.Join([]string{
		`not json`,
		`{"id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lore_check","arguments":{"tool":"Bash","command":"go test ./x"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call"`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	}, "\n") + "\n"
	go func() {
		io.WriteString(sv.stdin, in)
		sv.stdin.Close()
	}()
	byID := map[string]map[string]any{}
	var nulls []float64
	sc := bufio.NewScanner(sv.stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON out: %s", sc.Text())
		}
		if m["id"] == nil {
			nulls = append(nulls, m["error"].(map[string]any)["code"].(float64))
			continue
		}
		byID[fmt.Sprint(m["id"])] = m
	}
	if err := <-sv.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if fmt.Sprint(nulls) != "[-32700 -32600 -32700]" {
		t.Errorf("errors for the bad lines: %v, want parse, invalid request, parse", nulls)
	}
	for _, id := range []string{"1", "2", "4"} {
		if byID[id]["result"] == nil {
			t.Errorf("request %s: %v", id, byID[id])
		}
	}
	if !strings.Contains(fmt.Sprint(byID["2"]), "pass -count=1") {
		t.Errorf("lore_check over raw lines: %v", byID["2"])
	}
}

// Two clients at once on one store: each records its lessons, and the
// same lesson recorded by both is one draft.
func TestTwoClients(t *testing.T) {
	s := store(t)
	clients := []*mcp.ClientSession{connect(t, s), connect(t, s)}
	var wg sync.WaitGroup
	results := make([][]RecordOut, 2)
	for i, cs := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, l := range []string{"own lesson of " + []string{"alpha", "beta"}[i], "shared lesson"} {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lore_record",
					Arguments: map[string]any{"title": l, "mistake": l + " went wrong", "fix": l + " fixed"}})
				if err != nil || res.IsError {
					t.Errorf("client %d: %v %v", i, err, res)
					return
				}
				var r RecordOut
				data, _ := json.Marshal(res.StructuredContent)
				json.Unmarshal(data, &r)
				results[i] = append(results[i], r)
			}
		}()
	}
	wg.Wait()
	drafts, err := os.ReadDir(filepath.Join(s.Root, ".lore", "lessons"))
	if err != nil {
		t.Fatal(err)
	}
	// The active lesson, two own drafts, one shared draft.
	if len(drafts) != 4 {
		t.Errorf("%d files in lessons, want 4: %v", len(drafts), results)
	}
	known := 0
	for _, rs := range results {
		for _, r := range rs {
			if r.Known {
				known++
			}
		}
	}
	if known != 1 {
		t.Errorf("%d calls found the shared lesson known, want 1: %v", known, results)
	}
}

// The store changes while the server runs: the next check answers from
// the rebuilt manifest.
func TestStoreChanged(t *testing.T) {
	s := store(t)
	cs := connect(t, s)
	var chk CheckOut
	call(t, cs, "lore_check", map[string]any{"tool": "Bash", "command": "make release"}, &chk)
	if len(chk.Items) != 0 {
		t.Fatalf("before: %+v", chk.Items)
	}
	add(t, s, "Tag before make release", `^make release`, "the release had no tag", "git tag first")
	call(t, cs, "lore_check", map[string]any{"tool": "Bash", "command": "make release"}, &chk)
	if len(chk.Items) != 1 || chk.Items[0].Title != "Tag before make release" {
		t.Errorf("after the store changed: %+v", chk.Items)
	}
}

// A call that is never answered (one the client cancelled) does not keep
// the server from exiting when stdin closes.
func TestDrainBounded(t *testing.T) {
	defer func(d time.Duration) { drainWait = d }(drainWait)
	drainWait = time.Millisecond
	l := newLockedWriter(io.Discard)
	l.passed(1)
	done := make(chan struct{})
	go func() { l.drain(); close(done) }()
	<-done // before the bound, drain waited for an answer forever
	if l.answers != 0 {
		t.Errorf("answers %d", l.answers)
	}
}
