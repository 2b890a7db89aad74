package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/buger/jsonparser"

	"github.com/lore-agents/lore/internal/inject/ledger"
)

const forceID, conftestID, releaseID = "01JFRCE000000000000000000B", "01JCNFTEST000000000000000C", "01JRECSE0000000000000000ZD"

// entries reads the ledger of root, failing on a skipped line.
func entries(t *testing.T, root string) []ledger.Entry {
	t.Helper()
	got, skipped, err := ledger.Read(root)
	if err != nil || skipped != 0 {
		t.Fatalf("ledger: %d skipped, %v", skipped, err)
	}
	return got
}

// lastEntry runs one hook call and returns the entry it appended.
func lastEntry(t *testing.T, root, agent, event string, in map[string]any) ledger.Entry {
	t.Helper()
	before := len(entries(t, root))
	hook(t, agent, event, in)
	got := entries(t, root)
	if len(got) != before+1 {
		t.Fatalf("%s %s appended %d entries, want 1", agent, event, len(got)-before)
	}
	return got[len(got)-1]
}

// sameIDs compares the id lists of an entry with want (in, held, denied,
// dropped, matched).
func sameIDs(t *testing.T, what string, e ledger.Entry, want [5][]string) {
	t.Helper()
	if got := [5][]string{e.Injected, e.Held, e.Denied, e.Dropped, e.Matched}; !reflect.DeepEqual(got, want) {
		t.Errorf("%s: injected, held, denied, dropped, matched = %q, want %q", what, got, want)
	}
}

// TestLedgerOfEachDecision: in each client, a call that matches nothing, a
// held call and its retry (the same hash), a changed call (another hash) and
// a denied call each append one pre entry naming the context, the tool and
// what the call did; no command text is kept.
func TestLedgerOfEachDecision(t *testing.T) {
	root := repo(t, holdItems())
	for _, agent := range []string{"claude", "codex", "gemini"} {
		s := newSession(t)
		call := func(command string) ledger.Entry {
			ev, in := shell(agent, root, s, "", command)
			return lastEntry(t, root, agent, ev, in)
		}
		none := call("ls -la /srv/zebra-unicorn")
		if none.Event != ledger.Pre || none.Agent != agent || none.Tool != "Bash" || none.Context != contextKey(s) ||
			none.Call != ledger.CallHash("Bash", "ls -la /srv/zebra-unicorn") {
			t.Errorf("%s: no-match entry %+v", agent, none)
		}
		sameIDs(t, agent+" no match", none, [5][]string{})
		held := call("cd app && pytest -x")
		sameIDs(t, agent+" held", held, [5][]string{nil, {pytestID}})
		again := call("cd app && pytest -x")
		sameIDs(t, agent+" retried", again, [5][]string{})
		if again.Call != held.Call {
			t.Errorf("%s: the retried call hashes %s, the held one %s", agent, again.Call, held.Call)
		}
		if changed := call("cd app && pytest -x --no-header"); changed.Call == held.Call {
			t.Errorf("%s: a changed command hashes as the held one", agent)
		}
		denied := call("git push origin main --force")
		sameIDs(t, agent+" denied", denied, [5][]string{nil, nil, {forceID}})
	}
	noCommandText(t, root, "zebra-unicorn", "pytest", "git push")
}

// noCommandText fails when the ledger holds any of the words.
func noCommandText(t *testing.T, root string, words ...string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".lore", "local", "ledger.jsonl"))
	if err != nil || len(data) == 0 {
		t.Fatalf("no ledger: %v", err)
	}
	for _, w := range words {
		if bytes.Contains(data, []byte(w)) {
			t.Errorf("the ledger holds %q:\n%s", w, data)
		}
	}
}

// TestLedgerOfLessons: a lesson shown before the tool is injected in the
// pre entry (Claude); Gemini's, shown after the tool, is matched in the pre
// entry and injected in a post entry with the same hash; an after-tool call
// that shows nothing appends nothing. A prompt that shows an item appends a
// prompt entry without the prompt's text.
func TestLedgerOfLessons(t *testing.T) {
	root := repo(t, testItems)
	edit := func(s, tool string) map[string]any {
		return map[string]any{"session_id": s, "cwd": root, "tool_name": tool,
			"tool_input": map[string]any{"file_path": root + "/tests/conftest.py", "old_string": "a", "new_string": "b"}}
	}
	pre := lastEntry(t, root, "claude", "PreToolUse", edit(newSession(t), "Edit"))
	sameIDs(t, "claude edit", pre, [5][]string{{conftestID}})

	s := newSession(t)
	pre = lastEntry(t, root, "gemini", "BeforeTool", edit(s, "replace"))
	sameIDs(t, "gemini before the edit", pre, [5][]string{nil, nil, nil, nil, {conftestID}})
	post := lastEntry(t, root, "gemini", "AfterTool", edit(s, "replace"))
	sameIDs(t, "gemini after the edit", post, [5][]string{{conftestID}})
	if post.Event != ledger.Post || post.Call != pre.Call || post.Tool != "Edit" {
		t.Errorf("post entry %+v after pre %+v", post, pre)
	}
	n := len(entries(t, root))
	hook(t, "gemini", "AfterTool", edit(s, "replace")) // shown already: nothing
	hook(t, "claude", "PostToolUse", edit(newSession(t), "Edit"))
	if got := len(entries(t, root)); got != n {
		t.Errorf("after-tool calls that showed nothing appended %d entries", got-n)
	}

	p := lastEntry(t, root, "claude", "UserPromptSubmit", map[string]any{"session_id": s, "cwd": root, "prompt": "Cut the quokka release please"})
	sameIDs(t, "prompt", p, [5][]string{{releaseID}})
	if p.Event != ledger.Prompt || p.Call != "" || p.Tool != "" {
		t.Errorf("prompt entry %+v", p)
	}
	noCommandText(t, root, "quokka", "conftest.py", "old_string")
}

