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

// geminiClient drives one installed Gemini CLI headless (CLIENTS.md:
// GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL, the API-key auth selected in
// the user settings, -p with --approval-mode yolo, the workspace trusted).
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

// setupGemini installs lore for Gemini CLI as a user would.
func setupGemini(w *world) {
	w.t.Helper()
	w.setupRepo()
	if out, err := w.try("lore", "init", "--agent", "gemini"); err != nil {
		w.t.Fatalf("lore init --agent gemini: %v\n%s", err, out)
	}
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lore: gemini hooks")
}

type gstep struct {
	c   *gconv
	tag string
	n   int
}

func geminiSteps(s *standIn, sc script) []gstep {
	var out []gstep
	for _, r := range s.requests() {
		c, ok := parseGemini(r)
		if !ok || !c.hasTools() || !c.stream {
			continue
		}
		tag, n, _ := sc.step(c.msgs())
		out = append(out, gstep{c, tag, n})
	}
	return out
}

func gat(t *testing.T, steps []gstep, tag string, n int) *gconv {
	t.Helper()
	for _, s := range steps {
		if s.tag == tag && s.n == n {
			return s.c
		}
	}
	t.Fatalf("the model never received the request for step %d of %q (%d requests)", n, tag, len(steps))
	return nil
}

func geminiScript(sc script) func(c *gconv) reply {
	return func(c *gconv) reply { _, _, r := sc.step(c.msgs()); return r }
}

func TestGemini(t *testing.T) {
	for _, cb := range clientBins(t, "gemini") {
		t.Run(cb.Version, func(t *testing.T) {
			t.Run("session", func(t *testing.T) { geminiSession(t, cb) })
			t.Run("subagent", func(t *testing.T) { geminiSubagent(t, cb) })
			t.Run("tools", func(t *testing.T) { geminiTools(t, cb) })
			t.Run("clone", func(t *testing.T) { geminiClone(t, cb) })
			t.Run("install", func(t *testing.T) { geminiInstall(t, cb) })
		})
	}
}

// geminiSession: protocol, keyword (and none from lore's own text wrapped
// around the prompt), the lesson right after the matching call (BeforeTool
// ignores context) and once, a deny, capture of the chat's #lesson block,
// and a resumed session.
func geminiSession(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupGemini(w)
	deny := bash(denyCommand)
	sc := script{
		"main":   {bash(lessonCommand), bash(lessonCommand + " && echo again"), deny, say(lessonBlock(capturedMarker))},
		"resume": {bash(lessonCommand), say("resumed and done")},
	}
	srv := newStandIn(t, geminiHandler(geminiScript(sc)))
	cl := newGemini(t, cb, w, srv)
	cl.run("-p", "[e2e:main] Please deploy the widget, then run make check.")
	steps := geminiSteps(srv, sc)
	first := gat(t, steps, "main", 0)
	if !strings.Contains(first.all(), protocolMarker) {
		t.Errorf("protocol: the first request has no %q (SessionStart context)", protocolMarker)
	}
	if !strings.Contains(first.messages(), keywordFix) {
		t.Errorf("keyword: the first request has no %q for the prompt %q", keywordFix, keywordPhrase)
	}
	if strings.Contains(first.all(), "&lt;!-- lore") {
		t.Errorf("escaping: the model reads lore's record line HTML-escaped (&lt;!-- lore)")
	}
	if n := count(gat(t, steps, "main", 1).messages(), lessonFix); n != 1 {
		t.Errorf("lesson: the request after the first %q holds the lesson %d times, want 1", lessonCommand, n)
	}
	last := gat(t, steps, "main", 3)
	if n := count(last.messages(), lessonFix); n != 1 {
		t.Errorf("once per context: after two matching calls the lesson is in the context %d times, want 1", n)
	}
	if n := count(last.messages(), keywordFix); n != 1 {
		t.Errorf("keyword: the keyword item is in the context %d times, want 1", n)
	}
	if strings.Contains(last.all(), stripFix) {
		t.Errorf("prompt stripping: %q fired on lore's own text wrapped around the prompt", stripKeyword)
	}
	if res, ok := last.resultAfter(deny.ID); !ok || !strings.Contains(res, denyFix) {
		t.Errorf("deny: the denied call's result %q does not carry lore's reason %q", res, denyFix)
	}
	if w.exists(denySideEffect) {
		t.Errorf("deny: %q ran (its side effect %s exists)", denyCommand, denySideEffect)
	}
	w.captured(capturedMarker)

	cl.run("--resume", "latest", "-p", "[e2e:resume] Run make check once more.")
	steps = geminiSteps(srv, sc)
	res := gat(t, steps, "resume", 0)
	if !strings.Contains(res.messages(), "touch forbidden-ran") {
		t.Errorf("resume: the resumed request lacks the earlier conversation")
	}
	if !strings.Contains(res.all(), protocolMarker) {
		t.Errorf("resume: no protocol in the resumed session")
	}
	if n := count(gat(t, steps, "resume", 1).messages(), lessonFix); n < 1 {
		t.Errorf("resume: after the matching call the lesson is not in the context")
	}
}

