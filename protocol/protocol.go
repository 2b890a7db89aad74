// Package protocol is the #lesson self-report protocol: the instruction the
// agent hook injects at SessionStart and SubagentStart, and the block format
// the transcript scanner extracts exactly. It is text only, with no imports,
// so the lean hook binary can link it for free.
package protocol

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
#/lesson

Example:
#lesson
tool: Bash
trigger: pytest -v tests/
mistake: pytest hangs in non-interactive shells because its rich output waits for a TTY
fix: Use ` + "`python -m pytest --no-header -rN -p no:faulthandler`" + ` or prepend TERM=dumb
tags: lang:python, tool:pytest, severity:hang
#/lesson

Write one when a tool call failed and a different approach worked, when the user corrects you, or
when you find a root cause after debugging. Do not force one where nothing was learned.
`
