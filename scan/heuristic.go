package scan

import (
	"path/filepath"
	"strings"
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
	correctionRe = lazy(`(?i)(^\s*(no|nope|wrong|stop|wait)\b[\s,.!:;-]|\b(that'?s|this is|it'?s) (not right|wrong|incorrect|not what i (asked|wanted|meant))|\byou (forgot|missed|didn'?t|did not|broke|shouldn'?t have|should not have|ignored)\b|\b(don'?t|do not) forget\b|\bi (said|told you|asked you)\b|\bremember to\b|\bmake sure (you|to)\b)`)
	politeNoRe   = lazy(`(?i)^\s*no (worries|problem|rush|need|hurry|thanks)\b|\bi know i (said|asked|told you)\b`)
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

// harnessError is a tool error the agent harness raised about the call
// itself (a stale read, a rejected call), not a lesson about the project.
func harnessError(t string) bool {
	t = strings.TrimSpace(t)
	for _, p := range []string{"<tool_use_error>", "The user doesn't want to proceed", "File has not been read yet",
		"File has been modified since read", "String to replace not found", "Found multiple matches"} {
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
func tier2(evs []Event, blocks []blockRef, resumed bool) []Candidate {
	var out []Candidate
	// A block soon after an incident covers it when it names the same tool
	// and the same program (or file); words without a command are covered
	// only by a block in the same message.
	covered := func(i int, c *Candidate) bool {
		for _, b := range blocks {
			if b.event < i || b.event > i+nearby || (b.tool != "" && c.Tool != "" && b.tool != c.Tool) {
				continue
			}
			switch {
			case b.event == i, c.Trigger != "" && b.trigger == "":
				return true
			case c.Trigger == "": // a correction or statement: only its own message
			case c.Tool == "Bash" && prog(b.trigger) == prog(c.Trigger):
				return true
			case c.Tool != "Bash" && strings.Contains(b.trigger, filepath.Base(c.Trigger)):
				return true
			}
		}
		return false
	}
	result := func(i int) int { // index of call i's result
		for j := i + 1; j < len(evs) && j <= i+retryWindow; j++ {
			if evs[j].Kind == ToolResult && evs[j].ID == evs[i].ID {
				return j
			}
		}
		return -1
	}
	used := make([]bool, len(evs))
	sawAssistant := resumed
	lastInc, lastEnd := -1, -1 // the last error incident in out, and its last event
	for i, e := range evs {
		switch e.Kind {
		case AssistantText, ToolCall:
			sawAssistant = true
		}
		if used[i] {
			continue
		}
		var c *Candidate
		switch e.Kind {
		case ToolCall:
			r := result(i)
			if r < 0 || !evs[r].Error || harnessError(evs[r].Text) || (exploring(e) && !evs[r].Timeout) {
				continue
			}
			c, lastEnd = errorIncident(evs, i, r, result, used)
			if c != nil && !covered(i, c) {
				lastInc = len(out)
			}
		case UserText:
			head := clip(e.Text, 400)
			if sawAssistant && correctionRe.get().MatchString(head) && !politeNoRe.get().MatchString(head) {
				c = correction(evs, i)
			} else if explicitPhrases.in(head) {
				c = explicit(evs, i, e)
			}
		case AssistantText:
			if explicitPhrases.in(e.Text) && !HasBlock(e.Text) {
				c = explicit(evs, i, e)
			}
			// A statement right after an error incident is that incident's
			// lesson: one draft, with the words as its evidence.
			if c != nil && lastInc >= 0 && i <= lastEnd+diagWindow {
				inc := &out[lastInc]
				inc.signals.explicit = true
				inc.Evidence = append(inc.Evidence, c.Evidence...)
				c = nil
			}
		}
		if c == nil || covered(i, c) {
			continue
		}
		out = append(out, *c)
	}
	return out
}

// errorIncident follows a failed call: retries of the same command, the
// changed call that finally succeeded, or the assistant's diagnosis.
func errorIncident(evs []Event, i, r int, result func(int) int, used []bool) (*Candidate, int) {
	call, res := evs[i], evs[r]
	attempts := []int{i}
	fixed := -1
	for j := r + 1; j < len(evs) && j <= r+retryWindow; j++ {
		if evs[j].Kind != ToolCall || evs[j].Tool != call.Tool || !related(call.Text, evs[j].Text) {
			continue
		}
		rj := result(j)
		if rj < 0 {
			break
		}
		attempts = append(attempts, j)
		if !evs[rj].Error {
			fixed = j
			break
		}
	}
	end := r
	for _, a := range attempts {
		used[a] = true
		end = max(end, result(a))
	}
	// The diagnosis is the assistant's words between the error and the
	// call that worked: words after the fix are about what comes next.
	last := r + diagWindow
	if fixed >= 0 {
		last = min(last, fixed)
	}
	diag := ""
	for j := r + 1; j < len(evs) && j <= last; j++ {
		if evs[j].Kind == AssistantText {
			if s := sentenceMatching(evs[j].Text, diagnosisPhrases); s != "" {
				diag = s
				break
			}
		}
	}
	c := &Candidate{Tier: 2, Tool: call.Tool, Trigger: command(call.Text), Line: call.Line}
	c.Evidence = append(c.Evidence, Evidence{call.Line, call.Tool + ": " + clip(command(call.Text), 300)}, Evidence{res.Line, "error: " + clip(firstLines(literalNewlines(res.Text), 3), 300)})
	errLine := errorLine(res.Text)
	timeout := res.Timeout
	same := true // every attempt ran the very same command
	for _, a := range attempts {
		same = same && evs[a].Text == call.Text
	}
	switch {
	case fixed < 0 && same && len(attempts) >= 3 && !timeout:
		return nil, end // the same failure repeated, never fixed: no fix to teach
	case fixed >= 0 && evs[fixed].Text == call.Text && len(attempts) < 3 && !timeout:
		return nil, end // the same command passed once the code changed: a bug fixed, not a way of working
	case fixed >= 0 && !timeout && sameRun(call.Text, evs[fixed].Text) && edited(evs[i:fixed]):
		return nil, end // the same run (its output cut differently) passed after files were edited: a bug fixed
	case !timeout && diag == "" && exitOnlyRe.get().MatchString(errLine):
		return nil, end // no error text, no diagnosis: nothing says what went wrong
	case timeout:
		c.Signal = SignalHang
		c.signals.hang = true
		c.Title = titleFrom(program(call) + " hangs or times out: " + errLine)
	case len(attempts) >= 3:
		c.Signal = SignalRetry
		c.signals.retry = true
		c.Title = titleFrom(program(call) + " failed " + itoa(len(attempts)-boolInt(fixed >= 0)) + " times: " + errLine)
	case fixed >= 0 && evs[fixed].Text != call.Text:
		c.Signal = SignalErrorFix
		c.signals.errorFix = true
		c.Title = titleFrom(program(call) + " fails: " + errLine)
	case diag != "":
		c.Signal = SignalSelfDiagnosis
		c.signals.diagnosis = true
		c.Title = titleFrom(diag)
	default:
		return nil, end
	}
	c.Mistake = firstOf(diag, errLine)
	if diag != "" && errLine != "" && diag != errLine {
		c.Mistake = diag + "\n" + errLine
	}
	if fixed >= 0 {
		c.Fix = command(evs[fixed].Text)
		c.signals.fixConfirmed = true
		c.Evidence = append(c.Evidence, Evidence{evs[fixed].Line, "fixed by: " + clip(c.Fix, 300)})
	}
	c.signals.causal = diag != "" && causalPhrases.in(diag)
	c.signals.dataLoss = dataLossPhrases.in(res.Text)
	if p, _, _ := strings.Cut(program(call), " "); p != "" && call.Tool == "Bash" {
		c.Tags = append(c.Tags, "tool:"+p) // one word, so `lore aggregate` groups git add with git push
	}
	if timeout {
		c.Tags = append(c.Tags, "severity:hang")
	}
	return c, end
}

func correction(evs []Event, i int) *Candidate {
	e := evs[i]
	c := &Candidate{Tier: 2, Signal: SignalCorrection, Line: e.Line, Mistake: clip(strings.TrimSpace(e.Text), 300)}
	c.signals.userCorrected = true
	c.signals.causal = causalPhrases.in(e.Text)
	c.signals.dataLoss = dataLossPhrases.in(e.Text)
	for j := i - 1; j >= 0 && j >= i-10; j-- {
		if evs[j].Kind == ToolCall {
			c.Tool, c.Trigger = evs[j].Tool, evs[j].Text
			break
		}
	}
	c.Evidence = append(c.Evidence, Evidence{e.Line, "user: " + c.Mistake})
	for j := i + 1; j < len(evs) && j <= i+retryWindow; j++ {
		switch evs[j].Kind {
		case AssistantText:
			if c.Fix == "" {
				c.Fix = clip(firstLines(evs[j].Text, 3), 300)
				c.Evidence = append(c.Evidence, Evidence{evs[j].Line, "assistant: " + c.Fix})
			}
		case ToolResult:
			if !evs[j].Error && c.Fix != "" {
				c.signals.fixConfirmed = true
			}
		case UserText:
			j = len(evs)
		}
	}
	c.Title = titleFrom("User correction: " + firstLines(e.Text, 1))
	return c
}

func explicit(evs []Event, i int, e Event) *Candidate {
	s := sentenceMatching(e.Text, explicitPhrases)
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
	for j := i - 1; j >= 0 && j >= i-10; j-- {
		if evs[j].Kind == ToolCall {
			c.Tool = evs[j].Tool
			break
		}
	}
	c.Evidence = append(c.Evidence, Evidence{e.Line, who + s})
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
	errorWordRe = lazy(`(?i)\b(error|errors|fatal|failed|failure|fails|cannot|can't|could not|couldn't|not found|no such|denied|invalid|refused|unknown|missing|not a|is not|does not|did not|undefined|exception|panic|traceback|ignored|conflict|rejected)\b`)
	noiseLineRe = lazy(`(?i)^(npm warn|warning:|checking \d+ source files?|> |wall time:|output:|exit code:?\s*\d+$|error: exit code \d+$|exit status \d+$|[-=_*~#┃│|]+$)`)
	diagCodeRe  = lazy(`^\[[A-Z]{1,12}\]`) // [FORMAT], [D], [E]: a linter's finding
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
	var lines []string
	for _, l := range strings.Split(literalNewlines(out), "\n") {
		l = strings.TrimSpace(strings.TrimLeft(l, "┃│ \t"))
		if l != "" && !noiseLineRe.get().MatchString(l) {
			lines = append(lines, l)
		}
		if len(lines) == 40 {
			break
		}
	}
	pick := -1
	for i, l := range lines {
		if errorWordRe.get().MatchString(l) || diagCodeRe.get().MatchString(l) {
			pick = i
			break
		}
	}
	if pick < 0 {
		return firstLines(out, 1)
	}
	l := lines[pick]
	if strings.HasSuffix(l, ":") && pick+1 < len(lines) && strings.Contains(lines[pick+1], " ") {
		l += " " + lines[pick+1]
	}
	return l
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

var exitOnlyRe = lazy(`^(Error: )?(Exit code|exit status) \d+$`)

// firstLines returns the first n non-empty lines, leaving out a bare
// "Exit code N" that says nothing about the failure.
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" && !(n < 5 && exitOnlyRe.get().MatchString(t) && strings.Count(s, "\n") > 0) {
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
// sameRun says the fix b runs the failing command a again, its output
// shown differently (2>&1, a trailing | tail or | head), alone or as the
// first step of a chain.
func sameRun(a, b string) bool {
	core := func(s string) string {
		s = strings.ReplaceAll(s, "2>&1", "")
		for _, cut := range []string{"| tail", "|tail", "| head", "|head"} {
			if i := strings.Index(s, cut); i >= 0 {
				s = s[:i]
			}
		}
		return strings.Join(strings.Fields(s), " ")
	}
	// The fix may chain more steps after it (`mise run lint && mise run
	// test`); a step before it (`mise run fmt && mise run lint`) may be
	// what fixed it, so that is not the same run.
	first, _, _ := strings.Cut(b, "&&")
	return core(a) == core(first)
}

// edited says a file was edited or written among evs.
func edited(evs []Event) bool {
	for _, e := range evs {
		if e.Kind == ToolCall && (e.Tool == "Edit" || e.Tool == "Write") {
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
	return filepath.Base(a) == filepath.Base(b)
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
	for _, seg := range strings.FieldsFunc(cmd, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' }) {
		f := strings.Fields(seg)
		for len(f) > 0 && (strings.Contains(f[0], "=") || f[0] == "sudo" || f[0] == "env" || f[0] == "time" || f[0] == "timeout" || isNumber(f[0])) {
			f = f[1:]
		}
		if len(f) == 0 || f[0] == "cd" || f[0] == "export" || f[0] == "source" || f[0] == "." {
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

var subcommands = map[string]bool{"go": true, "git": true, "npm": true, "pnpm": true, "yarn": true, "cargo": true,
	"mix": true, "docker": true, "kubectl": true, "bun": true, "uv": true, "poetry": true, "make": true, "python": true, "python3": true, "bd": true}

func isNumber(s string) bool {
	for _, r := range s {
		if (r < '0' || r > '9') && r != 's' && r != 'm' {
			return false
		}
	}
	return s != ""
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
