package scan

import (
	"strings"
	"sync"

	"github.com/lore-agents/lore/internal/inject/protocol"
	"github.com/lore-agents/lore/internal/lazyre"
)

// protocolExample is the example block of protocol.Text, read once with the
// same parser: a block with its tool, trigger and mistake is the protocol
// quoted back, not a lesson.
var protocolExample = sync.OnceValue(func() map[string]string {
	t := protocol.Text
	body := t[strings.LastIndex(t, lessonOpen+"\n")+len(lessonOpen)+1 : strings.LastIndex(t, lessonClose)]
	b, _ := parseFields("lesson-tag", body, 0)
	return b.Values
})

// Block is one Tier 1 block: its fields in order, keys lowercased.
type Block struct {
	Kind   string   // "lesson-tag" or "process-knowledge"
	Keys   []string // in the order written, extra keys included
	Values map[string]string
	Offset int // byte offset of the opening marker in the text
}

// Get returns a field's value ("" when absent).
func (b Block) Get(key string) string { return b.Values[key] }

const (
	lessonOpen  = "#lesson"
	lessonClose = "#/lesson"
	pkOpen      = "[PROCESS_KNOWLEDGE]"
	pkClose     = "[/PROCESS_KNOWLEDGE]"
)

// HasBlock is the cheap test run on every assistant text before parsing.
func HasBlock(text string) bool {
	return strings.Contains(text, lessonOpen) || strings.Contains(text, pkOpen)
}

// ParseBlocks returns the well-formed #lesson and [PROCESS_KNOWLEDGE] blocks
// of an assistant text, in order. Unclosed blocks, the format template and
// the protocol's own example are not returned.
func ParseBlocks(text string) []Block {
	var out []Block
	out = appendLessonBlocks(out, text)
	out = appendPKBlocks(out, text)
	if len(out) > 1 && out[0].Kind != out[len(out)-1].Kind {
		sortBlocks(out)
	}
	return out
}

func sortBlocks(bs []Block) {
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && bs[j].Offset < bs[j-1].Offset; j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
}

// appendLessonBlocks finds "#lesson" alone on its line (so prose that
// mentions #lesson does not open a block) and the next "#/lesson".
func appendLessonBlocks(out []Block, text string) []Block {
	pos := 0
	for {
		i := strings.Index(text[pos:], lessonOpen)
		if i < 0 {
			return out
		}
		i += pos
		lineEnd := strings.IndexByte(text[i:], '\n')
		if lineEnd < 0 {
			return out
		}
		pos = i + len(lessonOpen)
		if !lessonOpener(text, i, i+lineEnd) {
			continue
		}
		bodyStart := i + lineEnd + 1
		end := strings.Index(text[bodyStart:], lessonClose)
		if end < 0 {
			return out
		}
		body := text[bodyStart : bodyStart+end]
		if nested := strings.LastIndex(body, "\n"+lessonOpen+"\n"); nested >= 0 {
			continue // an unclosed block followed by another: the later one is parsed next
		}
		if b, ok := parseFields("lesson-tag", body, i); ok && !isProtocolExample(b) {
			out = append(out, b)
		}
		pos = bodyStart + end + len(lessonClose)
	}
}

// lessonOpener says the line around text[i] (ending at end) holds
// "#lesson" alone, maybe as code, emphasis or a quote, maybe with a colon.
func lessonOpener(text string, i, end int) bool {
	lineStart := strings.LastIndexByte(text[:i], '\n') + 1
	opener := strings.TrimSpace(strings.Trim(text[lineStart:end], "`*> \t\r"))
	return opener == lessonOpen || opener == lessonOpen+":"
}

func appendPKBlocks(out []Block, text string) []Block {
	pos := 0
	for {
		i := strings.Index(text[pos:], pkOpen)
		if i < 0 {
			return out
		}
		i += pos
		bodyStart := i + len(pkOpen)
		end := strings.Index(text[bodyStart:], pkClose)
		if end < 0 {
			return out
		}
		body := text[bodyStart : bodyStart+end]
		pos = bodyStart
		if strings.Contains(body, pkOpen) {
			continue
		}
		if b, ok := parseFields("process-knowledge", body, i); ok && !isProtocolExample(b) {
			out = append(out, b)
		}
		pos = bodyStart + end + len(pkClose)
	}
}

