//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// claudeClient drives one installed Claude Code version headless
// (docs/clients.md, Claude Code: -p with stream-json, tools allowed by
// --allowedTools, the stand-in at ANTHROPIC_BASE_URL and every other request
// disabled).
type claudeClient struct {
	bin, version string
	w            *world
	srv          *standIn
}

const claudeTimeout = 90 * time.Second // a scripted run takes seconds; 28 runs must fit the CI budget

func newClaude(cb clientBin, w *world, srv *standIn) *claudeClient {
	return &claudeClient{bin: cb.Path, version: cb.Version, w: w, srv: srv}
}

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

var claude = client{
	agent: "claude", settings: ".claude/settings.json", hook: "lore-hook claude PreToolUse",
	user:  "{\n    \"permissions\": {\n        \"allow\": [\"Bash(make check)\"]\n    },\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]\n            }\n        ]\n    }\n}\n",
	serve: func(t *testing.T, sc script) *standIn { return newStandIn(t, anthropicHandler(scripted[*conv](sc))) },
	turns: claudeTurns,
	ask: func(t *testing.T, cb clientBin, w *world, srv *standIn, prompt string) {
		newClaude(cb, w, srv).run("-p", prompt)
	},
}

// claudeTurns: the stand-in's Messages requests that offered tools (the
// agent's own turns, not side requests) and are no compaction.
func claudeTurns(s *standIn) []view {
	return requestsOf(s, parseAnthropic, func(c *conv) bool { return len(c.body.Tools) > 0 && !isCompaction(c) })
}

func agentTool(c *conv) string {
	if c.hasTool("Agent") {
		return "Agent"
	}
	return "Task"
}

func TestClaude(t *testing.T) {
	claude.suite(t, scenario{"session", claudeSession}, scenario{"subagent", claudeSubagent}, scenario{"paths", claudePaths},
		scenario{"mcp", claudeMCP}, scenario{"plugin", claudePlugin})
}

// claudeSession: the shared session (the lesson also not before any
// matching call; captured by the Stop hook, then by lore scan), resumed,
// then compacted.
func claudeSession(t *testing.T, cb clientBin) {
	w, deny, sc, srv := claude.startSession(t, script{"compacted": {bash(lessonCommand), say("compacted and done")}})
	cl := newClaude(cb, w, srv)
	const sid = "5f0c1a2e-0e2e-4e2e-8e2e-000000000001"

	cl.run("-p", sessionPrompt, "--session-id", sid)
	steps := claude.steps(srv, sc)
	checkSession(t, w, steps, deny)
	if strings.Contains(at(t, steps, "main", 0).all(), lessonFix) {
		t.Errorf("lesson: injected before any matching call")
	}
	w.capturedByHooks(capturedMarker, 10*time.Second, "the Stop hook's background scan")
	w.captured(capturedMarker)

	// Resume: SessionStart source=resume; the lesson is in the model's
	// context at the next matching call (2.1.197 does not restore earlier
	// hook context, so lore must inject it again).
	cl.run("-p", resumePrompt, "--resume", sid)
	checkResume(t, claude.steps(srv, sc))

	// Compaction: /compact, then a matching call: the compacted context
	// gets the protocol back and the high-priority lesson again.
	cl.run("-p", "/compact", "--resume", sid)
	if len(requestsOf(srv, parseAnthropic, isCompaction)) == 0 {
		t.Fatalf("compaction: /compact sent no compaction request to the model")
	}
	cl.run("-p", "[e2e:compacted] Run make check after the compaction.", "--resume", sid)
	steps = claude.steps(srv, sc)
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

// claudeSubagent: the shared sub-agent checks, started with the Agent (or
// Task) tool; the main thread still holds the lesson once after the
// sub-agent, and the sub-agent gets the protocol (SubagentStart).
func claudeSubagent(t *testing.T, cb clientBin) {
	w := claude.world(t)
	sc := script{
		"agent": {bash(lessonCommand), say("placeholder: the agent call"), say("The sub-agent finished.")},
		"sub":   subScript(),
	}
	srv := newStandIn(t, anthropicHandler(func(c *conv) reply {
		tag, n, r := sc.step(c.msgs())
		if tag == "agent" && n == 1 {
			return call(agentTool(c), map[string]any{
				"description": "run the checks", "subagent_type": "general-purpose", "prompt": subTask,
			})
		}
		return r
	}))
	newClaude(cb, w, srv).run("-p", agentPrompt, "--session-id", "5f0c1a2e-0e2e-4e2e-8e2e-000000000002")
	steps := claude.steps(srv, sc)
	checkSubagent(t, w, steps, "SubagentStop")
	if n := count(lastOf(steps, "agent").messages(), lessonFix); n != 1 {
		t.Errorf("main thread: after the sub-agent the lesson is in its context %d times, want 1", n)
	}
	if !strings.Contains(at(t, steps, "sub", 1).all(), protocolMarker) {
		t.Errorf("sub-agent: no self-report protocol in its context (SubagentStart)")
	}
}

// claudePaths: Read on a path a lesson names gets the lesson.
func claudePaths(t *testing.T, cb clientBin) {
	claude.pathLesson(t, cb, "Read", func(w *world) reply {
		return call("Read", map[string]any{"file_path": filepath.Join(w.repo, pathDir, "ref.md")})
	})
}
