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

// codexClient drives one installed Codex CLI with `codex exec`
// (docs/clients.md, Codex CLI: a custom model provider in a throwaway
// CODEX_HOME/config.toml, the project trusted, hooks run without the trust
// prompt for the run).
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

var codex = client{
	agent: "codex", settings: ".codex/hooks.json", hook: "lore-hook codex PreToolUse",
	user:  "{\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]\n            }\n        ]\n    }\n}\n",
	tells: "trust", // the hooks run only once the user trusts them
	serve: func(t *testing.T, sc script) *standIn { return newStandIn(t, responsesHandler(codexScript(sc))) },
	turns: codexTurns,
	ask: func(t *testing.T, cb clientBin, w *world, srv *standIn, prompt string) {
		newCodex(t, cb, w, srv, "").exec(prompt)
	},
}

// codexTurns: the stand-in's Responses requests that offered tools and
// are no compaction.
func codexTurns(s *standIn) []view {
	return requestsOf(s, parseResponses, func(c *rconv) bool { return len(c.body.Tools) > 0 && !isCodexCompaction(c) })
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
		return scripted[*rconv](sc)(c)
	}
}

func TestCodex(t *testing.T) {
	codex.suite(t, scenario{"session", codexSession}, scenario{"subagent", codexSubagent}, scenario{"compact", codexCompact})
}

// codexSession: the shared session (captured by the Stop hook, then by
// lore scan), then resumed with `codex exec resume` on its thread.
func codexSession(t *testing.T, cb clientBin) {
	w, deny, sc, srv := codex.startSession(t, nil)
	cl := newCodex(t, cb, w, srv, "")
	thread := cl.exec(sessionPrompt)
	checkSession(t, w, codex.steps(srv, sc), deny)
	w.capturedByHooks(capturedMarker, 10*time.Second, "the Stop hook's background scan")
	w.captured(capturedMarker)

	if thread == "" {
		t.Fatalf("resume: codex exec --json reported no thread id")
	}
	cl.exec("resume", thread, resumePrompt)
	checkResume(t, codex.steps(srv, sc))
}

// codexSubagent: the shared sub-agent checks, the sub-agent spawned with
// multi_agent_v1's spawn_agent and waited for with wait_agent.
func codexSubagent(t *testing.T, cb clientBin) {
	w := codex.world(t)
	spawn := call("multi_agent_v1.spawn_agent", map[string]any{"message": subTask})
	sc := script{
		"agent": {bash(lessonCommand), spawn, say("placeholder: wait_agent"), say("The sub-agent finished.")},
		"sub":   subScript(),
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
	newCodex(t, cb, w, srv, "").exec(agentPrompt)
	checkSubagent(t, w, codex.steps(srv, sc), "SubagentStop")
}

// codexCompact: an auto-compaction (the stand-in reports a context over
// model_auto_compact_token_limit) gives the compacted context the
// protocol back and, at the next matching call, the high-priority lesson.
func codexCompact(t *testing.T, cb clientBin) {
	w := codex.world(t)
	big := bash(lessonCommand + " && echo big")
	big.Usage = 900000
	sc := script{
		"main":      {bash(lessonCommand), big, say("done before compaction")},
		"compacted": {bash(lessonCommand), say("compacted and done")},
	}
	srv := codex.serve(t, sc)
	cl := newCodex(t, cb, w, srv, "model_auto_compact_token_limit = 200000\nmodel_context_window = 1000000\n")
	cl.exec("[e2e:main] Run make check twice.")
	if len(requestsOf(srv, parseResponses, isCodexCompaction)) == 0 {
		t.Fatalf("compaction: no compaction request reached the model")
	}
	steps := codex.steps(srv, sc)
	cf := at(t, steps, "compacted", 0)
	if strings.Contains(cf.messages(), lessonFix) {
		t.Fatalf("compaction: the compacted context still holds the lesson (nothing was compacted)")
	}
	if !strings.Contains(cf.all(), protocolMarker) {
		t.Errorf("compaction: no protocol in the compacted context")
	}
	if n := count(at(t, steps, "compacted", 1).messages(), lessonFix); n < 1 {
		t.Errorf("compaction: after the matching call the lesson is not in the compacted context")
	}
}
