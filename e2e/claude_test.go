//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeClient drives one installed Claude Code version headless
// (CLIENTS.md: -p with stream-json, tools allowed by --allowedTools, the
// stand-in at ANTHROPIC_BASE_URL and every other request disabled).
type claudeClient struct {
	bin, version string
	w            *world
	srv          *standIn
}

const claudeTimeout = 90 * time.Second // a scripted run takes seconds; 28 runs must fit the CI budget

func (c *claudeClient) run(args ...string) string {
	c.w.t.Helper()
	debug := filepath.Join(c.w.tmp, "claude-debug.log")
	if dir := logDir(c.w.t); dir != "" {
		debug = filepath.Join(dir, "claude-debug.log")
	}
	base := []string{"--output-format", "stream-json", "--verbose", "--include-hook-events",
		"--debug-file", debug, "--allowedTools", "Bash,Agent,Task,Read,Write,Edit"}
	env := []string{
		"ANTHROPIC_BASE_URL=" + c.srv.URL(), "ANTHROPIC_API_KEY=sk-e2e-dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
	}
	return c.w.client("claude", claudeTimeout, env, c.bin, append(args, base...)...)
}

// setupClaude installs lore for Claude Code as a user would.
func setupClaude(w *world) {
	w.t.Helper()
	w.setupRepo()
	w.run("lore", "init", "--agent", "claude")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lore: claude hooks")
}

// claudeConvs returns the stand-in's Messages requests that offered tools
// (the agent's own turns, not side requests), with their script position.
type step struct {
	c   *conv
	tag string
	n   int
}

func claudeSteps(s *standIn, sc script) []step {
	var out []step
	for _, r := range s.requests() {
		c, ok := parseAnthropic(r)
		if !ok || len(c.body.Tools) == 0 || isCompaction(c) {
			continue
		}
		tag, n, _ := sc.step(c.msgs())
		out = append(out, step{c, tag, n})
	}
	return out
}

// at returns the first request of script tag after n assistant turns.
func at(t *testing.T, steps []step, tag string, n int) *conv {
	t.Helper()
	for _, s := range steps {
		if s.tag == tag && s.n == n {
			return s.c
		}
	}
	t.Fatalf("the model never received the request for step %d of %q (%d requests)", n, tag, len(steps))
	return nil
}

// lastOf returns the latest request of script tag (at least step 0 exists
// when the caller asks).
func lastOf(steps []step, tag string) *conv {
	var last *conv
	for _, s := range steps {
		if s.tag == tag {
			last = s.c
		}
	}
	return last
}

// msgs is the conversation for the script: user text blocks (not tool
// results, which may quote anything) and assistant turns.
func (c *conv) msgs() []msg {
	var out []msg
	for _, m := range c.body.Messages {
		var sb strings.Builder
		for _, b := range blocks(m.Content) {
			if b.Type == "text" {
				sb.WriteString(b.Text + "\n")
			}
		}
		out = append(out, msg{m.Role, sb.String()})
	}
	return out
}

func agentTool(c *conv) string {
	if c.hasTool("Agent") {
		return "Agent"
	}
	return "Task"
}

func TestClaude(t *testing.T) {
	for _, cb := range clientBins(t, "claude") {
		t.Run(cb.Version, func(t *testing.T) {
			t.Run("session", func(t *testing.T) { claudeSession(t, cb) })
			t.Run("subagent", func(t *testing.T) { claudeSubagent(t, cb) })
			t.Run("paths", func(t *testing.T) { claudePaths(t, cb) })
			t.Run("clone", func(t *testing.T) { claudeClone(t, cb) })
			t.Run("install", func(t *testing.T) { claudeInstall(t, cb) })
		})
	}
}