// TestLedgerAtStart: SessionStart and SubagentStart append a start entry
// with the always-on items shown and those the budget left out; a
// sub-agent's names its own context. PostCompact appends a start entry.
func TestLedgerAtStart(t *testing.T) {
	root := alwaysStore(t)
	s := newSession(t)
	start := func(file, event string) ledger.Entry {
		before := len(entries(t, root))
		replay(t, "claude", event, file, root, s)
		got := entries(t, root)
		if len(got) != before+1 {
			t.Fatalf("%s appended %d entries", event, len(got)-before)
		}
		return got[len(got)-1]
	}
	always := []string{"01JA1WAYS00000000000000002", "01JA1WAYS00000000000000004", "01JA1WAYS00000000000000003", "01JA1WAYS00000000000000001"}
	left := []string{"01JA1WAYS00000000000000005"}
	e := start("claude-SessionStart-startup", "SessionStart")
	sameIDs(t, "session start", e, [5][]string{always, nil, nil, left})
	if e.Event != ledger.Start || e.Context != contextKey(s) || e.Agent != "claude" {
		t.Errorf("start entry %+v", e)
	}
	sub := start("claude-SubagentStart", "SubagentStart")
	sameIDs(t, "sub-agent start", sub, [5][]string{always, nil, nil, left})
	if sub.Context != contextKey(s+"\x00agent-1") {
		t.Errorf("the sub-agent's start names context %q, not its own", sub.Context)
	}
	compact := lastEntry(t, root, "claude", "PostCompact", map[string]any{"session_id": s, "cwd": root, "hook_event_name": "PostCompact"})
	sameIDs(t, "post compact", compact, [5][]string{})
	if compact.Event != ledger.Start || compact.Context != contextKey(s) {
		t.Errorf("post-compact entry %+v", compact)
	}
}

// TestLedgerHashOfRealRetries: the held call and its retry as each client
// sent them (testdata/hold, with their own tool_use_id and timestamp) hash
// alike; the same payload with another command does not.
func TestLedgerHashOfRealRetries(t *testing.T) {
	root := repo(t, holdItems())
	for _, c := range [][3]string{
		{"claude", "claude-PreToolUse-1first", "claude-PreToolUse-2again"},
		{"codex", "codex-PreToolUse-1first", "codex-PreToolUse-2again"},
		{"gemini", "gemini-BeforeTool-1first", "gemini-BeforeTool-2again"},
	} {
		s := newSession(t)
		first, again := payload(t, "testdata/hold/"+c[1]+".json", root, s), payload(t, "testdata/hold/"+c[2]+".json", root, s)
		if reflect.DeepEqual(first, again) {
			t.Fatalf("%s: the recorded retry is the same payload", c[0])
		}
		event := first["hook_event_name"].(string)
		held := lastEntry(t, root, c[0], event, first)
		retry := lastEntry(t, root, c[0], event, again)
		if len(held.Held) != 1 || retry.Call != held.Call {
			t.Errorf("%s: held %+v, retried %+v", c[0], held, retry)
		}
		again["tool_input"].(map[string]any)["command"] = "pytest -x tests/unit"
		if changed := lastEntry(t, root, c[0], event, again); changed.Call == held.Call {
			t.Errorf("%s: another command hashes as the held one", c[0])
		}
	}
}

// TestLedgerParallelHookCalls: 16 hook calls at once through Main each
// append one whole entry.
func TestLedgerParallelHookCalls(t *testing.T) {
	root := repo(t, testItems)
	const n = 16
	var sessions []string
	for range n {
		sessions = append(sessions, newSession(t))
	}
	var next atomic.Int32
	parallel(n, func() string {
		return hook(t, "claude", "PreToolUse", bash(root, sessions[next.Add(1)-1], "pytest -x"))
	})
	got := entries(t, root)
	if len(got) != n {
		t.Fatalf("%d entries, want %d", len(got), n)
	}
	contexts := map[string]bool{}
	for _, e := range got {
		contexts[e.Context] = true
		sameIDs(t, "parallel call", e, [5][]string{{pytestID}})
	}
	if len(contexts) != n {
		t.Errorf("%d contexts in %d entries", len(contexts), n)
	}
}

