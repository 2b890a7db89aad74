package hooks

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lore-agents/lore/internal/filewrite"
	"github.com/lore-agents/lore/internal/inject/ledger"
	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/inject/protocol"
	"github.com/lore-agents/lore/internal/lorepath"

	"github.com/lore-agents/lore/internal/sysread"
)

// Deadline is how long a hook call may take before it gives up and prints
// `{}`: far under any agent's timeout (Claude Code's default is 60 s), far
// over the few milliseconds a call takes. LORE_HOOK_DEADLINE overrides it.
const Deadline = 2 * time.Second

// Main runs `lore-hook <agent> <event>` and `lore hook <agent> <event>`: the
// agent's JSON on stdin, the agent's JSON on stdout. It never breaks the
// agent: it always returns 0, recovers from panics, prints `{}` on any
// failure or at the deadline, and does nothing when LORE_DISABLE=1.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return serve(args, stdin, stdout, stderr, false)
}

// MainExiting is Main for a process that exits right after the call, the
// lean lore-hook binary: it leaves the manifest mapped for the exit to tear
// down. Unmapping in a multi-threaded process costs a cross-CPU TLB
// shootdown, measured at ~3% of a whole hook call here; exit pays it anyway.
func MainExiting(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return serve(args, stdin, stdout, stderr, true)
}

func serve(args []string, stdin io.Reader, stdout, stderr io.Writer, exiting bool) int {
	growStack()
	if os.Getenv("LORE_DISABLE") == "1" {
		io.WriteString(stdout, "{}\n")
		return 0
	}
	deadline := Deadline
	if d, err := time.ParseDuration(os.Getenv("LORE_HOOK_DEADLINE")); err == nil && d > 0 {
		deadline = d
	}
	h := &handler{stdin: stdin, stderr: stderr, deadline: time.Now().Add(deadline), span: deadline, exiting: exiting}
	// The call runs on this goroutine; a watchdog timer answers {} if it is
	// still running at the deadline. Whoever moves state first writes
	// stdout, so exactly one answer is printed. (A goroutine and a select
	// cost a fresh process two cross-thread handoffs, ~50 us a call.)
	var state atomic.Int32 // 0 running, 1 answered, 2 timed out
	answered := make(chan struct{})
	watchdog := time.AfterFunc(deadline, func() {
		if state.CompareAndSwap(0, 2) {
			h.logf("deadline of %v passed: printed {}", deadline)
			io.WriteString(stdout, "{}\n")
			close(answered)
			abort(0)
		}
	})
	defer watchdog.Stop()
	out := h.safeRun(args)
	if state.CompareAndSwap(0, 1) {
		io.WriteString(stdout, out)
	} else {
		<-answered // the watchdog is printing {}: let it finish
	}
	return 0
}

// growStack grows the goroutine's stack once, while it is shallow, to
// what a call needs. The stack is 4 KiB here and a call needs 8-16 (compiled
// items and results are hundreds of bytes, held in frames of 1-3 KiB);
// each doubling deep in the call copied every frame, adjusting its
// pointers through the runtime's tables: 90 K of the 880 K instructions of
// a steady-state call, and 0.03x of its time. Growing here copies a few
// frames. (CockroachDB's growstack does the same for its request
// goroutines.) A 16 KiB frame makes the stack 32 KiB: a 16 KiB stack comes
// from the runtime's pool, which first carves a fresh span into stacks and
// touches each page of it, and a 32 KiB frame made a 64 KiB stack and
// zeroed 8 pages for it (each 0.015x of a steady-state call). growAt, read
// at run time, keeps the compiler from dropping the array.
//
//go:noinline
func growStack() byte {
	var pad [16 << 10]byte
	pad[growAt] = 1
	return pad[len(pad)-1-growAt]
}

var growAt = 0

// abort ends the process once the watchdog has answered, abandoning a call
// stuck in a system call. Tests replace it to observe the deadline.
var abort = os.Exit

// safeRun is run with panics turned into {} (and logged).
func (h *handler) safeRun(args []string) (out string) {
	// A manifest truncated in place while mapped (by hand, or a tool that
	// does not write by rename) faults on the next read: a SIGBUS that
	// would kill the process with exit 2, which Claude Code takes for a
	// block. As a panic it is recovered below like any other.
	debug.SetPanicOnFault(true)
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(interface{ Addr() uintptr }); ok {
				h.logf("memory fault at %#x: the manifest changed under the hook (it is replaced by rename, never rewritten in place)", f.Addr())
			} else {
				h.logf("panic: %v\n%s", r, debug.Stack())
			}
			out = "{}\n"
		}
	}()
	return h.run(args)
}

