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
// (docs/design.md, Prevention before the call), in a new user's
// repository. In session 1 the agent reports three mistakes in #lesson
// blocks, and the hooks' background scan alone turns them into drafts.
// The user promotes them with `lore promote <slug>`: the hang (the draft
// proposes enforce: once) and the slow build (drafted at low priority,
// which promote must raise for it to fire) as they are, the release with
// --enforce once. In session 2 the slow build's lesson reaches the
// model right after its first matching call, once; the first matching
// call of each held lesson does not run, and its result, which the model
// reads before its next call, is the lesson; the same call issued again
// runs.

// loopLesson is one mistake: the #lesson block the model writes about it
// and the call of session 2 that repeats it. Each command appends a line
// to its own file, so the file's lines count the runs.
type loopLesson struct {
	trigger, mistake, fix, tags string
	command, ran, output        string   // output: what the command prints when it runs
	priority                    string   // the block's priority ("" for none)
	proposesOnce                bool     // the draft proposes enforce: once (a hang)
	enforce                     []string // what the user adds to lore promote
}

var (
	hangLesson = loopLesson{
		trigger: "make serve", tags: "tool:make, severity:hang",
		mistake: "make serve runs the dev server in the foreground and never returns, so the session hung until it was killed",
		fix:     "E2E-LOOP-HANG start the server in the background with make serve-bg",
		command: "echo ran >> serve-ran && make serve", ran: "serve-ran", output: "E2E-SERVE-STARTED",
		proposesOnce: true,
	}
	releaseLesson = loopLesson{
		trigger: "make release", tags: "tool:make",
		mistake: "make release published a build of a tree with uncommitted changes",
		fix:     "E2E-LOOP-RELEASE commit or stash first, then release from a clean tree",
		command: "echo ran >> release-ran && make release", ran: "release-ran", output: "E2E-RELEASE-PUBLISHED",
		enforce: []string{"--enforce", "once"},
	}
	// At low priority its trigger cannot reach the threshold: lore
	// promote must raise it for it to fire.
	docsLesson = loopLesson{
		trigger: "make docs", tags: "tool:make", priority: "low",
		mistake: "make docs rebuilds every page and took ten minutes for a one-line change",
		fix:     "E2E-LOOP-DOCS build only the changed pages with make docs-changed",
		command: "echo ran >> docs-ran && make docs", ran: "docs-ran", output: "E2E-DOCS-BUILT",
	}
	loopLessons = []loopLesson{hangLesson, releaseLesson, docsLesson}
)

const (
	loopFirst  = "[e2e:loop1] Start the dev server, publish the release, then build the docs."
	loopSecond = "[e2e:loop2] Build the docs twice, start the dev server, then publish the release."
)

// block is the lesson in the protocol's form (protocol.Text); its
// priority line only when it has one, as an agent skips the optional key.
func (l loopLesson) block() string {
	b := "#lesson\ntool: Bash\ntrigger: " + l.trigger + "\nmistake: " + l.mistake + "\nfix: " + l.fix + "\ntags: " + l.tags + "\n"
	if l.priority != "" {
		b += "priority: " + l.priority + "\n"
	}
	return b + "#/lesson\n"
}

// loopWorld is a new user's repository: a Makefile, one commit, then
// `lore init --agent` and a commit of what it wrote, nothing else.
func (k client) loopWorld(t *testing.T) *world {
	w := newWorld(t)
	w.run("git", "init", "-q", "-b", "main")
	w.write("README.md", "# app\n")
	w.write("Makefile", "serve:\n\t@echo "+hangLesson.output+"\nrelease:\n\t@echo "+releaseLesson.output+"\ndocs:\n\t@echo "+docsLesson.output+"\n")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "first")
	w.run("lore", "init", "--agent", k.agent)
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lore: "+k.agent+" hooks")
	return w
}

