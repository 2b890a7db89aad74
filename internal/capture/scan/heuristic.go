package scan

import (
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/lazyre"
)

// Tier 2 looks at a window of events after each tool error and at the
// words of each turn. The windows are in events, not lines.
const (
	retryWindow = 30 // events after an error in which its retries and fix are looked for
	diagWindow  = 6  // events after an error in which a diagnosis is looked for
	nearby      = 25 // a self-report this many events after an incident covers it
)

// blockRef is where a Tier 1 block was found and what it is about.
type blockRef struct {
	event   int
	tool    string
	trigger string
}

var (
	correctionRe = lazyre.New(`(?i)(^\s*(no|nope|wrong|stop|wait)\b[\s,.!:;-]|\b(that'?s|this is|it'?s) (not right|wrong|incorrect|not what i (asked|wanted|meant))|\byou (forgot|missed|didn'?t|did not|broke|shouldn'?t have|should not have|ignored)\b|\b(don'?t|do not) forget\b|\bi (said|told you|asked you)\b|\bremember to\b|\bmake sure (you|to)\b)`)
	politeNoRe   = lazyre.New(`(?i)^\s*no (worries|problem|rush|need|hurry|thanks)\b|\bi know i (said|asked|told you)\b`)
)

// lookPrograms only look around: their failures (a missing file, no
// match) are how an agent explores, not mistakes worth a lesson.
var lookPrograms = map[string]bool{"ls": true, "cat": true, "find": true, "grep": true, "rg": true, "head": true,
	"tail": true, "which": true, "pwd": true, "test": true, "stat": true, "file": true, "wc": true, "echo": true, "tree": true}

func exploring(e Event) bool {
	if e.Tool == "Glob" || e.Tool == "Grep" || e.Tool == "Read" {
		return true
	}
	return e.Tool == "Bash" && lookPrograms[prog(e.Text)]
}