// handler is one hook call.
type handler struct {
	mu       sync.Mutex
	exiting  bool // the process ends after this call: leave the manifest mapped
	stdin    io.Reader
	stderr   io.Writer
	deadline time.Time
	span     time.Duration // the whole call's deadline, from its start
	agent    *Agent
	event    string        // as the agent named it
	root     string        // the work tree, "" when none was found
	led      *ledger.Entry // what the call appends to the ledger; nil: nothing
	// buildFailed: the build this call started exited with an error. Set
	// before the build's exited channel closes, read only after.
	buildFailed bool
}

func (h *handler) run(args []string) string {
	ev, in, ok := h.start(args)
	if !ok {
		return "{}\n"
	}
	cwd := in.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	h.mu.Lock()
	h.root = findRoot(cwd)
	h.mu.Unlock()
	var sess *session
	if in.SessionID != "" {
		s := openSession(in.SessionID, h.agentID(ev, in))
		sess = &s
		h.notePassedOver(s)
	}
	r := h.dispatch(ev, in, cwd, sess)
	h.keep(sess) // the answer is decided: the watchdog still bounds the write
	r.event = h.event
	if r.record != "" && h.agent.EscapesHTML {
		h.logRecord(r.record)
		r.record = ""
	}
	return h.agent.render(r)
}

// start reads the agent and event the hook was called for and its input;
// !ok (logged) when it cannot serve the call.
func (h *handler) start(args []string) (Event, *input, bool) {
	if len(args) != 2 {
		h.logf("usage: lore-hook <agent> <event> (agents: claude, codex, gemini)")
		return "", nil, false
	}
	h.mu.Lock()
	h.agent = AgentNamed(strings.ToLower(args[0]))
	h.mu.Unlock()
	if h.agent == nil {
		h.logf("unknown agent %q (agents: claude, codex, gemini)", args[0])
		return "", nil, false
	}
	h.mu.Lock()
	h.event = args[1]
	h.mu.Unlock()
	ev, ok := h.agent.Event(h.event)
	if !ok {
		h.logf("%s: unknown event %q", h.agent.Name, h.event)
		return "", nil, false
	}
	in, err := readInput(h.stdin)
	if err != nil {
		h.logf("%v", err)
		return "", nil, false
	}
	return ev, in, true
}

// dispatch runs the event's work.
func (h *handler) dispatch(ev Event, in *input, cwd string, sess *session) reply {
	var r reply
	switch ev {
	case SessionStart:
		r = h.sessionStart(in, sess)
	case UserPromptSubmit:
		r = h.userPrompt(in, sess)
	case PreToolUse, PostToolUse:
		r = h.toolUse(ev, in, cwd, sess)
	case SubagentStart:
		r = h.subagentStart(sess)
	case SubagentStop:
		// The sub-agent's own transcript (its #lesson blocks); transcript_path
		// is the parent's, which Stop scans.
		h.scanInBackground(in.AgentTranscriptPath, cwd)
	case Stop, SessionEnd:
		h.scanSessionInBackground(in.TranscriptPath, in.SessionID, cwd)
	case PostCompact:
		// The compacted context (a sub-agent's own, by agent_id) forgot what
		// it was shown: as SessionStart(compact) does for the main thread.
		if sess != nil {
			h.reinject(sess, nil)
			h.led = &ledger.Entry{Event: ledger.Start}
		}
	case PreCompact, Quiet:
		// Nothing heavy: SessionStart(compact) and PostCompact re-inject.
	}
	return r
}

// subagentStart makes the sub-agent's own context's folder now, so its
// tool calls pay no mkdir, and gives it the protocol and the items
// without triggers: its context is its own.
func (h *handler) subagentStart(sess *session) reply {
	if sess != nil {
		if err := sess.ensure(); err != nil {
			h.logf("%v", err)
		}
	}
	text := protocol.Text
	a := h.alwaysOn()
	if always := strings.TrimSpace(a.Text); always != "" {
		text += "\n" + always + "\n"
	}
	h.led = &ledger.Entry{Event: ledger.Start, Injected: a.Injected, Dropped: a.Dropped}
	return reply{context: capText(sanitize(text), maxContext-200), record: record(a.Injected, a.Dropped, nil, a.Origin)}
}

