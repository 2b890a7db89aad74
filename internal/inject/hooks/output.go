package hooks

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/textcut"
)

// maxContext caps additionalContext in bytes. Claude Code replaces context
// over 10,000 characters (UTF-16 units) with a 2 KB preview; a byte count is
// never below the UTF-16 count, so 9,000 bytes stays under with room for the
// JSON around it.
const maxContext = 9000

// sanitize drops invisible and bidirectional-control characters (and C0/C1
// controls other than tab and newline) from repository text before it
// reaches the agent (docs/design.md, Reliability and security), and invalid
// UTF-8.
func sanitize(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n <= 1 {
				continue
			}
		}
		if !dropRune(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// clean reports whether s has nothing sanitize drops (most text). ASCII,
// most of a lesson, is read a byte at a time: a call per rune was half of
// rendering an injection.
func clean(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if dropRune(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || dropRune(r) {
			return false
		}
		i += n
	}
	return true
}

func dropRune(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || invisible(r)
}

// invisible reports the characters a reader cannot see: fillers, joiners,
// bidi controls, variation selectors and tag characters.
func invisible(r rune) bool {
	switch {
	case r == 0x00ad, r == 0x034f, r == 0x061c, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r == 0x180e,
		r >= 0x200b && r <= 0x200f, // zero-width space/joiners, LRM, RLM
		r >= 0x202a && r <= 0x202e, // bidi embeddings and overrides
		r >= 0x2060 && r <= 0x206f, // word joiner, invisible operators, bidi isolates
		r == 0x3164, r == 0xfeff, r == 0xffa0,
		r >= 0xfe00 && r <= 0xfe0f,   // variation selectors
		r >= 0xfff9 && r <= 0xfffb,   // interlinear annotations
		r >= 0x1d173 && r <= 0x1d17a, // musical invisible formatting
		r >= 0xe0000 && r <= 0xe0fff: // tag characters, variation selectors supplement
		return true
	}
	return false
}

// capText cuts s to at most max bytes at a line boundary (or a rune
// boundary for a single long line) and says that it did.
func capText(s string, max int) string {
	return textcut.Cut(s, max, "\n[lore: truncated; run `lore list` for the rest]")
}

// record is the trailing machine-readable line of every injection
// (docs/design.md, Machine-readable interfaces). "held" (the ids whose enforce: once held this call)
// and "origin" (the store of each org or user item injected, by id) are
// written only when there are any, so the common record stays as it was.
func record(injected, dropped, held []string, origin [][2]string) string {
	var b strings.Builder
	b.WriteString(`<!-- lore {"injected":`)
	writeIDs(&b, injected)
	b.WriteString(`,"dropped":`)
	writeIDs(&b, dropped)
	if len(held) > 0 {
		b.WriteString(`,"held":`)
		writeIDs(&b, held)
	}
	if len(origin) > 0 {
		b.WriteString(`,"origin":{`)
		for i, o := range origin {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(commentString(o[0]) + ":" + commentString(o[1]))
		}
		b.WriteByte('}')
	}
	b.WriteString(`} -->`)
	return b.String()
}

func writeIDs(b *strings.Builder, ids []string) {
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(commentString(id))
	}
	b.WriteByte(']')
}

// commentString quotes s for the record: ids are ULIDs and origins source
// names, but a hand-written odd one stays valid JSON without closing the
// HTML comment.
func commentString(s string) string {
	return jsonString(strings.ReplaceAll(s, "--", "-\u2010"))
}

// jsonString quotes s as a JSON string (valid UTF-8 assumed: sanitize first).
func jsonString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	start := 0 // the run of bytes written as they are, up to i
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if r >= 0x20 && r != '"' && r != '\\' && r != 0x2028 && r != 0x2029 && r != utf8.RuneError {
			i += n
			continue
		}
		b.WriteString(s[start:i])
		writeEscaped(&b, r)
		i += n
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
	return b.String()
}

// writeEscaped writes r escaped for a JSON string: a quote, a backslash,
// a control character, U+2028 and U+2029 (valid JSON, but not valid in
// JavaScript string literals) or invalid UTF-8.
func writeEscaped(b *strings.Builder, r rune) {
	switch r {
	case '"':
		b.WriteString(`\"`)
	case '\\':
		b.WriteString(`\\`)
	case '\n':
		b.WriteString(`\n`)
	case '\t':
		b.WriteString(`\t`)
	case '\r':
		b.WriteString(`\r`)
	case 0x2028, 0x2029:
		b.WriteString(`\u` + strconv.FormatInt(int64(r), 16))
	default:
		h := "fffd"
		if r != utf8.RuneError {
			h = strconv.FormatInt(int64(r), 16)
		}
		b.WriteString(`\u` + strings.Repeat("0", 4-len(h)) + h)
	}
}

// reply is what one hook call prints.
type reply struct {
	event      string // the agent's own event name, for hookEventName
	context    string // additionalContext ("" for none)
	denyReason string // non-empty: block the tool call with this reason
	record     string // ends the deny reason, else the context ("" for none)
}

// withRecord ends the deny reason, else the context, with the record.
func (r reply) withRecord() reply {
	switch {
	case r.record == "":
	case r.denyReason != "":
		r.denyReason += "\n" + r.record
	default:
		r.context += "\n" + r.record
	}
	return r
}

// render writes the agent's JSON. Empty replies are `{}`.
func (a *Agent) render(r reply) string {
	if r.context == "" && r.denyReason == "" {
		return "{}\n"
	}
	r = r.withRecord()
	var b strings.Builder
	b.WriteByte('{')
	if r.denyReason != "" && a.TopLevelDeny {
		b.WriteString(`"decision":"deny","reason":`)
		b.WriteString(jsonString(r.denyReason))
		if r.context == "" {
			b.WriteString("}\n")
			return b.String()
		}
		b.WriteByte(',')
	}
	b.WriteString(`"hookSpecificOutput":{"hookEventName":`)
	b.WriteString(jsonString(r.event))
	if r.denyReason != "" && !a.TopLevelDeny {
		b.WriteString(`,"permissionDecision":"deny","permissionDecisionReason":`)
		b.WriteString(jsonString(r.denyReason))
	}
	if r.context != "" {
		b.WriteString(`,"additionalContext":`)
		b.WriteString(jsonString(r.context))
	}
	b.WriteString("}}\n")
	return b.String()
}