// lessonAliases are lessons-learned's spellings of #lesson keys, so its
// users' history is read too.
var lessonAliases = map[string]string{"problem": "mistake", "solution": "fix"}

var keyRe = lazyre.New(`^([A-Za-z][A-Za-z0-9_\-]{0,40}):(?:\s|$)`)

// parseFields reads "key: value" lines leniently: any order, any keys, a
// value continues on following lines that are indented or are not a key
// line; code fence lines are ignored.
func parseFields(kind, body string, off int) (Block, bool) {
	lines, indent := fieldLines(body)
	p := fieldParser{b: Block{Kind: kind, Values: map[string]string{}, Offset: off}}
	for _, l := range lines {
		p.line(l, indent)
	}
	p.flush()
	return p.b, p.b.complete()
}

// fieldLines are the body's lines without code fences and trailing blanks,
// and the indentation (spaces, tabs, quote marks) common to the non-empty
// ones.
func fieldLines(body string) (kept []string, indent int) {
	var raw []string
	for _, l := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			continue
		}
		raw = append(raw, l)
		kept = append(kept, strings.TrimRight(l, " \t"))
	}
	return kept, commonIndent(raw, " \t>")
}

// commonIndent is the least indentation (the leading bytes of cutset) of
// the lines that are not blank, or -1 when all are.
func commonIndent(lines []string, cutset string) int {
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, cutset)); indent < 0 || n < indent {
			indent = n
		}
	}
	return indent
}

// fieldParser collects a block's fields line by line.
type fieldParser struct {
	b    Block
	cur  string   // the key being read
	cont []string // its continuation lines
}

// line reads one line: a key line starts a field, any other line
// continues the current one.
func (p *fieldParser) line(l string, indent int) {
	col := l
	if indent > 0 && len(col) >= indent {
		col = col[indent:]
	}
	m := keyRe().FindStringSubmatch(col)
	if m == nil {
		if p.cur != "" {
			p.cont = append(p.cont, l)
		}
		return
	}
	p.flush()
	key := strings.ToLower(strings.TrimSpace(m[1]))
	if a, ok := lessonAliases[key]; ok && p.b.Kind == "lesson-tag" {
		key = a
	}
	if _, dup := p.b.Values[key]; !dup {
		p.b.Keys = append(p.b.Keys, key)
	}
	p.cur = key
	p.b.Values[key] = strings.TrimSpace(col[len(m[0]):])
}

// flush adds the continuation lines to the current field's value.
func (p *fieldParser) flush() {
	if p.cur == "" || len(p.cont) == 0 {
		return
	}
	p.b.Values[p.cur] = strings.TrimSpace(p.b.Values[p.cur] + "\n" + dedent(p.cont))
	p.cont = nil
}

// complete says the block has fields, is not the format template, and has
// what its kind needs: a mistake or a fix, a label or a type.
func (b Block) complete() bool {
	if len(b.Keys) == 0 || isTemplate(b) {
		return false
	}
	switch b.Kind {
	case "lesson-tag":
		return b.Get("mistake") != "" || b.Get("fix") != ""
	case "process-knowledge":
		return b.Get("label") != "" || b.Get("type") != ""
	}
	return true
}

func dedent(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	indent := commonIndent(lines, " \t")
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		out[i] = l
	}
	return strings.Join(out, "\n")
}

var placeholderRe = lazyre.New(`^<[^<>]+>$`)

// isTemplate: every value is a <placeholder>, as in the protocol's format.
func isTemplate(b Block) bool {
	for _, k := range b.Keys {
		if v := b.Values[k]; v != "" && !placeholderRe().MatchString(v) {
			return false
		}
	}
	return true
}

func isProtocolExample(b Block) bool {
	ex := protocolExample()
	for _, k := range []string{"tool", "trigger", "mistake"} {
		if ex[k] == "" || b.Values[k] != ex[k] {
			return false
		}
	}
	return true
}

// splitList reads "a, b", "[a, b]" or "- a\n- b" into items.
func splitList(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' }) {
		part = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(part), "- "))
		part = strings.Trim(part, `"'`+"`")
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}