// loop: session 1 makes the drafts, the user promotes them, session 2
// shows what each promotion does.
func (k client) loop(t *testing.T, cb clientBin) {
	w := k.loopWorld(t)
	blocks := "All three are done.\n"
	for _, l := range loopLessons {
		blocks += "\n" + l.block()
	}
	first := script{"loop1": {bash("make serve"), bash("make release"), bash("make docs"), say(blocks)}}
	k.ask(t, cb, w, k.serve(t, first), loopFirst)
	drafts := w.loopDrafts(t)
	w.promoteAll(t, drafts)

	docs1, docs2 := bash(docsLesson.command), bash(docsLesson.command)
	hang1, hang2 := bash(hangLesson.command), bash(hangLesson.command)
	// The model takes the release's lesson and changes its call; it
	// issues the hang's call again as it was.
	rel1, rel2 := bash(releaseLesson.command), bash(releaseChanged)
	second := script{"loop2": {docs1, docs2, hang1, hang2, rel1, rel2, say("done")}}
	srv := k.serve(t, second)
	k.ask(t, cb, w, srv, loopSecond)
	steps := k.steps(srv, second)
	if len(steps) == 0 {
		t.Fatalf("session 2: the client sent no model request with tools to the stand-in")
	}
	if all := at(t, steps, "loop2", 0).all(); strings.Contains(all, "E2E-LOOP-") {
		t.Errorf("session 2: a lesson with a command trigger is in the context before any call")
	}
	checkContextLesson(t, w, steps)
	k.checkHold(t, w, steps, hangLesson, 3, hang1, hang2, drafts[0].id)
	k.checkHold(t, w, steps, releaseLesson, 5, rel1, rel2, drafts[1].id)
	checkStats(t, w, drafts)
}

// releaseChanged is the release call as the model changes it after the
// hold: it checks the tree is clean first.
var releaseChanged = "git status --short && " + releaseLesson.command

// checkStats: after the sessions, lore stats says what each lesson did,
// from the hook's ledger: the context lesson fired, the hang was held
// and the same call repeated, the release held and the call changed.
func checkStats(t *testing.T, w *world, drafts []loopDraft) {
	t.Helper()
	var r struct {
		Calls   int
		Spawned *int
		Items   []struct {
			ID    string
			Fired *int
			Held  *struct{ Total, Changed, Repeated int }
		}
	}
	out := w.run("lore", "stats", "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("lore stats --json: %v\n%s", err, out)
	}
	if r.Spawned == nil || *r.Spawned < 6 {
		t.Errorf("lore stats: the ledger saw %v tool calls, want the 6 of session 2 at least:\n%s", r.Spawned, out)
	}
	want := map[string][3]int{ // fired, held: changed, repeated
		drafts[0].id: {1, 0, 1}, // the hang: held, then the same call
		drafts[1].id: {1, 1, 0}, // the release: held, then a changed call
		drafts[2].id: {1, 0, 0}, // the docs: context once
	}
	for _, it := range r.Items {
		w, ok := want[it.ID]
		if !ok {
			continue
		}
		delete(want, it.ID)
		if it.Fired == nil || *it.Fired != w[0] || it.Held == nil || it.Held.Changed != w[1] || it.Held.Repeated != w[2] {
			t.Errorf("lore stats: %s fired %v held %+v, want fired %d, changed %d, repeated %d", it.ID, it.Fired, it.Held, w[0], w[1], w[2])
		}
	}
	for id := range want {
		t.Errorf("lore stats does not list %s:\n%s", id, out)
	}
}

// loopDraft is a draft the hooks wrote: its slug (what lore review shows
// and lore promote takes), id and path.
type loopDraft struct {
	slug, id, path string
	priority       int
}

// loopDrafts waits, with a bound, for the hooks' background scan to write
// a draft of each #lesson block, and returns them in loopLessons' order.
func (w *world) loopDrafts(t *testing.T) []loopDraft {
	t.Helper()
	const wait = 20 * time.Second
	var drafts []loopDraft
	eventually(wait, func() bool {
		drafts = w.draftsFor(loopLessons)
		return len(drafts) == len(loopLessons)
	})
	if len(drafts) != len(loopLessons) {
		t.Fatalf("capture: after %s the hooks' scan wrote %d drafts for the %d #lesson blocks; transcripts holding them: %q",
			wait, len(drafts), len(loopLessons), w.filesWith(hangLesson.fix))
	}
	return drafts
}

// draftsFor finds the draft of each lesson through `lore review --json`,
// as a tool would; nil until there is one for each.
func (w *world) draftsFor(ls []loopLesson) []loopDraft {
	out, err := w.try("lore", "review", "--json")
	if err != nil {
		return nil
	}
	var all []struct {
		ID, Path, Fix string
		Priority      int
	}
	if json.Unmarshal([]byte(out), &all) != nil {
		return nil
	}
	var found []loopDraft
	for _, l := range ls {
		for _, d := range all {
			if strings.Contains(d.Fix, l.fix) {
				found = append(found, loopDraft{slug: strings.TrimSuffix(filepath.Base(d.Path), ".md"), id: d.ID, path: d.Path, priority: d.Priority})
				break
			}
		}
	}
	if len(found) != len(ls) {
		return nil
	}
	return found
}

