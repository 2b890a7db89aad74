//go:build e2e

package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The loop a user follows, from a known mistake to a prevented repeat
// (docs/design.md, Prevention before the call): in a new user's repository
// the agent reports two mistakes in #lesson blocks; the hooks' background
// scan turns them into drafts; the user promotes one as it is and the
// other with --enforce once; in the next session the first lesson reaches
// the model right after its matching call, once, and the first matching
// call of the second is held with its fix as the reason, then proceeds
// when the model issues it again.
const (
	loopFirst  = "[e2e:loop1] Start the dev server, then build the docs."
	loopSecond = "[e2e:loop2] Build the docs twice, then start the dev server."
	// Each command appends a line to its side-effect file, so the number
	// of lines is the number of times it ran.
	contextCommand = "echo ran >> docs-ran && make docs"
	contextRan     = "docs-ran"
	contextFix     = "E2E-LOOP-CONTEXT build only the changed pages with make docs-changed"
	holdCommand    = "echo ran >> serve-ran && make serve"
	holdRan        = "serve-ran"
	holdFix        = "E2E-LOOP-HOLD start the server in the background with make serve-bg"
	holdOutput     = "E2E-SERVE-STARTED" // what make serve prints when it runs
)

// loopBlocks is the model's reply at the end of the first session: two
// #lesson blocks in the protocol's form (protocol.Text), without a
// priority, as an agent that skips the optional key writes them.
func loopBlocks() string {
	return "Both are done.\n\n" +
		"#lesson\ntool: Bash\ntrigger: make serve\n" +
		"mistake: make serve runs the dev server in the foreground and never returns, so the session hung until it was killed\n" +
		"fix: " + holdFix + "\ntags: tool:make, severity:hang\n#/lesson\n\n" +
		"#lesson\ntool: Bash\ntrigger: make docs\n" +
		"mistake: make docs rebuilds every page and took ten minutes for a one-line change\n" +
		"fix: " + contextFix + "\ntags: tool:make\n#/lesson\n"
}

// loopWorld is a new user's repository: a Makefile, one commit, then
// `lore init --agent` and a commit of what it wrote, nothing else.
func (k client) loopWorld(t *testing.T) *world {
	w := newWorld(t)
	w.run("git", "init", "-q", "-b", "main")
	w.write("README.md", "# app\n")
	w.write("Makefile", "serve:\n\t@echo "+holdOutput+"\ndocs:\n\t@echo E2E-DOCS-BUILT\n")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "first")
	w.run("lore", "init", "--agent", k.agent)
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lore: "+k.agent+" hooks")
	return w
}

// loop: session 1's #lesson blocks become drafts through the hooks alone;
// `lore promote` makes them fire in session 2.
func (k client) loop(t *testing.T, cb clientBin) {
	w := k.loopWorld(t)
	first := script{"loop1": {bash("make serve"), bash("make docs"), say(loopBlocks())}}
	k.ask(t, cb, w, k.serve(t, first), loopFirst)
	hold, ctx := w.loopDrafts(t)

	// The user reads the drafts and promotes them, as lore review says.
	if out := w.run("lore", "review"); !strings.Contains(out, hold.slug) || !strings.Contains(out, ctx.slug) {
		t.Errorf("lore review does not list both drafts (%s, %s):\n%s", hold.slug, ctx.slug, out)
	}
	t.Logf("lore promote %s:\n%s", ctx.slug, w.run("lore", "promote", ctx.slug))
	t.Logf("lore promote %s --enforce once:\n%s", hold.slug, w.run("lore", "promote", hold.slug, "--enforce", "once"))

	c1, c2 := bash(contextCommand), bash(contextCommand)
	h1, h2 := bash(holdCommand), bash(holdCommand)
	second := script{"loop2": {c1, c2, h1, h2, say("done")}}
	srv := k.serve(t, second)
	k.ask(t, cb, w, srv, loopSecond)
	steps := k.steps(srv, second)
	checkContextLesson(t, w, steps)
	checkHold(t, w, steps, h1, h2, hold.id)
}

// loopDraft is a draft the hooks wrote: its slug (what lore review shows
// and lore promote takes) and id.
type loopDraft struct{ slug, id string }