// claudeSession: protocol at start, a prompt keyword, the lesson at the
// matching call and only once, a deny with its side effect kept from
// happening, a #lesson block captured after the session, then resume and
// compaction.
func claudeSession(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupClaude(w)
	deny := bash(denyCommand)
	sc := script{
		"main": {
			bash(lessonCommand),
			bash(lessonCommand + " && echo again"),
			deny,
			say(lessonBlock(capturedMarker)),
		},
		"resume":    {bash(lessonCommand), say("resumed and done")},
		"compacted": {bash(lessonCommand), say("compacted and done")},
	}
	srv := newStandIn(t, anthropicHandler(func(c *conv) reply { _, _, r := sc.step(c.msgs()); return r }))
	cl := &claudeClient{bin: cb.Path, version: cb.Version, w: w, srv: srv}
	const sid = "5f0c1a2e-0e2e-4e2e-8e2e-000000000001"

	cl.run("-p", "[e2e:main] Please deploy the widget, then run make check.", "--session-id", sid)
	steps := claudeSteps(srv, sc)

	first := at(t, steps, "main", 0)
	if !strings.Contains(first.all(), protocolMarker) {
		t.Errorf("protocol: the first request has no %q (SessionStart context)", protocolMarker)
	}
	if !strings.Contains(first.messages(), keywordFix) {
		t.Errorf("keyword: the first request has no %q for the prompt %q", keywordFix, keywordPhrase)
	}
	if strings.Contains(first.all(), lessonFix) {
		t.Errorf("lesson: injected before any matching call")
	}
	if afterCall := at(t, steps, "main", 1); count(afterCall.messages(), lessonFix) != 1 {
		t.Errorf("lesson: the request after the first %q holds the lesson %d times, want 1", lessonCommand, count(afterCall.messages(), lessonFix))
	}
	last := at(t, steps, "main", 3)
	if n := count(last.messages(), lessonFix); n != 1 {
		t.Errorf("once per context: after two matching calls the lesson is in the context %d times, want 1", n)
	}
	if n := count(last.messages(), keywordFix); n != 1 {
		t.Errorf("keyword: the keyword item is in the context %d times, want 1", n)
	}
	if strings.Contains(last.all(), stripFix) {
		t.Errorf("keyword: %q fired without being in the prompt", stripKeyword)
	}
	if res, ok := last.resultFor(deny.ID); !ok || !strings.Contains(res, denyFix) {
		t.Errorf("deny: the denied call's result %q does not carry lore's reason %q", res, denyFix)
	}
	if w.exists(denySideEffect) {
		t.Errorf("deny: %q ran (its side effect %s exists)", denyCommand, denySideEffect)
	}
	// The Stop hook scans the transcript in the background; lore scan run
	// by hand after the session finds the block either way.
	if !eventually(10*time.Second, func() bool { return w.draftWith(capturedMarker) }) {
		t.Errorf("capture: no draft from the #lesson block 10 s after the session (the Stop hook's background scan)")
	}
	w.captured(capturedMarker)

	// Resume: SessionStart source=resume; the lesson is in the model's
	// context at the next matching call (2.1.197 does not restore earlier
	// hook context, so lore must inject it again).
	cl.run("-p", "[e2e:resume] Run make check once more.", "--resume", sid)
	steps = claudeSteps(srv, sc)
	res := at(t, steps, "resume", 0)
	if !strings.Contains(res.all(), protocolMarker) {
		t.Errorf("resume: the resumed session's first request has no protocol")
	}
	if n := count(at(t, steps, "resume", 1).messages(), lessonFix); n < 1 {
		t.Errorf("resume: after the matching call the lesson is not in the context")
	}

	// Compaction: /compact, then a matching call: the compacted context
	// gets the protocol back and the high-priority lesson again.
	cl.run("-p", "/compact", "--resume", sid)
	compactions := 0
	for _, r := range srv.requests() {
		if c, ok := parseAnthropic(r); ok && isCompaction(c) {
			compactions++
		}
	}
	if compactions == 0 {
		t.Fatalf("compaction: /compact sent no compaction request to the model")
	}
	cl.run("-p", "[e2e:compacted] Run make check after the compaction.", "--resume", sid)
	steps = claudeSteps(srv, sc)
	cf := at(t, steps, "compacted", 0)
	if strings.Contains(cf.messages(), "[e2e:main]") {
		t.Errorf("compaction: the first request after /compact still holds the original prompt")
	}
	if !strings.Contains(cf.all(), protocolMarker) {
		t.Errorf("compaction: no protocol in the compacted context")
	}
	if n := count(at(t, steps, "compacted", 1).messages(), lessonFix); n != 1 {
		t.Errorf("compaction: after the matching call the lesson is in the compacted context %d times, want 1", n)
	}
	if strings.Contains(cf.all(), "completed successfully: {}") {
		t.Errorf("compaction: a PreCompact hook's empty answer is shown to the model (%q)", "PreCompact [...] completed successfully: {}")
	}
}

// claudeSubagent: the main thread and a sub-agent each get the lesson once
// in their own context, and the sub-agent's #lesson block is captured.
func claudeSubagent(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupClaude(w)
	var sc script
	srv := newStandIn(t, anthropicHandler(func(c *conv) reply {
		tag, n, r := sc.step(c.msgs())
		if tag == "agent" && n == 1 {
			return call(agentTool(c), map[string]any{
				"description": "run the checks", "subagent_type": "general-purpose",
				"prompt": "[e2e:sub] Run make check in this repository and report.",
			})
		}
		return r
	}))
	sc = script{
		"agent": {bash(lessonCommand), say("placeholder: the agent call"), say("The sub-agent finished.")},
		"sub":   {bash(lessonCommand), say(lessonBlock(subCapMarker))},
	}
	cl := &claudeClient{bin: cb.Path, version: cb.Version, w: w, srv: srv}
	cl.run("-p", "[e2e:agent] Run make check, then have a sub-agent run it too.", "--session-id", "5f0c1a2e-0e2e-4e2e-8e2e-000000000002")
	steps := claudeSteps(srv, sc)
	if n := count(at(t, steps, "agent", 1).messages(), lessonFix); n != 1 {
		t.Errorf("main thread: the lesson is in its context %d times after its call, want 1", n)
	}
	if n := count(lastOf(steps, "agent").messages(), lessonFix); n != 1 {
		t.Errorf("main thread: after the sub-agent the lesson is in its context %d times, want 1", n)
	}
	sub := at(t, steps, "sub", 1)
	if strings.Contains(sub.messages(), "[e2e:agent]") {
		t.Fatalf("the sub-agent's request holds the main prompt: not its own context")
	}
	if n := count(sub.messages(), lessonFix); n != 1 {
		t.Errorf("sub-agent: the lesson is in its own context %d times after its matching call, want 1 (dedup per agent_id)", n)
	}
	if !strings.Contains(sub.all(), protocolMarker) {
		t.Errorf("sub-agent: no self-report protocol in its context (SubagentStart)")
	}
	// Captured by the hooks alone (SubagentStop scans the sub-agent's
	// transcript in the background), else by a `lore scan` run by hand.
	if !eventually(15*time.Second, func() bool { return w.draftWith(subCapMarker) }) {
		t.Errorf("sub-agent capture: no draft from the sub-agent's #lesson block 15 s after the session (SubagentStop)")
		w.captured(subCapMarker)
	}
}