// geminiSubagent: a sub-agent started with invoke_agent gets the lesson
// in its own context although the main thread had it first, and its
// #lesson block is captured. Measured with 0.61.0: the sub-agent's hook
// calls carry the parent's session_id and no agent_id (they come between
// BeforeTool and AfterTool of invoke_agent; there is no SubagentStart or
// SubagentStop), and its chat is ~/.gemini/tmp/<slug>/chats/<session
// id>/<agent id>.jsonl.
func geminiSubagent(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupGemini(w)
	sc := script{
		"agent": {bash(lessonCommand), call("invoke_agent", map[string]any{"agent_name": "generalist",
			"prompt": "[e2e:sub] Run make check in this repository and report."}), say("The sub-agent finished.")},
		"sub": {bash(lessonCommand), say(lessonBlock(subCapMarker))},
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
	cl := newGemini(t, cb, w, srv)
	cl.run("-p", "[e2e:agent] Run make check, then have a sub-agent run it too.")
	steps := geminiSteps(srv, sc)
	if n := count(gat(t, steps, "agent", 1).messages(), lessonFix); n != 1 {
		t.Errorf("main thread: the lesson is in its context %d times after its call, want 1", n)
	}
	sub := gat(t, steps, "sub", 1)
	if strings.Contains(sub.messages(), "[e2e:agent]") {
		t.Fatalf("the sub-agent's request holds the main prompt: not its own context")
	}
	if n := count(sub.messages(), lessonFix); n != 1 {
		t.Errorf("sub-agent: the lesson is in its own context %d times after its matching call, want 1", n)
	}
	if !eventually(15*time.Second, func() bool { return w.draftWith(subCapMarker) }) {
		t.Errorf("sub-agent capture: no draft from the sub-agent's #lesson block 15 s after the session")
		w.captured(subCapMarker)
	}
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
			w := newWorld(t)
			setupGemini(w)
			sc := script{"tools": {tc.call, say("done")}}
			srv := newStandIn(t, geminiHandler(geminiScript(sc)))
			cl := newGemini(t, cb, w, srv)
			cl.run("-p", "[e2e:tools] Look at the API reference.")
			if n := count(gat(t, geminiSteps(srv, sc), "tools", 1).messages(), pathFix); n != 1 {
				t.Errorf("tools: after %s on %s the path lesson is in the context %d times, want 1", tc.name, pathDir, n)
			}
		})
	}
}

// geminiClone: in a teammate's fresh clone the first tool call of the
// first session is denied by an enforce: deny lesson.
func geminiClone(t *testing.T, cb clientBin) {
	w := newWorld(t)
	setupGemini(w)
	w.clone()
	deny := bash(cloneCommand)
	sc := script{"clone": {deny, say("done")}}
	srv := newStandIn(t, geminiHandler(geminiScript(sc)))
	cl := newGemini(t, cb, w, srv)
	cl.run("-p", "[e2e:clone] Push the branch.")
	if w.exists(denySideEffect) {
		t.Errorf("fresh clone: %q ran (its side effect %s exists)", cloneCommand, denySideEffect)
	}
	after := gat(t, geminiSteps(srv, sc), "clone", 1)
	res, _ := after.resultAfter(deny.ID)
	if !strings.Contains(res, denyFix) {
		t.Errorf("fresh clone: the first call's result %q does not carry lore's reason %q", res, denyFix)
	} else if !strings.Contains(after.messages(), lessonTitle) {
		t.Errorf("deny: the other lesson that matched the denied call (%q) did not reach the model", lessonTitle)
	}
}

// geminiInstall: `lore init --agent gemini` then `--uninstall` leave the
// user's .gemini/settings.json byte for byte as it was, and a run after
// the uninstall sends nothing of lore to the model.
func geminiInstall(t *testing.T, cb clientBin) {
	w := newWorld(t)
	w.setupRepo()
	for _, empty := range []string{"{}\n", "{\"hooks\":{}}\n"} {
		w.roundTrip("gemini", ".gemini/settings.json", empty)
	}
	const user = "{\n\t\"ui\": {\n\t\t\"theme\": \"Default\"\n\t},\n\t\"hooks\": {\n\t\t\"AfterAgent\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}\n\t\t]\n\t}\n}\n"
	w.write(".gemini/settings.json", user)
	if out, err := w.try("lore", "init", "--agent", "gemini"); err != nil {
		t.Fatalf("lore init --agent gemini: %v\n%s", err, out)
	}
	got := w.read(".gemini/settings.json")
	if !strings.Contains(got, "lore-hook gemini BeforeTool") || !strings.Contains(got, `"command": "true"`) {
		t.Fatalf("install: .gemini/settings.json lacks lore's hook or lost the user's:\n%s", got)
	}
	srv := newStandIn(t, geminiHandler(func(c *gconv) reply { return say("done") }))
	cl := newGemini(t, cb, w, srv)
	cl.run("-p", "[e2e:x] hello")
	if !anyRequest(srv, protocolMarker) {
		t.Errorf("install: the installed hooks sent no protocol to the model")
	}
	w.run("lore", "init", "--agent", "gemini", "--uninstall")
	if got := w.read(".gemini/settings.json"); got != user {
		t.Errorf("uninstall: .gemini/settings.json differs from the user's\n--- got\n%s\n--- want\n%s", got, user)
	}
	srv2 := newStandIn(t, geminiHandler(func(c *gconv) reply { return say("done") }))
	cl.srv = srv2
	cl.run("-p", "[e2e:x] hello again")
	if anyRequest(srv2, protocolMarker) {
		t.Errorf("uninstall: lore's protocol still reached the model")
	}
}
