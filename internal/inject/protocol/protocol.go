// Package protocol is the #lesson self-report protocol: the instruction the
// agent hook injects at SessionStart and SubagentStart, and the block format
// the transcript scanner extracts exactly. It is text only, importing
// nothing but strings, so the lean hook binary can link it for free.
package protocol

import "strings"

// Text is what an agent is told. Its example is never extracted as a lesson:
// the scanner ignores injected text, and a block equal to the example even
// in assistant text.
const Text = `## Lesson reporting protocol (lore)
When you recover from a mistake in this session, write a lesson block in your reply so it can be
captured and shown before the same mistake happens again:

#lesson
tool: <tool name, e.g. Bash, Edit>
trigger: <the command or action that went wrong>
mistake: <what went wrong and why>
fix: <what worked instead>
tags: <comma-separated category:value tags>
priority: <how much a repeat costs: low, medium (the default), high, critical>
#/lesson

Example:
#lesson
tool: Bash
trigger: pytest -v tests/
mistake: pytest hangs in non-interactive shells because its rich output waits for a TTY
fix: Use ` + "`python -m pytest --no-header -rN -p no:faulthandler`" + ` or prepend TERM=dumb
tags: lang:python, tool:pytest, severity:hang
priority: high
#/lesson

Priority says what a repeat would cost: low a nuisance, medium a retry, high a hang, a broken build or
a long detour, critical lost data or work.

Write one when a tool call failed and a different approach worked, when the user corrects you, or
when you find a root cause after debugging. Do not force one where nothing was learned.
`

// StripHookContext removes the <hook_context>...</hook_context> blocks in
// which Gemini CLI hands hook output (lore's own SessionStart text among
// it) to the model inside the user's turn, and to BeforeAgent as part of
// the prompt: they are not the user's words, and matched as such every
// keyword of the protocol and the index would fire on every prompt. The
// agent HTML-escapes `<` inside a block, so a block cannot hold its own
// closing tag; an unclosed block is left as it is.
func StripHookContext(t string) string {
	if !strings.Contains(t, hookOpen) {
		return t
	}
	var b strings.Builder
	for {
		before, after, ok := cutHookContext(t)
		if !ok {
			break
		}
		b.WriteString(before)
		t = after
	}
	b.WriteString(t)
	return strings.TrimSpace(b.String())
}

const hookOpen, hookEnd = "<hook_context>", "</hook_context>"

// cutHookContext cuts the first closed hook_context block out of t.
func cutHookContext(t string) (before, after string, ok bool) {
	i := strings.Index(t, hookOpen)
	if i < 0 {
		return t, "", false
	}
	j := strings.Index(t[i:], hookEnd)
	if j < 0 {
		return t, "", false
	}
	return t[:i], t[i+j+len(hookEnd):], true
}
