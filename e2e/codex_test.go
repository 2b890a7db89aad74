//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// codexClient drives one installed Codex CLI with `codex exec` (CLIENTS.md:
// a custom model provider in a throwaway CODEX_HOME/config.toml, the
// project trusted, hooks run without the trust prompt for the run).
type codexClient struct {
	bin, version string
	w            *world
	srv          *standIn
	home         string // CODEX_HOME
}

const codexTimeout = 90 * time.Second

func newCodex(t *testing.T, cb clientBin, w *world, srv *standIn, extraConfig string) *codexClient {
	c := &codexClient{bin: cb.Path, version: cb.Version, w: w, srv: srv, home: filepath.Join(w.home, ".codex")}
	if err := os.MkdirAll(c.home, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`model = "e2e-model"
model_provider = "standin"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
%s
[model_providers.standin]
name = "stand-in"
base_url = "%s/v1"
wire_api = "responses"
env_key = "E2E_STANDIN_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

[projects.%q]
trust_level = "trusted"
`, extraConfig, srv.URL(), w.repo)
	if err := os.WriteFile(filepath.Join(c.home, "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

// exec runs `codex exec` and returns the thread id it reports.
func (c *codexClient) exec(args ...string) string {
	c.w.t.Helper()
	env := []string{"CODEX_HOME=" + c.home, "E2E_STANDIN_KEY=sk-e2e-dummy", "RUST_LOG=warn"}
	base := []string{"--json", "--skip-git-repo-check", "--dangerously-bypass-hook-trust"}
	var full []string
	if len(args) > 0 && args[0] == "resume" {
		full = append(append([]string{"exec", "resume"}, base...), args[1:]...)
	} else {
		full = append(append([]string{"exec"}, base...), args...)
	}
	out := c.w.client("codex", codexTimeout, env, c.bin, full...)
	if m := regexp.MustCompile(`"thread_id":"([^"]+)"`).FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

// setupCodex installs lore for Codex as a user would.
func setupCodex(w *world) {
	w.t.Helper()
	w.setupRepo()
	if out, err := w.try("lore", "init", "--agent", "codex"); err != nil {
		w.t.Fatalf("lore init --agent codex: %v\n%s", err, out)
	}
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lore: codex hooks")
}

type rstep struct {
	c   *rconv
	tag string
	n   int
}

func codexSteps(s *standIn, sc script) []rstep {
	var out []rstep
	for _, r := range s.requests() {
		c, ok := parseResponses(r)
		if !ok || len(c.body.Tools) == 0 || isCodexCompaction(c) {
			continue
		}
		tag, n, _ := sc.step(c.msgs())
		out = append(out, rstep{c, tag, n})
	}
	return out
}

func rat(t *testing.T, steps []rstep, tag string, n int) *rconv {
	t.Helper()
	for _, s := range steps {
		if s.tag == tag && s.n == n {
			return s.c
		}
	}
	t.Fatalf("the model never received the request for step %d of %q (%d requests)", n, tag, len(steps))
	return nil
}

// isCodexCompaction: Codex compacts with a request whose last user
// message asks for a "CONTEXT CHECKPOINT COMPACTION" (the request after it
// carries the summary, "produced a summary of its thinking process").
func isCodexCompaction(c *rconv) bool {
	for i := len(c.items) - 1; i >= 0; i-- {
		if it := c.items[i]; it.Type == "message" && it.Role == "user" {
			s := strings.ToLower(contentText(it.Content))
			return strings.Contains(s, "checkpoint compaction")
		}
	}
	return false
}

func codexScript(sc script) func(c *rconv) reply {
	return func(c *rconv) reply {
		if isCodexCompaction(c) {
			return say("[e2e:compacted] E2E compaction summary: the user asked to run make check.")
		}
		_, _, r := sc.step(c.msgs())
		return r
	}
}

func TestCodex(t *testing.T) {
	for _, cb := range clientBins(t, "codex") {
		t.Run(cb.Version, func(t *testing.T) {
			t.Run("session", func(t *testing.T) { codexSession(t, cb) })
			t.Run("subagent", func(t *testing.T) { codexSubagent(t, cb) })
			t.Run("compact", func(t *testing.T) { codexCompact(t, cb) })
			t.Run("clone", func(t *testing.T) { codexClone(t, cb) })
			t.Run("install", func(t *testing.T) { codexInstall(t, cb) })
		})
	}
}

// codexSession: protocol, keyword, the lesson at the matching call and
// once, a deny (side effect absent, reason at the model), capture by lore
// scan, then resume and a compaction.
func codexSession(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupCodex(w)
	first, deny := bash(lessonCommand), bash(denyCommand)
	sc := script{
		"main":   {first, bash(lessonCommand + " && echo again"), deny, say(lessonBlock(capturedMarker))},
		"resume": {bash(lessonCommand), say("resumed and done")},
	}
	srv := newStandIn(t, responsesHandler(codexScript(sc)))
	cl := newCodex(t, cb, w, srv, "")
	thread := cl.exec("[e2e:main] Please deploy the widget, then run make check.")
	steps := codexSteps(srv, sc)
	if len(steps) == 0 {
		t.Fatalf("codex sent no model request with tools to the stand-in")
	}
	start := rat(t, steps, "main", 0)
	if !strings.Contains(start.all(), protocolMarker) {
		t.Errorf("protocol: the first request has no %q (SessionStart context)", protocolMarker)
	}
	if !strings.Contains(start.messages(), keywordFix) {
		t.Errorf("keyword: the first request has no %q for the prompt %q", keywordFix, keywordPhrase)
	}
	afterFirst := rat(t, steps, "main", 1)
	if n := count(afterFirst.messages(), lessonFix); n != 1 {
		t.Errorf("lesson: the request after the first %q holds the lesson %d times, want 1", lessonCommand, n)
	}
	last := rat(t, steps, "main", 3)
	if n := count(last.messages(), lessonFix); n != 1 {
		t.Errorf("once per context: after two matching calls the lesson is in the context %d times, want 1", n)
	}
	if n := count(last.messages(), keywordFix); n != 1 {
		t.Errorf("keyword: the keyword item is in the context %d times, want 1", n)
	}
	if strings.Contains(last.all(), stripFix) {
		t.Errorf("keyword: %q fired without being in the prompt", stripKeyword)
	}
	if res, ok := last.resultFor(deny.ID); !ok || !strings.Contains(res+last.afterResult(deny.ID), denyFix) {
		t.Errorf("deny: lore's reason %q is not at the model after the denied call (result %q)", denyFix, res)
	}
	if w.exists(denySideEffect) {
		t.Errorf("deny: %q ran (its side effect %s exists)", denyCommand, denySideEffect)
	}
	if !eventually(10*time.Second, func() bool { return w.draftWith(capturedMarker) }) {
		t.Errorf("capture: no draft from the #lesson block 10 s after the session (the Stop hook's background scan)")
	}
	w.captured(capturedMarker)

	if thread == "" {
		t.Fatalf("resume: codex exec --json reported no thread id")
	}
	cl.exec("resume", thread, "[e2e:resume] Run make check once more.")
	steps = codexSteps(srv, sc)
	if !strings.Contains(rat(t, steps, "resume", 0).all(), protocolMarker) {
		t.Errorf("resume: the resumed session's first request has no protocol")
	}
	if n := count(rat(t, steps, "resume", 1).messages(), lessonFix); n < 1 {
		t.Errorf("resume: after the matching call the lesson is not in the context")
	}
}

// codexSubagent: a sub-agent spawned with multi_agent_v1's spawn_agent
// gets the lesson in its own context although the main thread had it
// first, and its #lesson block is captured.
func codexSubagent(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupCodex(w)
	spawn := call("multi_agent_v1.spawn_agent", map[string]any{"message": "[e2e:sub] Run make check in this repository and report."})
	sc := script{
		"agent": {bash(lessonCommand), spawn, say("placeholder: wait_agent"), say("The sub-agent finished.")},
		"sub":   {bash(lessonCommand), say(lessonBlock(subCapMarker))},
	}
	srv := newStandIn(t, responsesHandler(func(c *rconv) reply {
		tag, n, _ := sc.step(c.msgs())
		if tag == "agent" && n == 2 {
			res, _ := c.resultFor(spawn.ID)
			var out struct {
				AgentID string `json:"agent_id"`
				ID      string `json:"id"`
			}
			json.Unmarshal([]byte(res), &out)
			return call("multi_agent_v1.wait_agent", map[string]any{"targets": []string{out.AgentID + out.ID}, "timeout_ms": 120000})
		}
		return codexScript(sc)(c)
	}))
	cl := newCodex(t, cb, w, srv, "")
	cl.exec("[e2e:agent] Run make check, then have a sub-agent run it too.")
	steps := codexSteps(srv, sc)
	if n := count(rat(t, steps, "agent", 1).messages(), lessonFix); n != 1 {
		t.Errorf("main thread: the lesson is in its context %d times after its call, want 1", n)
	}
	sub := rat(t, steps, "sub", 1)
	if strings.Contains(sub.messages(), "[e2e:agent]") {
		t.Fatalf("the sub-agent's request holds the main prompt: not its own context")
	}
	if n := count(sub.messages(), lessonFix); n != 1 {
		t.Errorf("sub-agent: the lesson is in its own context %d times after its matching call, want 1 (dedup per agent_id)", n)
	}
	if !eventually(15*time.Second, func() bool { return w.draftWith(subCapMarker) }) {
		t.Errorf("sub-agent capture: no draft from the sub-agent's #lesson block 15 s after the session (SubagentStop)")
		w.captured(subCapMarker)
	}
}

// codexCompact: an auto-compaction (the stand-in reports a context over
// model_auto_compact_token_limit) gives the compacted context the
// protocol back and, at the next matching call, the high-priority lesson.
func codexCompact(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupCodex(w)
	big := bash(lessonCommand + " && echo big")
	big.Usage = 900000
	sc := script{
		"main":      {bash(lessonCommand), big, say("done before compaction")},
		"compacted": {bash(lessonCommand), say("compacted and done")},
	}
	srv := newStandIn(t, responsesHandler(codexScript(sc)))
	cl := newCodex(t, cb, w, srv, "model_auto_compact_token_limit = 200000\nmodel_context_window = 1000000\n")
	cl.exec("[e2e:main] Run make check twice.")
	compactions := 0
	for _, r := range srv.requests() {
		if c, ok := parseResponses(r); ok && isCodexCompaction(c) {
			compactions++
		}
	}
	if compactions == 0 {
		t.Fatalf("compaction: no compaction request reached the model")
	}
	steps := codexSteps(srv, sc)
	cf := rat(t, steps, "compacted", 0)
	if strings.Contains(cf.messages(), lessonFix) {
		t.Fatalf("compaction: the compacted context still holds the lesson (nothing was compacted)")
	}
	if !strings.Contains(cf.all(), protocolMarker) {
		t.Errorf("compaction: no protocol in the compacted context")
	}
	if n := count(rat(t, steps, "compacted", 1).messages(), lessonFix); n < 1 {
		t.Errorf("compaction: after the matching call the lesson is not in the compacted context")
	}
}

// codexClone: in a teammate's fresh clone the first tool call of the
// first session is denied by an enforce: deny lesson.
func codexClone(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupCodex(w)
	w.clone()
	deny := bash(cloneCommand)
	sc := script{"clone": {deny, say("done")}}
	srv := newStandIn(t, responsesHandler(codexScript(sc)))
	cl := newCodex(t, cb, w, srv, "")
	cl.exec("[e2e:clone] Push the branch.")
	if w.exists(denySideEffect) {
		t.Errorf("fresh clone: %q ran (its side effect %s exists)", cloneCommand, denySideEffect)
	}
	after := rat(t, codexSteps(srv, sc), "clone", 1)
	res, _ := after.resultFor(deny.ID)
	res += after.afterResult(deny.ID)
	if !strings.Contains(res, denyFix) {
		t.Errorf("fresh clone: lore's reason %q is not at the model after the first call (result %q)", denyFix, res)
	} else if !strings.Contains(after.messages(), lessonTitle) {
		t.Errorf("deny: the other lesson that matched the denied call (%q) did not reach the model", lessonTitle)
	}
}

// codexInstall: `lore init --agent codex` then `--uninstall` leave the
// user's .codex/hooks.json byte for byte as it was, and a run after the
// uninstall sends nothing of lore to the model.
func codexInstall(t *testing.T, cb clientBin) {
	w := newWorld(t)
	w.setupRepo()
	for _, empty := range []string{"{}\n", "{\"hooks\":{}}\n"} {
		w.roundTrip("codex", ".codex/hooks.json", empty)
	}
	const user = "{\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]\n            }\n        ]\n    }\n}\n"
	w.write(".codex/hooks.json", user)
	out, err := w.try("lore", "init", "--agent", "codex")
	if err != nil {
		t.Fatalf("lore init --agent codex: %v\n%s", err, out)
	}
	if !strings.Contains(strings.ToLower(out), "trust") {
		t.Errorf("install: lore init --agent codex does not tell the user to trust the hooks:\n%s", out)
	}
	got := w.read(".codex/hooks.json")
	var parsed map[string]any
	if err := json.Unmarshal([]byte(got), &parsed); err != nil || !strings.Contains(got, "lore-hook codex PreToolUse") || !strings.Contains(got, `"command": "true"`) {
		t.Fatalf("install: .codex/hooks.json lacks lore's hook or lost the user's (%v):\n%s", err, got)
	}
	srv := newStandIn(t, responsesHandler(func(c *rconv) reply { return say("done") }))
	cl := newCodex(t, cb, w, srv, "")
	cl.exec("[e2e:x] hello")
	if !anyRequest(srv, protocolMarker) {
		t.Errorf("install: the installed hooks sent no protocol to the model")
	}
	w.run("lore", "init", "--agent", "codex", "--uninstall")
	if got := w.read(".codex/hooks.json"); got != user {
		t.Errorf("uninstall: .codex/hooks.json differs from the user's\n--- got\n%s\n--- want\n%s", got, user)
	}
	srv2 := newStandIn(t, responsesHandler(func(c *rconv) reply { return say("done") }))
	cl2 := newCodex(t, cb, w, srv2, "")
	cl2.exec("[e2e:x] hello again")
	if anyRequest(srv2, protocolMarker) {
		t.Errorf("uninstall: lore's protocol still reached the model")
	}
}