// alwaysOn is the manifest's block of items without triggers (none
// without a fresh manifest: a stale one may show items that changed).
func (h *handler) alwaysOn() manifest.Always {
	m, stale := h.load(startWait, true)
	if m == nil {
		return manifest.Always{}
	}
	defer h.release(m)
	if stale {
		return manifest.Always{}
	}
	a, err := m.AlwaysOn()
	if err != nil {
		h.logf("%v", err)
	}
	return a
}

// release unmaps the manifest, unless the process is about to exit.
func (h *handler) release(m *manifest.Manifest) {
	if !h.exiting {
		m.Close()
	}
}

func (h *handler) sessionStart(in *input, sess *session) reply {
	h.reconcileInBackground("")
	if err := sweep(stateDir(), time.Now()); err != nil {
		h.logf("sweep of old sessions: %v", err)
	}
	m, stale := h.load(startWait, true)
	if m != nil {
		defer h.release(m)
	}
	h.syncInBackground(m, time.Now())
	if sess != nil {
		h.restart(in, sess, m)
	}
	text := protocol.Text
	if sig := h.signals(); sig != "" {
		text += "\n" + sig
	}
	block, a := h.startBlock(m, stale)
	if block != "" {
		text += "\n" + block + "\n"
	}
	h.led = &ledger.Entry{Event: ledger.Start, Injected: a.Injected, Dropped: a.Dropped}
	return reply{context: capText(sanitize(text), maxContext-200), record: record(a.Injected, a.Dropped, nil, a.Origin)}
}

// restart readies the session's folder for a session that starts, is
// cleared, resumed or compacted.
func (h *handler) restart(in *input, sess *session, m *manifest.Manifest) {
	source := in.Source
	if source == "" {
		source = in.Trigger
	}
	switch source {
	case "clear":
		if err := sess.wipe(); err != nil {
			h.logf("%v", err)
		}
	case "compact", "resume":
		// Resumed, the model has the transcript's text but not always
		// the hook context (Claude Code 2.1.197 restores none): high
		// and critical items come back, as after a compaction.
		if m != nil {
			h.reinject(sess, m)
		}
	}
	if err := sess.ensure(); err != nil {
		h.logf("%v", err)
	}
}

// reinject un-claims the context's items with priority >=
// reinjectPriority, so the next matching call prints them again. A nil m
// is opened here.
func (h *handler) reinject(sess *session, m *manifest.Manifest) {
	if m == nil {
		if m, _ = h.load(callWait, false); m == nil {
			return
		}
		defer h.release(m)
	}
	min := m.Settings().ReinjectPriority
	err := sess.unclaim(func(key string) bool {
		id := match.ClaimedID(key)
		p, ok, err := m.Priority(id)
		if err != nil {
			h.logf("%v: re-injecting %s", err, id)
			return true // a lesson twice beats a lesson lost
		}
		return ok && p >= min
	})
	if err != nil {
		h.logf("%v", err)
	}
}

func (h *handler) userPrompt(in *input, sess *session) reply {
	prompt := protocol.StripHookContext(in.Prompt)
	var recent []string
	if sess != nil {
		if err := sess.addPrompt(prompt); err != nil {
			h.logf("%v", err)
		}
		recent = sess.prompts()
	}
	if len(recent) == 0 {
		recent = []string{prompt}
	}
	seen := seenFunc(sess)
	h.led = &ledger.Entry{Event: ledger.Prompt} // kept when the prompt showed or dropped items
	// A prompt stats every item file, as SessionStart does: a lesson a
	// person edited in place between turns (an editor that writes in
	// place changes no folder), even one whose new triggers the old
	// manifest would never match, counts from the next prompt.
	d, ok := h.decide(true, func(m *manifest.Manifest) (match.Decision, error) {
		return match.DecidePrompt(m, prompt, recent, seen)
	})
	if !ok {
		return reply{}
	}
	return h.inject("prompt", d, sess, false)
}

// toolUse runs the pipeline of docs/design.md, Matching and scoring, for one
// tool call. An agent that ignores context before a tool (Gemini) gets only
// denies before it and the lessons after it.
func (h *handler) toolUse(ev Event, in *input, cwd string, sess *session) reply {
	before := ev == PreToolUse
	if !before && h.agent.InjectBeforeTool {
		return reply{} // the lessons came before the call
	}
	tc := h.agent.toolCall(in)
	h.led = callEntry(before, &tc, in)
	if tc.Tool == "" {
		return reply{}
	}
	if before {
		defer h.markIfEditing(tc, cwd) // after deciding: the next call rebuilds
	}
	prompt, recent := lastPrompts(sess)
	c := match.Call{Tool: tc.Tool, Command: tc.Command, Prompt: prompt, Recent: recent}
	seen := seenFunc(sess)
	d, ok := h.decide(false, func(m *manifest.Manifest) (match.Decision, error) {
		return h.decideCall(m, &tc, c, cwd, seen)
	})
	if !ok {
		return reply{}
	}
	return h.inject(tc.Tool+" call", d, sess, before)
}