// loopDrafts waits, with a bound, for the hooks' background scan to write
// the drafts of both #lesson blocks, and returns them.
func (w *world) loopDrafts(t *testing.T) (hold, ctx loopDraft) {
	t.Helper()
	const wait = 20 * time.Second
	var ok bool
	eventually(wait, func() bool {
		hold, ok = w.draftFor(holdFix)
		if !ok {
			return false
		}
		ctx, ok = w.draftFor(contextFix)
		return ok
	})
	if hold.slug == "" || ctx.slug == "" {
		t.Fatalf("capture: after %s the hooks' scan wrote no draft for each #lesson block (hold %q, context %q); transcripts holding them: %q",
			wait, hold.slug, ctx.slug, w.filesWith(holdFix))
	}
	return hold, ctx
}

// draftFor finds the draft holding s through `lore review --json`, as a
// tool would.
func (w *world) draftFor(s string) (loopDraft, bool) {
	out, err := w.try("lore", "review", "--json")
	if err != nil {
		return loopDraft{}, false
	}
	var drafts []struct {
		ID, Path, Fix string
	}
	if json.Unmarshal([]byte(out), &drafts) != nil {
		return loopDraft{}, false
	}
	for _, d := range drafts {
		if strings.Contains(d.Fix, s) {
			return loopDraft{slug: strings.TrimSuffix(filepath.Base(d.Path), ".md"), id: d.ID}, true
		}
	}
	return loopDraft{}, false
}

// checkContextLesson: the plainly promoted lesson is not in the context
// before its call, reaches the model right after the first matching call,
// and is there once after the second; both calls ran.
func checkContextLesson(t *testing.T, w *world, steps []step) {
	t.Helper()
	if len(steps) == 0 {
		t.Fatalf("session 2: the client sent no model request with tools to the stand-in")
	}
	if all := at(t, steps, "loop2", 0).all(); strings.Contains(all, contextFix) || strings.Contains(all, holdFix) {
		t.Errorf("session 2: a lesson with a command trigger is in the context before any call")
	}
	if n := count(at(t, steps, "loop2", 1).messages(), contextFix); n != 1 {
		t.Errorf("promote: after the first %q the promoted lesson is in the context %d times, want 1 (lore promote made no lesson that fires)", contextCommand, n)
	}
	if n := count(lastOf(steps, "loop2").messages(), contextFix); n != 1 {
		t.Errorf("once per context: after two matching calls the lesson is in the context %d times, want 1", n)
	}
	if n := w.lines(contextRan); n != 2 {
		t.Errorf("context lesson: %q ran %d times, want 2 (a lesson as context never stops a call)", contextCommand, n)
	}
}

// checkHold: with enforce: once, the first matching call does not run and
// its result, which the model reads before its next call, carries the
// lesson's fix and the record line naming the item as held; the same call
// issued again runs.
func checkHold(t *testing.T, w *world, steps []step, h1, h2 reply, id string) {
	t.Helper()
	held := at(t, steps, "loop2", 3).toolResult(h1.ID)
	if !strings.Contains(held, holdFix) {
		t.Errorf("hold: the fix %q is not in the result of the held call, the model's next request (result %q)", holdFix, held)
	}
	if strings.Contains(held, holdOutput) {
		t.Errorf("hold: the first %q ran (its output %s is in its result)", holdCommand, holdOutput)
	}
	if !strings.Contains(held, `"held":["`+id+`"]`) {
		t.Errorf("hold: the record line in the held call's result does not name %s as held (result %q)", id, held)
	}
	if res := at(t, steps, "loop2", 4).toolResult(h2.ID); !strings.Contains(res, holdOutput) {
		t.Errorf("hold: the same call issued again did not run (result %q)", res)
	}
	if n := w.lines(holdRan); n != 1 {
		t.Errorf("hold: %q ran %d times, want 1 (held once, then run)", holdCommand, n)
	}
	if n := count(lastOf(steps, "loop2").messages(), holdFix); n != 1 {
		t.Errorf("hold: the held lesson is in the context %d times at the end, want 1", n)
	}
}

// lines counts the lines of a side-effect file (0 when it does not exist).
func (w *world) lines(rel string) int {
	if !w.exists(rel) {
		return 0
	}
	return strings.Count(w.read(rel), "\n")
}