// claudePaths: a file tool on a path a lesson names gets the lesson.
func claudePaths(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupClaude(w)
	sc := script{"paths": {call("Read", map[string]any{"file_path": filepath.Join(w.repo, pathDir, "ref.md")}), say("done")}}
	srv := newStandIn(t, anthropicHandler(func(c *conv) reply { _, _, r := sc.step(c.msgs()); return r }))
	cl := &claudeClient{bin: cb.Path, version: cb.Version, w: w, srv: srv}
	cl.run("-p", "[e2e:paths] Read the API reference.")
	if n := count(at(t, claudeSteps(srv, sc), "paths", 1).messages(), pathFix); n != 1 {
		t.Errorf("paths: after Read of %s/ref.md the path lesson is in the context %d times, want 1", pathDir, n)
	}
}

// claudeClone: in a teammate's fresh clone the first tool call of the
// first session is denied by an enforce: deny lesson.
func claudeClone(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupClaude(w)
	w.clone()
	deny := bash(cloneCommand)
	sc := script{"clone": {deny, say("done")}}
	srv := newStandIn(t, anthropicHandler(func(c *conv) reply { _, _, r := sc.step(c.msgs()); return r }))
	cl := &claudeClient{bin: cb.Path, version: cb.Version, w: w, srv: srv}
	cl.run("-p", "[e2e:clone] Push the branch.")
	if w.exists(denySideEffect) {
		t.Errorf("fresh clone: %q ran (its side effect %s exists)", cloneCommand, denySideEffect)
	}
	after := at(t, claudeSteps(srv, sc), "clone", 1)
	res, _ := after.resultFor(deny.ID)
	if !strings.Contains(res, denyFix) {
		t.Errorf("fresh clone: the first call's result %q does not carry lore's reason %q", res, denyFix)
	} else if !strings.Contains(after.messages(), lessonTitle) {
		t.Errorf("deny: the other lesson that matched the denied call (%q) did not reach the model", lessonTitle)
	}
}

// claudeInstall: `lore init --agent claude` then `--uninstall` leaves the
// user's settings file byte for byte as it was, and a session after the
// uninstall sends nothing of lore to the model.
func claudeInstall(t *testing.T, cb clientBin) {
	w := newWorld(t)
	w.setupRepo()
	for _, empty := range []string{"{}\n", "{\"hooks\":{}}\n"} {
		w.roundTrip("claude", ".claude/settings.json", empty)
	}
	const user = "{\n    \"permissions\": {\n        \"allow\": [\"Bash(make check)\"]\n    },\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]\n            }\n        ]\n    }\n}\n"
	w.write(".claude/settings.json", user)
	w.run("lore", "init", "--agent", "claude")
	if got := w.read(".claude/settings.json"); !strings.Contains(got, "lore-hook claude PreToolUse") || !strings.Contains(got, `"command": "true"`) {
		t.Fatalf("install: settings lack lore's hook or lost the user's:\n%s", got)
	}
	srv := newStandIn(t, anthropicHandler(func(c *conv) reply { return say("done") }))
	cl := &claudeClient{bin: cb.Path, version: cb.Version, w: w, srv: srv}
	cl.run("-p", "[e2e:x] hello")
	if !anyRequest(srv, protocolMarker) {
		t.Errorf("install: the installed hooks sent no protocol to the model")
	}
	w.run("lore", "init", "--agent", "claude", "--uninstall")
	if got := w.read(".claude/settings.json"); got != user {
		t.Errorf("uninstall: settings.json differs from the user's\n--- got\n%s\n--- want\n%s", got, user)
	}
	srv2 := newStandIn(t, anthropicHandler(func(c *conv) reply { return say("done") }))
	cl.srv = srv2
	cl.run("-p", "[e2e:x] hello again")
	if anyRequest(srv2, protocolMarker) {
		t.Errorf("uninstall: lore's protocol still reached the model")
	}
}

func anyRequest(s *standIn, sub string) bool {
	for _, r := range s.requests() {
		if strings.Contains(string(r.Body), sub) {
			return true
		}
	}
	return false
}