// lastPrompts returns the session's recent prompts and the latest of them.
func lastPrompts(sess *session) (prompt string, recent []string) {
	if sess == nil {
		return "", nil
	}
	recent = sess.prompts()
	if len(recent) > 0 {
		prompt = recent[len(recent)-1]
	}
	return prompt, recent
}

// decideCall decides a tool call on the manifest: one decision per path
// when it names several (apply_patch).
func (h *handler) decideCall(m *manifest.Manifest, tc *call, c match.Call, cwd string, seen match.Seen) (match.Decision, error) {
	// The added text is read only for a manifest with content
	// triggers for this tool: most stores have none.
	edits := m.Edits(tc.Tool)
	var patch map[string]string
	switch {
	case edits && tc.patch != "":
		patch = patchAdded(tc.patch)
	case edits:
		c.Content = tc.added()
	}
	if len(tc.Paths) == 0 {
		return match.Decide(m, c, seen)
	}
	return h.decidePaths(m, tc.Paths, patch, c, cwd, seen)
}

// decidePaths decides a call that names several files (apply_patch): one
// decision per file, with the text added to it, merged in order and cut
// to maxItems again.
func (h *handler) decidePaths(m *manifest.Manifest, paths []string, patch map[string]string, c match.Call, cwd string, seen match.Seen) (match.Decision, error) {
	var d match.Decision
	for i, p := range paths {
		if i == 8 {
			break
		}
		c.Path = match.RelPath(h.root, cwd, p)
		if patch != nil {
			c.Content = patch[p]
		}
		one, err := match.Decide(m, c, seen)
		if err != nil {
			return match.Decision{}, err
		}
		d = merge(d, one, m.Settings().MaxItems)
	}
	return d, nil
}

// inject claims and renders the decision. before: this is the hook before
// the tool runs, where denies and holds apply; lessons are printed only
// where the agent reads them. A denied or held call runs no after-tool
// hook, so its reason also carries the other lessons that matched it
// (every agent).
func (h *handler) inject(what string, d match.Decision, sess *session, before bool) reply {
	if time.Now().After(h.deadline) {
		return reply{}
	}
	deny := hasDeny(d)
	lessons := !before || h.agent.InjectBeforeTool || deny
	var took, held map[string]bool // what this call claimed; nil: no session
	switch {
	case sess == nil: // no session, no hold: a hold would stop every call
	case lessons:
		// One claim for the lessons and the holds: those this call
		// took are the context's first to match them.
		took = h.claim(d, sess)
		if before && !deny {
			held = holdsIn(d, took)
		}
	case before && !deny:
		// An agent that reads lessons only after the tool (Gemini): the
		// holds are claimed alone, and a call that takes one shows the
		// lessons with it, for a held call has no after-tool hook.
		if held = h.claimHolds(d, sess); len(held) > 0 {
			lessons = true
			took = h.claim(d, sess)
		}
	}
	s := shown(d, before, lessons, took, held)
	h.account(d, s)
	if len(s.injected) == 0 {
		return reply{}
	}
	return injection(what, record(s.injected, ids(d.Dropped), s.held, s.origin), s)
}

// shownSet is what one call shows: the texts of its denies, holds and
// lessons, the ids of everything shown, in order, and those of the
// denies, holds and lessons apart.
type shownSet struct {
	deny, hold, body        []string
	injected                []string
	denied, held, lessonIDs []string
	origin                  [][2]string // id and store of each org or user item shown
}

