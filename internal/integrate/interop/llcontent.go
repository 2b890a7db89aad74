package interop

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// llContent converts a store export's triggers.contentPatterns: regexes
// for the content of a file, by lessons-learned's own schema ("Regex
// patterns for file content or output"), which is what lore's
// triggers.content tries on the text an Edit or Write adds. A trailing
// negative lookahead has no place there (lore's unless tests the path).
func llContent(res []llRe) (content []string, why string) {
	for _, r := range res {
		pat, unless, err := jsCommand(r.Source, r.Flags)
		if err != nil {
			return nil, fmt.Sprintf("content pattern %q: %v", r.Source, err)
		}
		if len(unless) > 0 {
			return nil, fmt.Sprintf("content pattern %q: a negative lookahead on the added text (lore's unless tests the path, not the text)", r.Source)
		}
		content = append(content, pat)
	}
	return content, ""
}

// contentOnly splits a lesson with no command or path pattern: its Edit
// and Write calls try the content patterns (the edits item), every other
// tool fires on its name alone, as in lessons-learned's hook.
func contentOnly(tools, content []string) (t, edits markdown.Triggers, why string) {
	for _, name := range tools {
		if tool := match.Tool(name); len(content) > 0 && (tool == "Edit" || tool == "Write") {
			edits.Tools = appendNew(edits.Tools, name)
		} else {
			t.Tools = append(t.Tools, name)
		}
	}
	if len(edits.Tools) > 0 {
		edits.Content = content
	}
	return t, edits, ""
}

// noteContent says what became of a lesson's content patterns: carried
// on Edit and Write, a deliberate difference (lessons-learned's build
// drops them, so its own hook fires on those tools whatever the text), or
// not carried when no tool of the lesson adds text.
func (p *Plan) noteContent(from, title string, l llLesson, edits markdown.Triggers, why string) {
	switch {
	case len(l.ContentRegex) == 0 || why != "":
	case len(edits.Tools) > 0:
		p.note(from, title, "contentPatterns carried as triggers.content on %s; lessons-learned's build drops them, so its hook fires there whatever the text", strings.Join(edits.Tools, ", "))
	default:
		p.note(from, title, "contentPatterns: none of its tools (%s) adds text (Edit, Write): not carried", strings.Join(l.ToolNames, ", "))
	}
}

// llTools splits a patterned lesson's tools as lessons-learned's hook
// tries them: Bash runs the command patterns; Edit and Write the command
// (and content) patterns on the text they add, which lore tries as
// triggers.content, so they go to the edits item; Read and NotebookEdit
// pass no text, so only a lesson without command patterns reaches them.
// Other tools never match a patterned lesson.
func llTools(names []string, hasCmd, hasContent bool) (tools, editTools []string) {
	for _, name := range names {
		switch match.Tool(name) {
		case "Bash":
			if hasCmd {
				tools = append(tools, name)
			}
		case "Edit", "Write":
			if hasCmd || hasContent {
				editTools = appendNew(editTools, name)
			} else {
				tools = append(tools, name)
			}
		case "Read", "NotebookEdit":
			if !hasCmd {
				tools = append(tools, name)
			}
		}
	}
	return tools, editTools
}