// TestLedgerFailures: no work tree, nothing written; a ledger that cannot
// be written is reported in the hook log on a tool call, on stderr at a
// session's start, and the answer is the same.
func TestLedgerFailures(t *testing.T) {
	nowhere := t.TempDir()
	hook(t, "claude", "PreToolUse", bash(nowhere, newSession(t), "pytest -x"))
	if ents, _ := os.ReadDir(nowhere); len(ents) != 0 {
		t.Errorf("a call outside any work tree wrote %v", ents)
	}

	root := repo(t, testItems)
	if err := os.WriteFile(filepath.Join(root, ".lore", "local"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(event string, in map[string]any) (out, stderr string) {
		data, _ := json.Marshal(in)
		var o, e bytes.Buffer
		Main([]string{"claude", event}, bytes.NewReader(data), &o, &e)
		return o.String(), e.String()
	}
	out, stderr := run("PreToolUse", bash(root, newSession(t), "pytest -x"))
	if !strings.Contains(out, "pytest hangs") || stderr != "" {
		t.Errorf("a tool call with a broken ledger: out %q, stderr %q", out, stderr)
	}
	if log, _ := os.ReadFile(filepath.Join(root, ".lore", "cache", "hook.log")); !strings.Contains(string(log), "ledger: ") {
		t.Errorf("hook.log lacks the ledger failure:\n%s", log)
	}
	if _, stderr = run("SessionStart", map[string]any{"session_id": newSession(t), "cwd": root, "source": "startup"}); !strings.Contains(stderr, "ledger: ") {
		t.Errorf("session start with a broken ledger: stderr %q", stderr)
	}
}

// TestLedgerHashOfRealCalls: over the labelled set's real calls of the
// three clients, a call sent again (another tool_use_id, its keys in
// another order, and a shell call reworded: another description) hashes
// alike; a shell call with another command does not; and calls with
// different inputs never share a hash.
func TestLedgerHashOfRealCalls(t *testing.T) {
	calls, _ := readRealCalls(t, filepath.Join("testdata", "realcalls"))
	byHash := map[string]string{}
	shells := 0
	for n, c := range calls {
		first, key := realEntry(t, c, c.Input, "toolu_1")
		if other, ok := byHash[first.Call]; ok && other != key {
			t.Errorf("calls.jsonl:%d: hash %s is another call's too", n+1, first.Call)
		}
		byHash[first.Call] = key
		again := reordered(t, c.Input, first.Tool == "Bash", "")
		if retry, _ := realEntry(t, c, again, "toolu_2"); retry.Call != first.Call {
			t.Errorf("calls.jsonl:%d: the same %s call again hashes %s, first %s:\n%s\n%s", n+1, c.Tool, retry.Call, first.Call, c.Input, again)
		}
		if first.Tool != "Bash" {
			continue
		}
		shells++
		if other, _ := realEntry(t, c, reordered(t, c.Input, false, " -v"), "toolu_3"); other.Call == first.Call {
			t.Errorf("calls.jsonl:%d: a changed command hashes as the first", n+1)
		}
	}
	if len(byHash) < 500 || shells < 300 {
		t.Errorf("%d distinct hashes, %d shell calls: the labelled set shrank?", len(byHash), shells)
	}
}

// realEntry is the pre entry the hook makes of a real call (its input as
// given) and the call's normalised input.
func realEntry(t *testing.T, c realCall, input []byte, useID string) (ledger.Entry, string) {
	t.Helper()
	data := fmt.Appendf(nil, `{"session_id":"s","cwd":"/repo","hook_event_name":%q,"tool_name":%q,"tool_input":%s,"tool_use_id":%q}`,
		events[c.Agent][1], c.Tool, input, useID)
	in, err := readInput(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tc := AgentNamed(c.Agent).toolCall(in)
	return *callEntry(true, &tc, in), tc.Tool + "\x00" + strings.Join(callInput(&tc, in), "\x00")
}

// reordered is a tool input with its keys in reverse order and every value
// as it was, but a description (when reword) and a command, to which
// suffix is added.
func reordered(t *testing.T, input []byte, reword bool, suffix string) []byte {
	t.Helper()
	var members []string
	err := jsonparser.ObjectEach(input, func(k, v []byte, vt jsonparser.ValueType, _ int) error {
		switch {
		case reword && string(k) == "description":
			v = []byte("run it again")
		case suffix != "" && (string(k) == "command" || string(k) == "cmd") && vt == jsonparser.String:
			v = append(slices.Clip(v), suffix...)
		}
		if vt == jsonparser.String {
			v = append(append([]byte{'"'}, v...), '"')
		}
		members = append([]string{fmt.Sprintf("%q:%s", k, v)}, members...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return []byte("{" + strings.Join(members, ",") + "}")
}