// shown splits what the call shows: the denies (before the tool only),
// the holds this call took, and the lessons (when lessons, those the call
// took). A held item counts as shown: it is listed under injected too.
func shown(d match.Decision, before, lessons bool, took, held map[string]bool) shownSet {
	var s shownSet
	for _, r := range d.Injected {
		switch {
		case r.Deny && before:
			s.deny = append(s.deny, denyText(r))
			s.denied = append(s.denied, r.ID)
		case r.Deny:
			continue
		case held[r.ID]:
			s.hold = append(s.hold, itemText(r))
			s.held = append(s.held, r.ID)
		case !lessons || took != nil && !took[r.Claim()]:
			continue // not shown before this tool, or a parallel call printed it
		default:
			s.body = append(s.body, itemText(r))
			s.lessonIDs = append(s.lessonIDs, r.ID)
		}
		s.injected = append(s.injected, r.ID)
		if o := manifest.Origin(r.File); o != "" {
			s.origin = append(s.origin, [2]string{r.ID, o})
		}
	}
	return s
}

func hasDeny(d match.Decision) bool {
	for _, r := range d.Injected {
		if r.Deny {
			return true
		}
	}
	return false
}

// claimHolds claims the decision's holds in the context; it returns those
// this call took. The claim is atomic, so of parallel calls in one context
// exactly one holds; a context it cannot record holds nothing (it would
// hold every call).
func (h *handler) claimHolds(d match.Decision, sess *session) map[string]bool {
	var want []string
	for _, r := range d.Injected {
		if r.Hold {
			want = append(want, r.ID)
		}
	}
	if len(want) == 0 {
		return nil
	}
	return h.take(want, sess)
}

// claim claims the decision's lessons in the session; it returns those
// this call took (a parallel call may have printed the others).
func (h *handler) claim(d match.Decision, sess *session) map[string]bool {
	var want []string
	for _, r := range d.Injected {
		if !r.Deny {
			want = append(want, r.Claim())
		}
	}
	return h.take(want, sess)
}

// holdsIn are the holds of the decision among the ids a claim took.
func holdsIn(d match.Decision, took map[string]bool) map[string]bool {
	held := map[string]bool{}
	for _, r := range d.Injected {
		if r.Hold && took[r.ID] {
			held[r.ID] = true
		}
	}
	return held
}

// take claims ids in the context and returns the set it took.
func (h *handler) take(want []string, sess *session) map[string]bool {
	took := map[string]bool{}
	if len(want) > 0 {
		ids, err := sess.claim(want)
		if err != nil {
			h.logf("%v", err)
		}
		for _, id := range ids {
			took[id] = true
		}
	}
	return took
}