// harnessError is any other error the agent harness raised about the
// call itself (a sibling call failed, a file does not exist, the user
// rejected it), not a lesson about the project; the kinds worth one
// (clientKinds) are read before.
func harnessError(t string) bool {
	t = strings.TrimSpace(t)
	for _, p := range []string{"<tool_use_error>", "The user doesn't want to proceed"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// tier2 finds heuristic incidents in one session's events. blocks holds the
// event indexes of Tier 1 blocks, which cover incidents near them.
// resumed says the events continue a session read before (a user turn is
// then never the session's first).
// cwd is the folder the session ran in.
func tier2(evs []Event, blocks []blockRef, resumed bool, cwd string) []Candidate {
	f := &finder{evs: evs, blocks: blocks, used: make([]bool, len(evs)), sawAssistant: resumed, lastInc: -1, lastEnd: -1, cwd: cwd}
	for i, e := range evs {
		if e.Kind == AssistantText || e.Kind == ToolCall {
			f.sawAssistant = true
		}
		if f.used[i] {
			continue
		}
		var c *Candidate
		switch e.Kind {
		case ToolCall:
			c = f.toolCall(i)
		case UserText:
			c = f.userText(i)
		case AssistantText:
			c = f.assistantText(i)
		}
		if c != nil && !f.covered(i, c) {
			f.out = append(f.out, *c)
		}
	}
	return f.out
}

// finder is tier2's walk through one session's events.
type finder struct {
	evs          []Event
	blocks       []blockRef
	used         []bool // events already part of an error incident
	sawAssistant bool
	lastInc      int // the last error incident in out
	lastEnd      int // and its last event
	cwd          string
	out          []Candidate
}

// covered says a Tier 1 block soon after an incident covers it: one that
// names the same tool and the same program (or file); words without a
// command are covered only by a block in the same message.
func (f *finder) covered(i int, c *Candidate) bool {
	for _, b := range f.blocks {
		if b.event < i || b.event > i+nearby || (b.tool != "" && c.Tool != "" && b.tool != c.Tool) {
			continue
		}
		if blockCovers(b, i, c) {
			return true
		}
	}
	return false
}

// blockCovers says block b, near enough and of the same tool, covers the
// incident c at event i.
func blockCovers(b blockRef, i int, c *Candidate) bool {
	switch {
	case b.event == i, c.Trigger != "" && b.trigger == "":
		return true
	case c.Trigger == "": // a correction or statement: only its own message
		return false
	case c.Tool == "Bash":
		return prog(b.trigger) == prog(c.Trigger)
	default:
		return strings.Contains(b.trigger, filepath.Base(c.Trigger))
	}
}

// result is the index of call i's result, -1 when none follows soon.
func (f *finder) result(i int) int {
	for j := i + 1; j < len(f.evs) && j <= i+retryWindow; j++ {
		if f.evs[j].Kind == ToolResult && f.evs[j].ID == f.evs[i].ID {
			return j
		}
	}
	return -1
}

// toolCall is the error incident that starts at the call i, if it failed
// in a way worth a lesson.
func (f *finder) toolCall(i int) *Candidate {
	r := f.result(i)
	if r < 0 || !f.evs[r].Error {
		return nil
	}
	if k := clientErrorKind(f.evs[r].Text); k != nil {
		return f.clientError(i, r, k)
	}
	if harnessError(f.evs[r].Text) || (exploring(f.evs[i]) && !f.evs[r].Timeout) {
		return nil
	}
	c, end := f.errorIncident(i, r)
	f.lastEnd = end
	if c != nil && !f.covered(i, c) {
		f.lastInc = len(f.out)
	}
	return c
}

// userText is a user's correction or explicit rule.
func (f *finder) userText(i int) *Candidate {
	e := f.evs[i]
	head := clip(e.Text, 400)
	if f.sawAssistant && correctionRe().MatchString(head) && !politeNoRe().MatchString(head) {
		return correction(f.evs, i)
	}
	if explicitPhrases.in(head) {
		return explicit(f.evs, i, e)
	}
	return nil
}

// assistantText is the assistant stating a rule, unless it comes right
// after an error incident: then it is that incident's lesson, one draft
// with the words as its evidence.
func (f *finder) assistantText(i int) *Candidate {
	e := f.evs[i]
	if !explicitPhrases.in(e.Text) || HasBlock(e.Text) {
		return nil
	}
	c := explicit(f.evs, i, e)
	if c != nil && f.lastInc >= 0 && i <= f.lastEnd+diagWindow && about(c.Fix, &f.out[f.lastInc]) {
		inc := &f.out[f.lastInc]
		inc.signals.explicit = true
		inc.Evidence = append(inc.Evidence, c.Evidence...)
		return nil
	}
	return c
}

// about says a statement is about the incident inc: it names the
// incident's program (with its subcommand: "git push", not just "git").
func about(statement string, inc *Candidate) bool {
	p := prog(inc.Trigger)
	if inc.Tool != "Bash" {
		p = inc.Tool
	}
	return p != "" && strings.Contains(strings.ToLower(statement), strings.ToLower(p))
}

// incident is what followed a failed call.
type incident struct {
	call, res Event
	attempts  []int  // the call and its retries, as event indexes
	fixed     int    // the retry that finally succeeded, or -1
	named     int    // a call the error itself named ("Run 'mix format' to fix") that then succeeded, or -1
	edited    string // the file edited between the error and the fix, relative to the session's folder
	diag      string // the assistant's diagnosis
	errLine   string // the line of the output that says what went wrong
}

// errorIncident follows a failed call: retries of the same command, the
// call that fixed it (the one the error named, a changed retry, or an
// edit before the same run passed), or the assistant's diagnosis. end is
// the last event of the incident.
func (f *finder) errorIncident(i, r int) (c *Candidate, end int) {
	in := incident{call: f.evs[i], res: f.evs[r]}
	in.attempts, in.fixed = f.retries(i, r)
	end = r
	for _, a := range in.attempts {
		f.used[a] = true
		end = max(end, f.result(a))
	}
	in.diag = f.diagnosis(r, in.fixed)
	in.errLine = errorLine(in.res.Text)
	stop := in.fixed
	if stop < 0 {
		stop = r + diagWindow
	}
	in.named = f.namedFix(r, stop, in.res.Text, program(in.call))
	in.edited = f.editedFile(r, stop)
	if in.skip(f.evs, i) {
		return nil, end
	}
	c = &Candidate{Tier: 2, Tool: in.call.Tool, Trigger: failedStep(command(in.call.Text), in.res.Text), Line: in.call.Line}
	if !in.classify(c) {
		return nil, end
	}
	c.Evidence = append(c.Evidence, Evidence{Line: in.call.Line, Text: in.call.Tool + ": " + clip(command(in.call.Text), 300)},
		Evidence{Line: in.res.Line, Text: "error: " + clip(firstOf(in.errLine, firstLines(literalNewlines(in.res.Text), 3)), 300)})
	in.describe(c, f.evs)
	return c, end
}

// retries are the call i (whose result is r) and the later calls of the
// same tool on the same thing, up to the first that succeeded (fixed, or
// -1).
func (f *finder) retries(i, r int) (attempts []int, fixed int) {
	call := f.evs[i]
	attempts = []int{i}
	for j := r + 1; j < len(f.evs) && j <= r+retryWindow; j++ {
		if f.evs[j].Kind != ToolCall || f.evs[j].Tool != call.Tool || !related(call.Text, f.evs[j].Text) {
			continue
		}
		if f.used[j] || call.Tool == "Bash" && !sameOperation(call.Text, f.evs[j].Text) {
			continue // another incident's call, or the program run on something else
		}
		rj := f.result(j)
		if rj < 0 {
			break
		}
		attempts = append(attempts, j)
		if !f.evs[rj].Error {
			return attempts, j
		}
	}
	return attempts, -1
}

// namedFix is the first shell call after the error r (up to stop) that
// the error's own text names as the way out ("Run 'mix format' to fix")
// and that succeeded, or -1. failing is the failed call's program.
func (f *finder) namedFix(r, stop int, errText, failing string) int {
	low := strings.ToLower(errText)
	for j := r + 1; j < len(f.evs) && j <= stop; j++ {
		e := f.evs[j]
		if e.Kind != ToolCall || e.Tool != "Bash" {
			continue
		}
		p := strings.ToLower(prog(e.Text))
		if p == "" || p == strings.ToLower(failing) || !names(low, p) {
			continue
		}
		if rj := f.result(j); rj >= 0 && !f.evs[rj].Error {
			return j
		}
	}
	return -1
}

// names says an error text tells the reader to run program p: quoted, or
// after "run" or "use".
func names(low, p string) bool {
	for _, pre := range []string{"'", "`", "\"", "run ", "use "} {
		if strings.Contains(low, pre+p) {
			return true
		}
	}
	return false
}

// editedFile is the first file an Edit or Write changed between the error
// r and stop, relative to the session's folder, or "".
func (f *finder) editedFile(r, stop int) string {
	for j := r + 1; j < len(f.evs) && j <= stop; j++ {
		e := f.evs[j]
		if e.Kind != ToolCall || (e.Tool != "Edit" && e.Tool != "Write" && e.Tool != "NotebookEdit") || e.Text == "" {
			continue
		}
		if rj := f.result(j); rj < 0 || f.evs[rj].Error {
			continue
		}
		if f.cwd != "" && strings.HasPrefix(e.Text, strings.TrimRight(f.cwd, "/")+"/") {
			return e.Text[len(strings.TrimRight(f.cwd, "/"))+1:]
		}
		return e.Text
	}
	return ""
}

// diagnosis is the assistant's words between the error r and the call
// that worked (words after the fix are about what comes next), trimmed
// to the diagnosis itself.
func (f *finder) diagnosis(r, fixed int) string {
	last := r + diagWindow
	if fixed >= 0 {
		last = min(last, fixed)
	}
	for j := r + 1; j < len(f.evs) && j <= last; j++ {
		if f.evs[j].Kind != AssistantText {
			continue
		}
		if s := trimDiagnosis(sentenceMatching(f.evs[j].Text, diagnosisPhrases)); s != "" {
			return s
		}
	}
	return ""
}

// nextStep starts a sentence that says what the agent will do next, not
// what went wrong.
var nextStep = []string{"let me", "let's", "i'll", "i will", "now ", "next", "so let me", "i need to", "i'm going to"}

// trimDiagnosis keeps the sentences of a diagnosis line from the one that
// names the cause, up to the first that announces the next step ("Let me
// fix the pattern:") or introduces what follows (ends with ':').
func trimDiagnosis(line string) string {
	var keep []string
	for _, s := range sentences(fromPhrase(line, diagnosisPhrases)) {
		low := strings.ToLower(strings.TrimSpace(s))
		if hasAnyPrefix(low, nextStep) || strings.HasSuffix(low, ":") {
			break
		}
		keep = append(keep, strings.TrimSpace(s))
	}
	return strings.Join(keep, " ")
}

// fromPhrase is line from the sentence holding the first of ps on
// ("Pushed. Lesson learned: ..." is "Lesson learned: ...").
func fromPhrase(line string, ps phrases) string {
	sents := sentences(line)
	for k, s := range sents {
		if ps.index(lowerASCII(s)) != nil {
			return strings.TrimSpace(strings.Join(sents[k:], " "))
		}
	}
	return line
}

// sentences splits text after each '.', '!' or '?' that a space follows.
func sentences(text string) []string {
	var out []string
	from := 0
	for k := 0; k+1 < len(text); k++ {
		if strings.IndexByte(".!?", text[k]) >= 0 && text[k+1] == ' ' {
			out = append(out, text[from:k+1])
			from = k + 2
		}
	}
	if from < len(text) {
		out = append(out, text[from:])
	}
	return out
}

func hasAnyPrefix(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// fixKind is what resolved the failure.
type fixKind int

const (
	noFix      fixKind = iota
	namedCmd           // the command the error named
	changedCmd         // a changed retry of the same operation
	editFix            // an edit, then the same run passed (or nothing ran yet)
)

// fix says what resolved the failure: the command the error named, a
// changed retry, an edit of a file, or nothing known.
func (in *incident) fix(evs []Event) fixKind {
	switch {
	case in.named >= 0:
		return namedCmd
	case in.fixed >= 0 && !rerunOf(in.call.Text, evs[in.fixed].Text) && !rerunOf(evs[in.fixed].Text, in.call.Text):
		return changedCmd // (one step of the failed chain run alone passed: the failure was in another step)
	case in.edited != "":
		return editFix
	case in.fixed >= 0 && evs[in.fixed].Text != in.call.Text && !rerunOf(evs[in.fixed].Text, in.call.Text):
		return changedCmd // steps chained before the same run, and no edit: those steps fixed it
	}
	return noFix
}

// skip says the incident (starting at event i) teaches nothing.
func (in *incident) skip(evs []Event, i int) bool {
	if in.res.Timeout {
		return false
	}
	switch k := in.fix(evs); {
	case in.fixed < 0 && in.same(evs) && len(in.attempts) >= 3:
		return true // the same failure repeated, never fixed: no fix to teach
	case in.diag == "" && exitOnlyRe().MatchString(in.errLine):
		return true // no error text, no diagnosis: nothing says what went wrong
	case k == namedCmd || k == changedCmd:
		return false
	case in.diag != "":
		return false
	case k == editFix && in.fixed >= 0 && diagCodeRe().MatchString(in.errLine):
		return false // a linter's finding fixed in the code: the project's rule
	case in.fixed >= 0:
		return true // fixed in the code (or passed again) with no word of why: debugging, not a lesson
	}
	return false
}

// same says every attempt ran the very same command.
func (in *incident) same(evs []Event) bool {
	for _, a := range in.attempts {
		if evs[a].Text != in.call.Text {
			return false
		}
	}
	return true
}

// classify sets c's signal and title, false when the incident is none of
// a hang, a retry, a fix or a diagnosis.
func (in *incident) classify(c *Candidate) bool {
	p := program(in.call)
	if in.call.Tool == "Bash" {
		p = prog(c.Trigger) // the step that failed
	}
	switch {
	case in.res.Timeout:
		c.Signal, c.signals.hang = SignalHang, true
		c.Title = titleFrom(p + " hangs or times out: " + in.errLine)
	case len(in.attempts) >= 3:
		c.Signal, c.signals.retry = SignalRetry, true
		c.Title = titleFrom(p + " failed " + itoa(len(in.attempts)-boolInt(in.fixed >= 0)) + " times: " + in.errLine)
	case in.diag != "":
		c.Signal, c.signals.diagnosis = SignalSelfDiagnosis, true
		c.Title = titleFrom(in.diag)
	case in.named >= 0 || in.fixed >= 0:
		c.Signal = SignalErrorFix
		c.Title = titleFrom(p + " fails: " + in.errLine)
	default:
		return false
	}
	return true
}

// describe fills in c's mistake, fix, signals and tags. A diagnosis is
// the mistake on its own (the error is in the evidence); a fix that is
// not known leaves the fix empty and the confidence at its base.
func (in *incident) describe(c *Candidate, evs []Event) {
	c.Mistake = firstOf(in.diag, in.errLine)
	if c.Signal != SignalSelfDiagnosis && in.diag != "" && in.errLine != "" && in.diag != in.errLine {
		c.Mistake = in.errLine + "\n" + in.diag
	}
	switch in.fix(evs) {
	case namedCmd:
		c.Fix = command(evs[in.named].Text)
		if rerunOf(c.Trigger, c.Fix) {
			c.Fix = changeSaid(c.Trigger, c.Fix) // `mise trust && mise run fmt`: what the error said, then the run
		}
		c.Evidence = append(c.Evidence, Evidence{Line: evs[in.named].Line, Text: "fixed by: " + clip(command(evs[in.named].Text), 300)})
	case changedCmd:
		c.Fix = changeSaid(c.Trigger, command(evs[in.fixed].Text))
		c.Evidence = append(c.Evidence, Evidence{Line: evs[in.fixed].Line, Text: "fixed by: " + clip(command(evs[in.fixed].Text), 300)})
	case editFix:
		c.Fix = "Edit `" + in.edited + "`"
		if in.fixed >= 0 {
			c.Fix += "; the same run then passed"
			c.Evidence = append(c.Evidence, Evidence{Line: evs[in.fixed].Line, Text: "passed after the edit: " + clip(command(evs[in.fixed].Text), 300)})
		}
	}
	confirmed := c.Fix != "" && (in.named >= 0 || in.fixed >= 0)
	c.signals.errorFix, c.signals.fixConfirmed = confirmed, confirmed
	c.signals.causal = in.diag != "" && causalPhrases.in(in.diag)
	c.signals.dataLoss = dataLossPhrases.in(in.res.Text)
	c.Tags = in.tags()
}

// tags are the program's name and, for a hang, its severity.
func (in *incident) tags() []string {
	var tags []string
	if p, _, _ := strings.Cut(program(in.call), " "); p != "" && in.call.Tool == "Bash" {
		tags = append(tags, "tool:"+p) // one word, so `lore aggregate` groups git add with git push
	}
	if in.res.Timeout {
		tags = append(tags, "severity:hang")
	}
	return tags
}

func correction(evs []Event, i int) *Candidate {
	e := evs[i]
	c := &Candidate{Tier: 2, Signal: SignalCorrection, Line: e.Line, Mistake: clip(strings.TrimSpace(e.Text), 300)}
	c.signals.userCorrected = true
	c.signals.causal = causalPhrases.in(e.Text)
	c.signals.dataLoss = dataLossPhrases.in(e.Text)
	if call := lastCall(evs, i); call != nil {
		c.Tool, c.Trigger = call.Tool, call.Text
	}
	c.Evidence = append(c.Evidence, Evidence{Line: e.Line, Text: "user: " + c.Mistake})
	c.answer(evs[i+1:])
	c.Title = titleFrom("User correction: " + firstLines(e.Text, 1))
	return c
}

// lastCall is the tool call among the ten events before event i, or nil.
func lastCall(evs []Event, i int) *Event {
	for j := i - 1; j >= 0 && j >= i-10; j-- {
		if evs[j].Kind == ToolCall {
			return &evs[j]
		}
	}
	return nil
}

// answer takes a correction's fix from the assistant's first words in the
// events after it (up to the user's next turn), confirmed by a tool call
// that then succeeded.
func (c *Candidate) answer(after []Event) {
	for _, e := range after[:min(len(after), retryWindow)] {
		switch e.Kind {
		case AssistantText:
			if c.Fix == "" {
				c.Fix = clip(firstLines(e.Text, 3), 300)
				c.Evidence = append(c.Evidence, Evidence{Line: e.Line, Text: "assistant: " + c.Fix})
			}
		case ToolResult:
			if !e.Error && c.Fix != "" {
				c.signals.fixConfirmed = true
			}
		case UserText:
			return
		}
	}
}

func explicit(evs []Event, i int, e Event) *Candidate {
	s := fromPhrase(sentenceMatching(e.Text, explicitPhrases), explicitPhrases)
	if s == "" {
		return nil
	}
	who := "assistant: "
	if e.Kind == UserText {
		who = "user: "
	}
	c := &Candidate{Tier: 2, Signal: SignalExplicit, Line: e.Line, Fix: s, Title: titleFrom(s)}
	c.signals.explicit = true
	c.signals.userCorrected = e.Kind == UserText
	c.signals.causal = causalPhrases.in(s)
	if call := lastCall(evs, i); call != nil {
		c.Tool = call.Tool
	}
	c.Evidence = append(c.Evidence, Evidence{Line: e.Line, Text: who + s})
	return c
}

// sentenceMatching returns the line of text around the first phrase.
func sentenceMatching(text string, ps phrases) string {
	loc := ps.index(lowerASCII(text))
	if loc == nil {
		return ""
	}
	start := strings.LastIndexAny(text[:loc[0]], "\n") + 1
	end := strings.IndexByte(text[loc[0]:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += loc[0]
	}
	return clip(strings.Trim(strings.TrimSpace(text[start:end]), "*_#> -"), 300)
}

var (
	errorWordRe = lazyre.New(`(?i)\b(error|errors|fatal|failed|failure|fails|cannot|can't|could not|couldn't|not found|no such|denied|invalid|refused|unknown|missing|not a|is not|does not|did not|undefined|exception|panic|traceback|ignored|conflict|rejected)\b`)
	noiseLineRe = lazyre.New(`(?i)^(npm warn|warning:|checking \d+ source files?|> |wall time:|output:|exit code:?\s*\d+$|error: exit code \d+$|exit status \d+$|[-=_*~#┃│|]+$)`)
	diagCodeRe  = lazyre.New(`^\[[A-Z]{1,12}\]`) // [FORMAT], [D], [E]: a linter's finding
)

// literalNewlines turns the literal \n some hooks print (JSON-escaped output
// passed through as text) into line breaks.
func literalNewlines(s string) string {
	if !strings.Contains(s, `\n`) {
		return s
	}
	return strings.ReplaceAll(s, `\n`, "\n")
}

// errorLine is the line of a tool's output that says what went wrong: the
// first that names an error or a linter's finding, past warnings, progress
// ("Checking 1 source file ...") and exit codes; a line ending in ':' takes
// the next line with it.
func errorLine(out string) string {
	lines := outputLines(out)
	for i, l := range lines {
		if !errorWordRe().MatchString(l) && !diagCodeRe().MatchString(l) {
			continue
		}
		if strings.HasSuffix(l, ":") && i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "hint:") {
			l += " " + lines[i+1]
		}
		return l
	}
	return firstLines(out, 1)
}

// outputLines are the first 40 lines of a tool's output that are neither
// empty nor noise, trimmed of blanks and box-drawing borders.
func outputLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(literalNewlines(out), "\n") {
		l = strings.TrimSpace(strings.TrimLeft(l, "┃│ \t"))
		if l != "" && !noiseLineRe().MatchString(l) {
			lines = append(lines, l)
		}
		if len(lines) == 40 {
			break
		}
	}
	return lines
}

// command is the first line of a shell command with any heredoc body
// left out: `git commit -m "$(cat <<'EOF' ...` is the call, not its message.
func command(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	first, rest, _ := strings.Cut(cmd, "\n")
	if i := strings.Index(first, "<<"); i >= 0 && !strings.HasPrefix(first[i:], "<<<") { // <<< is a here-string, kept
		head := strings.TrimRight(first[:i], " ")
		if j := strings.LastIndex(head, "$(cat"); j >= 0 {
			head = strings.TrimRight(head[:j], " \"'")
		}
		head = strings.TrimSpace(head) + " …"
		if after := heredocTail(rest); after != "" {
			head += " " + after
		}
		return head
	}
	return cmd
}

// heredocTail is what follows the heredoc's closing line ("EOF\n)\" && git
// push" keeps "&& git push").
func heredocTail(rest string) string {
	ls := strings.Split(rest, "\n")
	for i := len(ls) - 1; i >= 0; i-- {
		t := strings.TrimSpace(ls[i])
		if strings.HasPrefix(t, ")\"") || strings.HasPrefix(t, ")'") {
			return strings.TrimSpace(strings.TrimLeft(t, ")\"'"))
		}
	}
	return ""
}

var exitOnlyRe = lazyre.New(`^(Error: )?(Exit code|exit status) \d+$`)

// firstLines returns the first n non-empty lines, leaving out a bare
// "Exit code N" that says nothing about the failure.
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" && !(n < 5 && exitOnlyRe().MatchString(t) && strings.Count(s, "\n") > 0) {
			out = append(out, t)
			if len(out) == n {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// related: two calls of one tool address the same thing: the same program
// (after env assignments, sudo and a leading cd) or the same file name.
// changeSaid is the fix of a changed retry: what changed from the failed
// command (failed) to the one that worked (fixed), then the command, so
// a reviewer reads "Leave out --no-stat: git show 8312232" rather than a
// 400-character git add to compare by eye. Past six changed words the
// command speaks for itself.
func changeSaid(failed, fixed string) string {
	cmd := fixed
	if r := []rune(cmd); len(r) > 160 {
		cmd = string(r[:159]) + "…"
	}
	if steps := strings.Split(fixed, "&&"); len(steps) > 1 && rerunOf(failed, fixed) {
		return "Run `" + strings.TrimSpace(steps[0]) + "` first: " + cmd
	}
	wa, wb := cmdWords(failed), cmdWords(sameStep(fixed, prog(failed)))
	var wrap string
	if p := firstWord(wa); p != "" && firstWord(wb) != p {
		for k := 1; k < len(wb); k++ {
			if wb[k] == p {
				wrap, wb = strings.Join(wb[:k], " "), wb[k:]
				break
			}
		}
	}
	removed, added := minus(wa, wb), minus(wb, wa)
	var said []string
	switch {
	case wrap != "":
		said = append(said, "Run it through `"+wrap+"`")
	case len(removed)+len(added) == 0 || len(removed)+len(added) > 6:
		return fixed
	}
	switch {
	case len(removed) > 0 && len(added) > 0:
		said = append(said, "use "+strings.Join(added, " ")+" instead of "+strings.Join(removed, " "))
	case len(removed) > 0:
		said = append(said, "leave out "+strings.Join(removed, " "))
	case len(added) > 0 && wrap == "":
		said = append(said, "add "+strings.Join(added, " "))
	}
	s := strings.Join(said, ", ")
	return strings.ToUpper(s[:1]) + s[1:] + ": " + cmd
}

// sameStep is the step of a chained command that runs program p (the
// whole command when none does).
func sameStep(cmd, p string) string {
	for _, st := range strings.Split(cmd, "&&") {
		if prog(st) == p {
			return st
		}
	}
	return cmd
}

// cmdWords are a command's words without output redirections.
func cmdWords(cmd string) []string {
	var out []string
	for _, w := range strings.Fields(cmd) {
		if w != "2>&1" && w != "2>/dev/null" {
			out = append(out, w)
		}
	}
	return out
}

func firstWord(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	return ws[0]
}

// minus are the words of a not in b, in a's order; a path is compared
// by its base name (the same file named from another folder).
func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, w := range b {
		in[filepath.Base(w)] = true
	}
	var out []string
	for _, w := range a {
		if !in[filepath.Base(w)] {
			out = append(out, w)
		}
	}
	return out
}

// sameOperation says the call b runs the failed command a on the same
// thing: a names no operand (git push), or b names one of a's operands
// (a file, a ref, a task) as given or by base name. `git diff
// docs/architecture/` after `git diff main...HEAD --no-stat` failed is
// another look, not a retry.
func sameOperation(a, b string) bool {
	oa := operands(a)
	if len(oa) == 0 {
		return true
	}
	ob := operands(b)
	for _, x := range oa {
		for _, y := range ob {
			if x == y || filepath.Base(x) == filepath.Base(y) {
				return true
			}
		}
	}
	return false
}

// operands are the words of a shell command's steps that are neither its
// program, a flag, a redirection nor a cut heredoc: what it runs on.
func operands(cmd string) []string {
	var out []string
	for _, step := range strings.Split(command(cmd), "&&") {
		step, _, _ = strings.Cut(step, "|")
		for _, w := range afterProgram(step) {
			if !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "<>&") && w != "…" {
				out = append(out, strings.Trim(w, `"'`))
			}
		}
	}
	return out
}

// afterProgram are a shell step's words after its program (and its
// subcommand, as prog names them); none when the step runs no program.
func afterProgram(step string) []string {
	words, p := strings.Fields(step), strings.Fields(prog(step))
	if len(p) == 0 {
		return nil
	}
	for i, w := range words {
		if filepath.Base(w) == p[0] && i+len(p) <= len(words) {
			return words[i+len(p):]
		}
	}
	return nil
}

// failedStep is the step of a chained command (`git add x && git commit
// -m ...`) that the error is about: the first whose subcommand or program
// the error names ("Pre-commit validation failed" is the commit's); the
// whole command when it is one step or none is named.
func failedStep(cmd, errText string) string {
	steps := strings.Split(cmd, "&&")
	if len(steps) < 2 || strings.ContainsAny(cmd, "|;") {
		return cmd
	}
	low := strings.ToLower(errText)
	for _, st := range steps {
		p := prog(st)
		word := p[strings.LastIndexByte(p, ' ')+1:]
		if len(word) > 2 && strings.Contains(low, strings.ToLower(word)) {
			return strings.TrimSpace(st)
		}
	}
	return cmd
}

// rerunOf says the call b runs the failing command a again, its output
// shown differently (2>&1, a trailing | tail or | head), alone or as one
// step of a chain (`mix compile && mix credo ...` after an edit runs the
// failed credo again: the edit was the fix).
func rerunOf(a, b string) bool {
	core := func(s string) string {
		s = strings.ReplaceAll(command(s), "2>&1", "") // a commit's message is not the run
		for _, cut := range []string{"| tail", "|tail", "| head", "|head"} {
			if i := strings.Index(s, cut); i >= 0 {
				s = s[:i]
			}
		}
		return strings.Join(strings.Fields(s), " ")
	}
	want := core(a)
	if core(b) == want {
		return true
	}
	for _, step := range strings.Split(b, "&&") {
		if core(step) == want {
			return true
		}
	}
	return false
}

func related(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	pa, pb := prog(a), prog(b)
	if pa != "" && pa == pb {
		return true
	}
	if pa != "" && !strings.ContainsAny(command(a), "&|;") && contains(progs(b), pa) {
		return true // `git commit` retried as `git add x && git commit`
	}
	return filepath.Base(a) == filepath.Base(b)
}

// progs are the programs of every step of a shell command.
func progs(cmd string) []string {
	var out []string
	for _, seg := range strings.Split(cmd, "&&") {
		if p := prog(seg); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func program(e Event) string {
	if e.Tool != "Bash" {
		return e.Tool
	}
	return prog(e.Text)
}

// prog is the program a shell command runs, with its subcommand for the
// tools where that is what matters (go test, npm run, git push).
func prog(cmd string) string {
	for _, seg := range strings.FieldsFunc(cmd, isCommandSep) {
		f := strings.Fields(seg)
		for len(f) > 0 && runPrefix(f[0]) {
			f = f[1:]
		}
		if len(f) == 0 || setupCommands[f[0]] {
			continue
		}
		p := filepath.Base(f[0])
		if len(f) > 1 && subcommands[p] && !strings.HasPrefix(f[1], "-") {
			p += " " + f[1]
		}
		return p
	}
	return ""
}

func isCommandSep(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' }

// runPrefix is a word before the program: an env assignment, sudo, env,
// time, timeout or its duration.
func runPrefix(w string) bool {
	return strings.Contains(w, "=") || runWrappers[w] || isNumber(w)
}

// runWrappers run the program that follows them.
var runWrappers = map[string]bool{"sudo": true, "env": true, "time": true, "timeout": true}

// setupCommands prepare the shell rather than run the program.
var setupCommands = map[string]bool{"cd": true, "export": true, "source": true, ".": true}

var subcommands = map[string]bool{"go": true, "git": true, "npm": true, "pnpm": true, "yarn": true, "cargo": true,
	"mix": true, "docker": true, "kubectl": true, "bun": true, "uv": true, "poetry": true, "make": true, "python": true, "python3": true, "bd": true, "mise": true, "gh": true}

// isNumber: digits, maybe with a unit of seconds or minutes (timeout 30s).
func isNumber(s string) bool { return s != "" && strings.Trim(s, "0123456789sm") == "" }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
