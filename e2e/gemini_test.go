//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// geminiClient drives one installed Gemini CLI headless (docs/clients.md,
// Gemini CLI: GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL, the API-key auth
// selected in the user settings, -p with --approval-mode yolo, the workspace
// trusted).
type geminiClient struct {
	bin, version string
	w            *world
	srv          *standIn
}

const geminiTimeout = 90 * time.Second

func newGemini(t *testing.T, cb clientBin, w *world, srv *standIn) *geminiClient {
	user := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	}
	b, _ := json.MarshalIndent(user, "", "  ")
	dir := filepath.Join(w.home, ".gemini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return &geminiClient{bin: cb.Path, version: cb.Version, w: w, srv: srv}
}

func (c *geminiClient) run(args ...string) string {
	c.w.t.Helper()
	env := []string{"GEMINI_API_KEY=e2e-dummy", "GOOGLE_GEMINI_BASE_URL=" + c.srv.URL(),
		"GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true"}
	base := []string{"--approval-mode", "yolo", "--output-format", "json"}
	return c.w.client("gemini", geminiTimeout, env, c.bin, append(args, base...)...)
}

var gemini = client{
	agent: "gemini", settings: ".gemini/settings.json", hook: "lore-hook gemini BeforeTool",
	recordInLog: true,
	user:        "{\n\t\"ui\": {\n\t\t\"theme\": \"Default\"\n\t},\n\t\"hooks\": {\n\t\t\"AfterAgent\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}\n\t\t]\n\t}\n}\n",
	serve:       func(t *testing.T, sc script) *standIn { return newStandIn(t, geminiHandler(scripted[*gconv](sc))) },
	turns:       geminiTurns,
	ask: func(t *testing.T, cb clientBin, w *world, srv *standIn, prompt string) {
		newGemini(t, cb, w, srv).run("-p", prompt)
	},
}

// geminiTurns: the stand-in's streamed requests that offered tools (the
// agent's turns; side calls are not streamed).
func geminiTurns(s *standIn) []view {
	return requestsOf(s, parseGemini, func(c *gconv) bool { return c.hasTools() && c.stream })
}

func TestGemini(t *testing.T) {
	gemini.suite(t, scenario{"session", geminiSession}, scenario{"subagent", geminiSubagent}, scenario{"tools", geminiTools},
		scenario{"mcp", geminiMCP})
}

// geminiSession: the shared session (the keyword check also proves none
// fires from lore's own text wrapped around the prompt; the lesson comes
// right after the matching call as BeforeTool ignores context), the record
// line not HTML-escaped, the chat's #lesson block captured by lore scan,
// and a resumed session that holds the earlier conversation.
func geminiSession(t *testing.T, cb clientBin) {
	w, deny, sc, srv := gemini.startSession(t, nil)
	cl := newGemini(t, cb, w, srv)
	cl.run("-p", sessionPrompt)
	steps := gemini.steps(srv, sc)
	checkSession(t, w, steps, deny)
	if strings.Contains(at(t, steps, "main", 0).all(), "&lt;!-- lore") {
		t.Errorf("escaping: the model reads lore's record line HTML-escaped (&lt;!-- lore)")
	}
	w.captured(capturedMarker)

	cl.run("--resume", "latest", "-p", resumePrompt)
	steps = gemini.steps(srv, sc)
	if !strings.Contains(at(t, steps, "resume", 0).messages(), "touch forbidden-ran") {
		t.Errorf("resume: the resumed request lacks the earlier conversation")
	}
	checkResume(t, steps)
}

// geminiSubagent: the shared sub-agent checks, the sub-agent started with
// invoke_agent. Measured with 0.61.0: the sub-agent's hook calls carry the
// parent's session_id and no agent_id (they come between BeforeTool and
// AfterTool of invoke_agent; there is no SubagentStart or SubagentStop),
// and its chat is ~/.gemini/tmp/<slug>/chats/<session id>/<agent id>.jsonl.
func geminiSubagent(t *testing.T, cb clientBin) {
	w := gemini.world(t)
	sc := script{
		"agent": {bash(lessonCommand), call("invoke_agent", map[string]any{"agent_name": "generalist", "prompt": subTask}), say("The sub-agent finished.")},
		"sub":   subScript(),
	}
	srv := newStandIn(t, geminiHandler(func(c *gconv) reply {
		tag, n, r := sc.step(c.msgs())
		if tag == "sub" && n == 1 && c.hasTool("complete_task") {
			// Gemini's sub-agents end by calling complete_task; the block
			// is in the model's text next to that call.
			r = call("complete_task", map[string]any{"result": map[string]any{"response": "The checks ran."}})
			r.Text = lessonBlock(subCapMarker)
		}
		return r
	}))
	newGemini(t, cb, w, srv).run("-p", agentPrompt)
	checkSubagent(t, w, gemini.steps(srv, sc), "AfterAgent, which scans the sub-agent chats beside the session's")
}

// geminiTools: Gemini's file tools map to lore's (read_file's file_path,
// list_directory's dir_path): the path lesson comes right after the call.
func geminiTools(t *testing.T, cb clientBin) {
	for _, tc := range []struct {
		name string
		call reply
	}{
		{"read_file", call("read_file", map[string]any{"file_path": pathDir + "/ref.md"})},
		{"list_directory", call("list_directory", map[string]any{"dir_path": pathDir})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gemini.pathLesson(t, cb, tc.name, func(*world) reply { return tc.call })
		})
	}
}