func ids(rs []match.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// holdLine opens a held call's reason: the call did not run, and the same
// call again will.
const holdLine = "lore held this call once so you can read this first; if it is still what you want, run the same call again and it will proceed."

// injection is the reply for the denies, holds and lessons of a call: the
// lessons go with the deny or hold reason when there is one.
func injection(what, rec string, s shownSet) reply {
	r := reply{record: rec}
	room := maxContext - len(r.record) - 1
	var text string
	switch {
	case len(s.deny) > 0:
		text = strings.Join(s.deny, "\n\n")
	case len(s.hold) > 0:
		text = holdLine + "\n\n" + strings.Join(s.hold, "\n\n")
	default:
		text = "lore: lessons for this " + what + ":\n\n" + strings.Join(s.body, "\n\n")
		r.context = capText(sanitize(text), room)
		return r
	}
	if len(s.body) > 0 {
		text += "\n\nlore: also for this " + what + ":\n\n" + strings.Join(s.body, "\n\n")
	}
	r.denyReason = capText(sanitize(text), room)
	return r
}

func itemText(r match.Result) string {
	text := strings.TrimSpace(r.Text)
	if text == "" {
		text = r.Title
	}
	if r.Fallback || strings.Contains(text, r.File) {
		return text // the rendered text already names its file
	}
	return text + "\n(source: " + r.File + ")"
}

func denyText(r match.Result) string {
	fix := strings.TrimSpace(r.DenyReason)
	if fix == "" {
		fix = r.Title
	}
	return "Blocked by lore: " + r.Title + "\n" + fix + "\n(source: " + r.File + ")"
}

// merge appends b's results to a's, skipping ids a already has, and keeps
// at most max injected items; the rest count as dropped.
func merge(a, b match.Decision, max int) match.Decision {
	have := map[string]bool{}
	for _, r := range a.Injected {
		have[r.ID] = true
	}
	for _, r := range b.Injected {
		if have[r.ID] {
			continue
		}
		have[r.ID] = true
		if max > 0 && len(a.Injected) >= max && !r.Deny && !r.Hold {
			a.Dropped = append(a.Dropped, r)
			continue
		}
		a.Injected = append(a.Injected, r)
	}
	a.Dropped = appendNew(a.Dropped, b.Dropped, have)
	a.Considered += b.Considered
	return a
}

// appendNew appends the results whose ids are not in have (and adds them).
func appendNew(to, rs []match.Result, have map[string]bool) []match.Result {
	for _, r := range rs {
		if !have[r.ID] {
			have[r.ID] = true
			to = append(to, r)
		}
	}
	return to
}

func seenFunc(sess *session) match.Seen {
	if sess == nil {
		return nil
	}
	// Read the seen file on the first question: a call with no candidate
	// (most calls) never opens it.
	var set map[string]bool
	read := false
	return func(id []byte) bool {
		if !read {
			set, read = sess.seen(), true
		}
		return set[string(id)] // no string made: a map index
	}
}

// findRoot walks up from dir to the folder that holds .lore (stopping at
// the work tree's top, where .git is); "" when there is none.
func findRoot(dir string) string {
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if found, top := loreAt(dir); found || top {
			if found {
				return dir
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// loreAt reports whether dir holds .lore, or else is the top of a work
// tree (it holds .git).
func loreAt(dir string) (found, top bool) {
	if fi, err := os.Stat(filepath.Join(dir, ".lore")); err == nil && fi.IsDir() {
		return true, false
	}
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return false, err == nil
}

// notePassedOver tells the user once, on stderr and in the hook log, that
// the state folder was not theirs alone and where the state goes instead.
func (h *handler) notePassedOver(s session) {
	if s.passed == "" {
		return
	}
	note := filepath.Join(filepath.Dir(s.self), passedOverNote)
	if old, err := sysread.ReadFile(note, -1); err == nil && string(old) == s.passed {
		return
	}
	if s.private() != nil || filewrite.Replace(note, []byte(s.passed), stateWrite) != nil {
		return // the claims will report the folder
	}
	h.logf("the state folder %s (another user may have made it): the session state is kept in %s instead", s.passed, filepath.Dir(s.self))
}

// logf reports a problem on stderr and in .lore/cache/hook.log.
func (h *handler) logf(format string, args ...any) {
	h.log(fmt.Sprintf(format, args...), true)
}

// note writes routine news (a rebuild and its time) to the hook log only:
// the clients show a hook's stderr as its output (docs/clients.md, Trust),
// so stderr is kept for problems.
func (h *handler) note(format string, args ...any) {
	h.log(fmt.Sprintf(format, args...), false)
}

// logRecord keeps an injection's record (docs/design.md, Machine-readable
// interfaces) in the hook log for an agent whose model would see it escaped
// (Gemini CLI): there tools read what lore told the model. Not on stderr:
// nothing failed.
func (h *handler) logRecord(rec string) { h.log(rec, false) }

func (h *handler) log(msg string, stderr bool) {
	// The watchdog may log while the call runs: mu orders it with run's
	// writes of agent, event and root.
	h.mu.Lock()
	defer h.mu.Unlock()
	agent, event := "-", h.event
	if h.agent != nil {
		agent = h.agent.Name
	}
	line := fmt.Sprintf("%s lore-hook %s %s: %s\n", time.Now().UTC().Format(time.RFC3339), agent, event, msg)
	if stderr {
		fmt.Fprint(h.stderr, line)
	}
	if h.root != "" {
		appendLog(h.root, line)
	}
}

// appendLog appends line to the hook log of the work tree at root.
func appendLog(root, line string) {
	path := logPath(root)
	if path == "" {
		return
	}
	if fi, err := os.Lstat(path); err == nil && fi.Size() > 1<<20 {
		_ = filewrite.Rename(path, path+".1", filewrite.Options{}) // keep the log bounded: one old generation
	}
	_ = filewrite.Append(path, []byte(line), filewrite.Options{}) // the log is best effort
}

// logPath is .lore/cache/hook.log, or "" when .lore, cache or the log is
// a symbolic link: a committed link would make every logged problem a
// write outside the repository. (The hook cannot use gitstore.)
func logPath(root string) string {
	if linkedCache(root) {
		return ""
	}
	path := lorepath.Abs(root, lorepath.HookLog)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return ""
	}
	return path
}

// linkedCache reports whether .lore or .lore/cache is a symbolic link (or
// not a folder): a committed link is ignored, neither read nor written
// through, so it cannot feed the hook a manifest from elsewhere either.
func linkedCache(root string) bool {
	for _, p := range []string{lorepath.Abs(root, lorepath.Dir), lorepath.Abs(root, lorepath.Cache)} {
		fi, err := os.Lstat(p)
		if err == nil && !fi.IsDir() || err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}