// promoteAll checks what the drafts propose and promotes each as the user
// would, after `lore review`: `lore promote <slug>`, with --enforce once
// for the lesson the draft does not propose it for.
func (w *world) promoteAll(t *testing.T, drafts []loopDraft) {
	t.Helper()
	review := w.run("lore", "review")
	for i, d := range drafts {
		l := loopLessons[i]
		if !strings.Contains(review, d.slug) {
			t.Errorf("lore review does not list the draft %s:\n%s", d.slug, review)
		}
		if l.priority == "low" && d.priority > 3 {
			t.Errorf("draft %s: priority %d, want low as its block says (promote would have nothing to raise)", d.slug, d.priority)
		}
		proposed := strings.Contains(w.read(d.path), "\nenforce: once\n")
		if proposed != l.proposesOnce {
			t.Errorf("draft %s: enforce: once proposed %v, want %v (tags %q)", d.slug, proposed, l.proposesOnce, l.tags)
		}
		args := append([]string{"promote", d.slug}, l.enforce...)
		t.Logf("lore %s:\n%s", strings.Join(args, " "), w.run("lore", args...))
	}
}

// checkContextLesson: the lesson promoted without enforce reaches the
// model right after the first matching call and is there once after the
// second; both calls ran.
func checkContextLesson(t *testing.T, w *world, steps []step) {
	t.Helper()
	l := docsLesson
	if n := count(at(t, steps, "loop2", 1).messages(), l.fix); n != 1 {
		t.Errorf("promote: after the first %q the promoted lesson is in the context %d times, want 1 (lore promote made a lesson that never fires)", l.command, n)
	}
	if n := count(at(t, steps, "loop2", 2).messages(), l.fix); n != 1 {
		t.Errorf("once per context: after two matching calls the lesson is in the context %d times, want 1", n)
	}
	if n := w.lines(l.ran); n != 2 {
		t.Errorf("context lesson: %q ran %d times, want 2 (a lesson as context never stops a call)", l.command, n)
	}
}

// checkHold: with enforce: once the first matching call (the model's turn
// n-1) does not run, and its result in the model's next request carries
// the lesson's fix and the record line naming the item as held (in the
// hook log where the client would show it escaped); the same call issued
// again runs, and the lesson stays in the context once.
func (k client) checkHold(t *testing.T, w *world, steps []step, l loopLesson, n int, first, again reply, id string) {
	t.Helper()
	held := at(t, steps, "loop2", n).toolResult(first.ID)
	if !strings.Contains(held, l.fix) {
		t.Errorf("hold %s: the fix %q is not in the held call's result, the model's next request (result %q)", l.trigger, l.fix, held)
	}
	if strings.Contains(held, l.output) {
		t.Errorf("hold %s: the first %q ran (its output %s is in its result)", l.trigger, l.command, l.output)
	}
	record, where := held, "the held call's result"
	if k.recordInLog {
		record, where = w.read(hookLog), hookLog
	}
	if !strings.Contains(record, `"held":["`+id+`"]`) {
		t.Errorf("hold %s: the record line in %s does not name %s as held:\n%s", l.trigger, where, id, record)
	}
	next := at(t, steps, "loop2", n+1)
	if res := next.toolResult(again.ID); !strings.Contains(res, l.output) {
		t.Errorf("hold %s: the same call issued again did not run (result %q)", l.trigger, res)
	}
	if c := count(next.messages(), l.fix); c != 1 {
		t.Errorf("hold %s: after the call ran, the lesson is in the context %d times, want 1", l.trigger, c)
	}
	if c := w.lines(l.ran); c != 1 {
		t.Errorf("hold %s: %q ran %d times, want 1 (held once, then run)", l.trigger, l.command, c)
	}
}

// hookLog is where lore's hooks log, and keep the record line for a
// client that would show it escaped.
const hookLog = ".lore/cache/hook.log"

// lines counts the lines of a side-effect file (0 when it does not exist).
func (w *world) lines(rel string) int {
	if !w.exists(rel) {
		return 0
	}
	return strings.Count(w.read(rel), "\n")
}
