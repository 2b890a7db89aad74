//go:build e2e

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The scenarios every client plays and the assertions they share. A client
// file describes its client as a client value (how to install lore for it,
// serve it a script, read the turns it sent and ask it a prompt) and keeps
// only the scenarios and checks that are its own.

// view is one request an agent sent for its own turn, read the same way
// whatever the API (conv, rconv, gconv).
type view interface {
	all() string      // everything the model is shown: system prompt and conversation
	messages() string // the conversation
	msgs() []msg      // user text and model turns, for the script
	// toolResult is what the model was shown for the call id: its result
	// and, where the API puts hook context after it, that too; "" when the
	// call is not answered in this request.
	toolResult(id string) string
}

// step is one agent turn with its place in the script.
type step struct {
	c   view
	tag string
	n   int
}

// requestsOf is the requests srv received so far that parse reads and keep
// holds for.
func requestsOf[C view](srv *standIn, parse func(*request) (C, bool), keep func(C) bool) []view {
	var out []view
	for _, r := range srv.requests() {
		if c, ok := parse(r); ok && keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// at returns the first request of script tag after n assistant turns.
func at(t *testing.T, steps []step, tag string, n int) view {
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
func lastOf(steps []step, tag string) view {
	var last view
	for _, s := range steps {
		if s.tag == tag {
			last = s.c
		}
	}
	return last
}

// scripted answers each agent turn with the step of its script.
func scripted[C interface{ msgs() []msg }](sc script) func(C) reply {
	return func(c C) reply { _, _, r := sc.step(c.msgs()); return r }
}

// client is one agent client as the shared scenarios drive it.
type client struct {
	agent    string // lore init --agent NAME, LORE_E2E_NAME
	settings string // the project file lore's hooks go into
	hook     string // a hook command lore installs there
	user     string // a user's own settings in that file, kept byte for byte
	tells    string // a word lore init must say on install ("" for none)
	// recordInLog: lore keeps the record line out of what the model reads
	// (the client would show it HTML-escaped) and writes it to the hook log.
	recordInLog bool
	// serve starts a stand-in answering the agent's turns from sc.
	serve func(t *testing.T, sc script) *standIn
	// turns are the requests for the agent's own turns (tools offered, no
	// side or compaction requests) srv received so far.
	turns func(srv *standIn) []view
	// ask runs the client headless on one prompt against srv.
	ask func(t *testing.T, cb clientBin, w *world, srv *standIn, prompt string)
}

// steps are the agent's turns srv received so far, placed in sc.
func (k client) steps(srv *standIn, sc script) []step {
	var out []step
	for _, c := range k.turns(srv) {
		tag, n, _ := sc.step(c.msgs())
		out = append(out, step{c, tag, n})
	}
	return out
}

// world is a throwaway user with the repository set up and lore installed
// for the client and committed, as a user would.
func (k client) world(t *testing.T) *world {
	w := newWorld(t)
	w.setupRepo()
	w.run("lore", "init", "--agent", k.agent)
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lore: "+k.agent+" hooks")
	return w
}

type scenario struct {
	name string
	run  func(t *testing.T, cb clientBin)
}

// suite runs the client's own scenarios, then the shared loop, clone and
// install, for every installed version.
func (k client) suite(t *testing.T, own ...scenario) {
	all := append(own, scenario{"loop", k.loop}, scenario{"clone", k.clone}, scenario{"org", k.org}, scenario{"install", k.install})
	for _, cb := range clientBins(t, k.agent) {
		t.Run(cb.Version, func(t *testing.T) {
			for _, s := range all {
				t.Run(s.name, func(t *testing.T) { s.run(t, cb) })
			}
		})
	}
}

// clone: in a teammate's fresh clone the first tool call of the first
// session is denied by an enforce: deny lesson, and the other lesson that
// matched the call reaches the model.
func (k client) clone(t *testing.T, cb clientBin) {
	w := k.world(t)
	w.clone()
	k.deniedFirst(t, cb, w, denied{tag: "clone", prompt: "Push the branch.", command: cloneCommand,
		sideEffect: denySideEffect, reason: denyFix, beside: lessonTitle})
}

// org: a guard and a lesson of an organisation store, which the project's
// committed config names and `lore sync` fetched (compiled once into the
// source's part), act in a teammate's fresh clone as the project's own
// would: the first call that matches both is denied before it runs, with
// the guard's fix as the reason and the lesson beside it.
func (k client) org(t *testing.T, cb clientBin) {
	w := k.world(t)
	w.orgSource()
	w.clone()
	w.run("lore", "sync")
	k.deniedFirst(t, cb, w, denied{tag: "org", prompt: "Apply the infrastructure.", command: orgCommand,
		sideEffect: orgSideEffect, reason: orgDenyFix, beside: orgFix})
}

// denied is a session whose first call a guard denies: the command, the
// file it would create, the guard's reason and a text of the other
// lesson the call matched.
type denied struct{ tag, prompt, command, sideEffect, reason, beside string }

// deniedFirst plays d's session and checks the call never ran, and that
// the guard's reason and the other lesson reached the model after it.
func (k client) deniedFirst(t *testing.T, cb clientBin, w *world, d denied) {
	deny := bash(d.command)
	sc := script{d.tag: {deny, say("done")}}
	srv := k.serve(t, sc)
	k.ask(t, cb, w, srv, "[e2e:"+d.tag+"] "+d.prompt)
	if w.exists(d.sideEffect) {
		t.Errorf("%s: %q ran (its side effect %s exists)", d.tag, d.command, d.sideEffect)
	}
	after := at(t, k.steps(srv, sc), d.tag, 1)
	if res := after.toolResult(deny.ID); !strings.Contains(res, d.reason) {
		t.Errorf("%s: lore's reason %q is not at the model after the first call (result %q)", d.tag, d.reason, res)
	} else if !strings.Contains(after.messages(), d.beside) {
		t.Errorf("%s: the other lesson that matched the denied call (%q) did not reach the model", d.tag, d.beside)
	}
}

// install: `lore init --agent` then `--uninstall` leave the user's settings
// file byte for byte as it was, and a session after the uninstall sends
// nothing of lore to the model.
func (k client) install(t *testing.T, cb clientBin) {
	w := newWorld(t)
	w.setupRepo()
	for _, empty := range []string{"{}\n", "{\"hooks\":{}}\n"} {
		w.roundTrip(k.agent, k.settings, empty)
	}
	w.write(k.settings, k.user)
	out := w.run("lore", "init", "--agent", k.agent)
	if !strings.Contains(strings.ToLower(out), k.tells) {
		t.Errorf("install: lore init --agent %s does not say %q to the user:\n%s", k.agent, k.tells, out)
	}
	got := w.read(k.settings)
	var parsed map[string]any
	if err := json.Unmarshal([]byte(got), &parsed); err != nil || !strings.Contains(got, k.hook) || !strings.Contains(got, `"command": "true"`) {
		t.Fatalf("install: %s lacks lore's hook or lost the user's (%v):\n%s", k.settings, err, got)
	}
	srv := k.serve(t, script{})
	k.ask(t, cb, w, srv, "[e2e:x] hello")
	if !anyRequest(srv, protocolMarker) {
		t.Errorf("install: the installed hooks sent no protocol to the model")
	}
	w.run("lore", "init", "--agent", k.agent, "--uninstall")
	if got := w.read(k.settings); got != k.user {
		t.Errorf("uninstall: %s differs from the user's\n--- got\n%s\n--- want\n%s", k.settings, got, k.user)
	}
	srv2 := k.serve(t, script{})
	k.ask(t, cb, w, srv2, "[e2e:x] hello again")
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

// pathLesson: a file tool's call on a path a lesson names (what: the tool)
// gets the path lesson right after the call, once.
func (k client) pathLesson(t *testing.T, cb clientBin, what string, call func(w *world) reply) {
	w := k.world(t)
	sc := script{"paths": {call(w), say("done")}}
	srv := k.serve(t, sc)
	k.ask(t, cb, w, srv, "[e2e:paths] Read the API reference.")
	if n := count(at(t, k.steps(srv, sc), "paths", 1).messages(), pathFix); n != 1 {
		t.Errorf("paths: after %s on %s the path lesson is in the context %d times, want 1", what, pathDir, n)
	}
}

// The session every client plays: a prompt with a keyword, two matching
// calls, a denied call and a #lesson block; then a resumed session with
// one matching call.
const (
	sessionPrompt = "[e2e:main] Please deploy the widget, then run make check."
	resumePrompt  = "[e2e:resume] Run make check once more."
)

// startSession sets the session up for the client: its world, the call
// lore denies, the script (with the client's own parts, extra) and the
// stand-in serving it.
func (k client) startSession(t *testing.T, extra script) (*world, reply, script, *standIn) {
	w := k.world(t)
	deny := bash(denyCommand)
	sc := script{
		"main":   {bash(lessonCommand), bash(lessonCommand + " && echo again"), deny, say(lessonBlock(capturedMarker))},
		"resume": {bash(lessonCommand), say("resumed and done")},
	}
	for tag, steps := range extra {
		sc[tag] = steps
	}
	return w, deny, sc, k.serve(t, sc)
}

// checkSession: protocol and the prompt's keyword item at the start, the
// lesson right after the first matching call and once after the second,
// the keyword item once and none for a keyword only lore's own text holds,
// and a deny whose side effect never happens and whose result carries
// lore's reason.
func checkSession(t *testing.T, w *world, steps []step, deny reply) {
	t.Helper()
	if len(steps) == 0 {
		t.Fatalf("the client sent no model request with tools to the stand-in")
	}
	first := at(t, steps, "main", 0)
	if !strings.Contains(first.all(), protocolMarker) {
		t.Errorf("protocol: the first request has no %q (SessionStart context)", protocolMarker)
	}
	if !strings.Contains(first.messages(), keywordFix) {
		t.Errorf("keyword: the first request has no %q for the prompt %q", keywordFix, keywordPhrase)
	}
	if n := count(at(t, steps, "main", 1).messages(), lessonFix); n != 1 {
		t.Errorf("lesson: the request after the first %q holds the lesson %d times, want 1", lessonCommand, n)
	}
	last := at(t, steps, "main", 3)
	if n := count(last.messages(), lessonFix); n != 1 {
		t.Errorf("once per context: after two matching calls the lesson is in the context %d times, want 1", n)
	}
	if n := count(last.messages(), keywordFix); n != 1 {
		t.Errorf("keyword: the keyword item is in the context %d times, want 1", n)
	}
	if strings.Contains(last.all(), stripFix) {
		t.Errorf("keyword: %q fired without being in the user's prompt (lore's own text holds it)", stripKeyword)
	}
	if res := last.toolResult(deny.ID); !strings.Contains(res, denyFix) {
		t.Errorf("deny: lore's reason %q is not at the model after the denied call (result %q)", denyFix, res)
	}
	if w.exists(denySideEffect) {
		t.Errorf("deny: %q ran (its side effect %s exists)", denyCommand, denySideEffect)
	}
}

// checkResume: the resumed session gets the protocol at its start and the
// lesson at its matching call.
func checkResume(t *testing.T, steps []step) {
	t.Helper()
	if !strings.Contains(at(t, steps, "resume", 0).all(), protocolMarker) {
		t.Errorf("resume: the resumed session's first request has no protocol")
	}
	if n := count(at(t, steps, "resume", 1).messages(), lessonFix); n < 1 {
		t.Errorf("resume: after the matching call the lesson is not in the context")
	}
}

// The sub-agent scenario: the main thread runs make check and starts a
// sub-agent (how is the client's) whose task runs make check too and ends
// with a #lesson block.
const (
	agentPrompt = "[e2e:agent] Run make check, then have a sub-agent run it too."
	subTask     = "[e2e:sub] Run make check in this repository and report."
)

// subScript is the sub-agent's part of the script.
func subScript() []reply { return []reply{bash(lessonCommand), say(lessonBlock(subCapMarker))} }

// checkSubagent: the main thread and the sub-agent each get the lesson once
// in their own context, and the sub-agent's #lesson block is captured by
// the hooks alone (hook: which), else by a `lore scan` run by hand.
func checkSubagent(t *testing.T, w *world, steps []step, hook string) {
	t.Helper()
	if n := count(at(t, steps, "agent", 1).messages(), lessonFix); n != 1 {
		t.Errorf("main thread: the lesson is in its context %d times after its call, want 1", n)
	}
	sub := at(t, steps, "sub", 1)
	if strings.Contains(sub.messages(), "[e2e:agent]") {
		t.Fatalf("the sub-agent's request holds the main prompt: not its own context")
	}
	if n := count(sub.messages(), lessonFix); n != 1 {
		t.Errorf("sub-agent: the lesson is in its own context %d times after its matching call, want 1 (dedup per agent)", n)
	}
	if !w.capturedByHooks(subCapMarker, 15*time.Second, hook) {
		w.captured(subCapMarker)
	}
}

// capturedByHooks waits for the client's hooks (hook: which), which scan
// transcripts in the background, to turn marker's #lesson block into a
// draft on their own.
func (w *world) capturedByHooks(marker string, wait time.Duration, hook string) bool {
	w.t.Helper()
	if eventually(wait, func() bool { return w.draftWith(marker) }) {
		return true
	}
	w.t.Errorf("capture: no draft from the #lesson block with %s %s after the session (%s)", marker, wait, hook)
	return false
}
