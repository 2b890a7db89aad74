package lint

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

// Text a reviewer cannot see in a pull request's rendered view, or that
// speaks as someone else once injected (docs/design.md, What a reviewer
// cannot see).
var (
	// lore's own record line ends every injection: <!-- lore {...} -->
	// (also JSON-escaped, as a transcript holds it).
	recordRe = lazyre.New(`(?:<|\\u003[cC])!--\s*lore\s*\{`)
	// lore learn's marker of what it captured, in learnings.md: lore's
	// own comment, not a note to hide.
	learnMarkerRe = lazyre.New(`^<!-- lore learn \S+ -->$`)
	// A client's own tags: Claude Code's <system-reminder>, <command-name>
	// and the like, opening or closing.
	clientTagRe = lazyre.New(`(?i)</?(?:system[\w-]*|[\w-]+-reminder|user-prompt-submit-hook|command-(?:name|message|args)|local-command-std(?:out|err))(?:\s[^<>\n]*)?>`)
)

// checkMarkup flags, with file and line, terminal control characters, a
// line imitating lore's record and a client's tag: errors, as no lesson
// needs them and each can hide or forge what an agent reads.
func checkMarkup(p string, data []byte) []Finding {
	out := checkControls(p, data)
	if bytes.IndexByte(data, '<') < 0 && !bytes.Contains(data, []byte("!--")) {
		return out // both patterns below need one: most items have neither
	}
	text := string(data)
	for _, loc := range recordRe().FindAllStringIndex(text, -1) {
		l, c := position(data, loc[0])
		out = append(out, Finding{Path: p, Line: l, Col: c, Key: "markup", Severity: Error,
			Msg: "text that imitates lore's injection record (<!-- lore ...): an agent or lore stats could take it for lore's own; remove it"})
	}
	for _, loc := range clientTagRe().FindAllStringIndex(text, -1) {
		l, c := position(data, loc[0])
		out = append(out, Finding{Path: p, Line: l, Col: c, Key: "markup", Severity: Error,
			Msg: fmt.Sprintf("%s imitates the agent client's own tag: an agent could read what follows as the client's words; name it without the angle brackets", text[loc[0]:loc[1]])})
	}
	return out
}

// checkComments warns of each HTML comment in the Markdown of data from
// body on: notes to editors are common, so it is no error, but a rendered
// view hides them and lore never injects them (see Unmarked).
func checkComments(p string, data []byte, body int) []Finding {
	var out []Finding
	for _, r := range markdown.HTMLComments(data[body:]) {
		if c := data[body+r[0] : body+r[1]]; recordRe().Match(c) || learnMarkerRe().Match(c) {
			continue // checkMarkup's error, or lore learn's own marker
		}
		l, c := position(data, body+r[0])
		out = append(out, Finding{Path: p, Line: l, Col: c, Key: "markup", Severity: Warning,
			Msg: "an HTML comment: hidden in the rendered view of a pull request, and never injected; put what it says in the text, or delete it"})
	}
	return out
}

// controlNames name the control characters terminals act on most.
var controlNames = map[rune]string{0x1b: "escape: starts a terminal sequence that can conceal, recolour or link text",
	'\r': "carriage return: a terminal prints what follows over the line", '\b': "backspace: a terminal erases the character before it",
	0x07: "bell", 0x7f: "delete", 0x9b: "CSI", 0x9d: "OSC"}

// checkControls flags the control characters of data but line feed, tab
// and the CR of a CRLF: one error per line, at its first one.
func checkControls(p string, data []byte) []Finding {
	if plain(data) {
		return nil
	}
	return controlLines(p, data)
}

// controlLines is checkControls reading each line.
func controlLines(p string, data []byte) []Finding {
	var out []Finding
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		col, first, more := 0, rune(-1), 0
		for _, r := range line {
			if first < 0 {
				col++
			}
			if (r < 0x20 || r >= 0x7f && r < 0xa0) && r != '\t' {
				if first < 0 {
					first = r
				} else {
					more++
				}
			}
		}
		if first < 0 {
			continue
		}
		name := controlNames[first]
		if name == "" {
			name = "control character"
		}
		msg := fmt.Sprintf("terminal control character U+%04X (%s): remove it; lore shows it as a symbol, a terminal would act on it", first, name)
		if more > 0 {
			msg += fmt.Sprintf(" (and %d more on this line)", more)
		}
		out = append(out, Finding{Path: p, Line: n + 1, Col: col, Key: "control", Msg: msg, Severity: Error})
	}
	return out
}

// plain says data holds printable ASCII, line feeds and tabs only, so no
// control character: most items skip splitting into lines.
func plain(data []byte) bool {
	for _, c := range data {
		if (c < 0x20 || c >= 0x7f) && c != '\n' && c != '\t' {
			return false
		}
	}
	return true
}

// Unmarked is s without what an injection must not carry and lint may
// let pass: the HTML comments a rendered view hides, and client tags.
// The build renders an item's text through it.
func Unmarked(s string) string {
	cs := markdown.HTMLComments([]byte(s))
	for i := len(cs) - 1; i >= 0; i-- {
		s = s[:cs[i][0]] + s[cs[i][1]:]
	}
	if strings.ContainsRune(s, '<') {
		s = clientTagRe().ReplaceAllString(s, "")
	}
	return s
}
