package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// holdItems is the test store with the pytest lesson marked enforce: once.
func holdItems() map[string]string {
	items := map[string]string{}
	for k, v := range testItems {
		items[k] = v
	}
	p := ".lore/lessons/pytest.md"
	items[p] = strings.Replace(items[p], "priority: high\n", "priority: high\nenforce: once\n", 1)
	return items
}

const pytestID = "01JPYTEST0000000000000000A"

// shell is a shell call as the agent sends it before the tool runs.
func shell(agent, root, session, agentID, command string) (event string, in map[string]any) {
	in = map[string]any{"session_id": session, "cwd": root, "tool_name": "Bash",
		"tool_input": map[string]any{"command": command}}
	if agentID != "" {
		in["agent_id"], in["agent_type"] = agentID, "worker"
	}
	if agent == "gemini" {
		in["tool_name"] = "run_shell_command"
		return "BeforeTool", in
	}
	return "PreToolUse", in
}

// TestHoldContracts replays recorded calls of each client against a store
// whose pytest lesson is enforce: once: the first matching call of a
// context is denied with the lesson and the proceed line, the same call
// again proceeds, a sub-agent (agent_id) is held in its own context, and
// Gemini, whose lessons otherwise come after the tool, is held at
// BeforeTool and gets nothing again at AfterTool.
func TestHoldContracts(t *testing.T) {
	root := repo(t, holdItems())
	for _, c := range [][2]string{{"hc-1", ""}, {"hc-1", "a4f2c1e"}, {"hx-1", ""}, {"hx-1", "019a7c2e-sub1"}, {"hg-1", ""}} {
		openSession(c[0], c[1]).wipe()
		t.Cleanup(func() { openSession(c[0], c[1]).wipe() })
	}
	for _, name := range []string{
		"claude-PreToolUse-1first", "claude-PreToolUse-2again", "claude-PreToolUse-3subagent", "claude-PreToolUse-4subagentagain",
		"codex-PreToolUse-1first", "codex-PreToolUse-2again", "codex-PostToolUse-3again", "codex-PreToolUse-4subagent",
		"gemini-BeforeTool-1first", "gemini-BeforeTool-2again", "gemini-AfterTool-3again",
	} {
		checkContract(t, filepath.Join("testdata", "hold", name+".json"), root)
	}
}

// TestHoldOnceThenProceed: in each client, the first matching call is
// denied with the lesson's fix and the line saying the same call will
// proceed, recorded as held (and injected: it was shown); the identical
// call again proceeds with nothing; a sub-agent is held once in its own
// context.
func TestHoldOnceThenProceed(t *testing.T) {
	root := repo(t, holdItems())
	for _, agent := range []string{"claude", "codex", "gemini"} {
		s := newSession(t)
		t.Cleanup(func() { openSession(s, "sub-1").wipe() })
		for _, who := range []string{"", "sub-1"} {
			if agent == "gemini" && who != "" {
				continue // Gemini sends no agent_id (TestGeminiSubagentContext)
			}
			ev, in := shell(agent, root, s, who, "cd app && pytest -x")
			out := hook(t, agent, ev, in)
			reason := denyReason(t, out)
			if !strings.Contains(reason, "--no-header -rN") || !strings.Contains(reason, holdLine) {
				t.Fatalf("%s %q: first call not held with the fix and the proceed line:\n%s", agent, who, out)
			}
			if strings.Contains(reason, "Blocked by lore") {
				t.Errorf("%s %q: a hold reads as a permanent block:\n%s", agent, who, reason)
			}
			if agent != "gemini" {
				r := parseRecord(t, reason)
				inj, held := r.Injected, r.Held
				if len(held) != 1 || held[0] != pytestID || len(inj) != 1 || inj[0] != pytestID {
					t.Errorf("%s %q: record injected %v held %v, want the pytest lesson in both", agent, who, inj, held)
				}
			}
			if again := hook(t, agent, ev, in); again != "{}\n" {
				t.Errorf("%s %q: the same call again = %s, want {} (it proceeds)", agent, who, again)
			}
		}
	}
}

// TestHoldRecordInGeminiLog: Gemini's record (kept out of the model's
// text) names the held item in the hook log.
func TestHoldRecordInGeminiLog(t *testing.T) {
	root := repo(t, holdItems())
	ev, in := shell("gemini", root, newSession(t), "", "pytest -x")
	if reason := denyReason(t, hook(t, "gemini", ev, in)); strings.Contains(reason, "<!--") || !strings.Contains(reason, holdLine) {
		t.Fatalf("gemini hold reason: %q", reason)
	}
	log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	want := `<!-- lore {"injected":["` + pytestID + `"],"dropped":[],"held":["` + pytestID + `"]} -->`
	if !strings.Contains(string(log), want) {
		t.Errorf("hook.log = %q, want %s", log, want)
	}
}

// TestHoldParallelCalls: of 16 parallel matching calls in one context,
// exactly one is held, in every client; the others proceed.
func TestHoldParallelCalls(t *testing.T) {
	root := repo(t, holdItems())
	for _, agent := range []string{"claude", "codex", "gemini"} {
		s := newSession(t)
		const n = 16
		outs := parallel(n, func() string {
			ev, in := shell(agent, root, s, "", "pytest -x")
			return hook(t, agent, ev, in)
		})
		held := 0
		for _, o := range outs {
			if strings.Contains(denyReason(t, o), holdLine) {
				held++
			} else if o != "{}\n" {
				t.Errorf("%s: a call that was not held printed %s", agent, o)
			}
		}
		if held != 1 {
			t.Errorf("%s: %d of %d parallel calls were held, want 1", agent, held, n)
		}
	}
}

// TestHoldYieldsToDenyAndMentions: a call a deny blocks anyway is not
// held (it could not proceed when run again): the once lesson rides in the
// deny reason as a lesson, and counts as shown. A command that names
// pytest only inside quotes is not held; Claude gets the lesson as
// context, and the hold is not used up by it.
func TestHoldYieldsToDenyAndMentions(t *testing.T) {
	root := repo(t, holdItems())
	s := newSession(t)
	ev, in := shell("claude", root, s, "", "pytest -x && git push --force origin main")
	reason := denyReason(t, hook(t, "claude", ev, in))
	if !strings.Contains(reason, "Blocked by lore: Force push") || !strings.Contains(reason, "pytest hangs") || strings.Contains(reason, holdLine) {
		t.Errorf("deny with a once lesson:\n%s", reason)
	}
	if r := parseRecord(t, reason); len(r.Held) != 0 || len(r.Injected) != 2 {
		t.Errorf("record injected %v held %v, want both injected, none held", r.Injected, r.Held)
	}
	ev, in = shell("claude", root, s, "", "pytest -x")
	if out := hook(t, "claude", ev, in); out != "{}\n" {
		t.Errorf("after the deny showed it, the once lesson held again: %s", out)
	}
	mention := `git commit -m "docs: pytest hangs without -p no:faulthandler"`
	s = newSession(t)
	ev, in = shell("claude", root, s, "", mention)
	out := hook(t, "claude", ev, in)
	if denyReason(t, out) != "" || !strings.Contains(context(t, out), "pytest hangs") {
		t.Errorf("a quoted mention: %s", out)
	}
	// The mention showed the lesson without using up the hold: it is not
	// shown for a second mention, and the context's first run of pytest
	// is still held, once.
	if out := hook(t, "claude", ev, in); out != "{}\n" {
		t.Errorf("a second mention showed the lesson again: %s", out)
	}
	ev, in = shell("claude", root, s, "", "pytest -x")
	if reason := denyReason(t, hook(t, "claude", ev, in)); !strings.Contains(reason, holdLine) {
		t.Errorf("after a mention, the first run of pytest was not held: %q", reason)
	}
	for _, cmd := range []string{"pytest -x", mention} {
		ev, in = shell("claude", root, s, "", cmd)
		if out := hook(t, "claude", ev, in); out != "{}\n" {
			t.Errorf("after the hold, %q: %s", cmd, out)
		}
	}
}

// TestHoldWithoutSessionInforms: a call with no session id cannot record
// that it held, so holding would hold every call: it injects instead.
func TestHoldWithoutSessionInforms(t *testing.T) {
	root := repo(t, holdItems())
	ev, in := shell("claude", root, "", "", "pytest -x")
	delete(in, "session_id")
	out := hook(t, "claude", ev, in)
	if denyReason(t, out) != "" || !strings.Contains(context(t, out), "pytest hangs") {
		t.Errorf("no session: %s", out)
	}
}

// TestHoldGeminiSubagent: Gemini's sub-agent (the calls between
// invoke_agent's BeforeTool and AfterTool, same session_id, no agent_id)
// is its own context: held once there although the main thread was held
// already, and the main thread is not held again afterwards.
func TestHoldGeminiSubagent(t *testing.T) {
	root := repo(t, holdItems())
	s := newSession(t)
	agent := map[string]any{"session_id": s, "cwd": root, "tool_name": "invoke_agent", "tool_input": map[string]any{"agent_name": "generalist", "prompt": "x"}}
	held := func() bool {
		ev, in := shell("gemini", root, s, "", "pytest -x")
		return strings.Contains(denyReason(t, hook(t, "gemini", ev, in)), holdLine)
	}
	if !held() || held() {
		t.Fatal("main thread: not held exactly once")
	}
	hook(t, "gemini", "BeforeTool", agent)
	if !held() {
		t.Error("sub-agent: not held in its own context")
	}
	if held() {
		t.Error("sub-agent: held twice")
	}
	hook(t, "gemini", "AfterTool", agent)
	if held() {
		t.Error("main thread after the sub-agent: held again")
	}
}
