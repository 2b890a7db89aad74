package markdown

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// quickYAML parses a frontmatter written in the plain shapes lore writes
// and people write by hand into the tree yaml.v3 makes of it, and
// reports false for anything else: comments, tabs, CRs, non-ASCII bytes,
// block scalars, anchors, tags, flow mappings, escapes, multi-line
// scalars, empty values and repeated keys. yaml.v3 parses whatever this
// refuses.
//
// It is hand-written because yaml.v3 took a quarter of the CPU of a cold
// build of 10,000 items, for ten lines each (docs/design.md, Incremental
// build), and no faster YAML library makes yaml.v3's tree. That tree is
// its contract: the tests compare the two on every Markdown file in
// testdata and on a synthetic store, and FuzzQuickYAML and
// FuzzFrontmatterBlock on any input this accepts.
func quickYAML(data []byte, doc *yaml.Node) bool {
	q := quickParser{text: string(data)}
	if !q.lines() || len(q.ls) == 0 || q.ls[0].indent != 0 {
		return false
	}
	// A line makes at most a key and its value, and a flow list one more
	// node than it has commas: all in one allocation.
	q.nodes = make([]yaml.Node, 0, 2*len(q.ls)+strings.Count(q.text, ",")+strings.Count(q.text, "[")+1)
	m, next, ok := q.mapping(0, 0)
	if !ok || next != len(q.ls) {
		return false
	}
	*doc = yaml.Node{Kind: yaml.DocumentNode, Line: m.Line, Column: 1, Content: []*yaml.Node{m}}
	return true
}

// quickLine is one line of a frontmatter that holds something.
type quickLine struct {
	num    int    // 1-based, as yaml.v3 counts the frontmatter's lines
	indent int    // leading spaces
	text   string // after them, without trailing spaces
}

type quickParser struct {
	text  string
	ls    []quickLine
	nodes []yaml.Node
}

// lines splits the text into the lines that hold something, or reports
// false on a byte that would need yaml.v3: anything outside printable
// ASCII, and the comment sign.
func (q *quickParser) lines() bool {
	q.ls = make([]quickLine, 0, strings.Count(q.text, "\n")+1)
	num := 0
	for rest := q.text; rest != ""; {
		num++
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		for i := 0; i < len(line); i++ {
			if c := line[i]; c < ' ' || c > '~' || c == '#' {
				return false
			}
		}
		text := strings.TrimLeft(line, " ")
		if text = strings.TrimRight(text, " "); text == "" {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent == 0 && (strings.HasPrefix(text, "---") || strings.HasPrefix(text, "...")) {
			return false // a document marker
		}
		q.ls = append(q.ls, quickLine{num: num, indent: indent, text: text})
	}
	return true
}

// node returns a new node, allocated with others: a full slab is left to
// the nodes in it and a new one started, never grown.
func (q *quickParser) node(n yaml.Node) *yaml.Node {
	if len(q.nodes) == cap(q.nodes) {
		q.nodes = make([]yaml.Node, 0, 8)
	}
	q.nodes = append(q.nodes, n)
	return &q.nodes[len(q.nodes)-1]
}

// mapping parses the block mapping whose keys are the lines from i at
// this indent, and returns the index of the line after it.
func (q *quickParser) mapping(i, indent int) (*yaml.Node, int, bool) {
	l := q.ls[i]
	m := q.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: l.num, Column: indent + 1})
	for i < len(q.ls) && q.ls[i].indent == indent {
		l := q.ls[i]
		key, rest, ok := splitKey(l.text)
		if !ok || mappingHas(m, key) {
			return nil, 0, false
		}
		k := q.node(yaml.Node{Kind: yaml.ScalarNode, Value: key, Line: l.num, Column: indent + 1})
		k.Tag = k.ShortTag() // "true" and "null" are keys too, not strings
		m.Content = append(m.Content, k)
		var v *yaml.Node
		if rest == "" {
			v, i, ok = q.nested(i, indent)
		} else {
			v, ok = q.value(rest, l.num, indent+len(l.text)-len(rest)+1)
			i++
		}
		if !ok {
			return nil, 0, false
		}
		m.Content = append(m.Content, v)
	}
	if i < len(q.ls) && q.ls[i].indent > indent {
		return nil, 0, false // a continuation line, or a value's bad indent
	}
	return m, i, true
}

// mappingHas says the mapping has the key: mappings in frontmatter are
// short, and a map would cost more.
func mappingHas(m *yaml.Node, key string) bool {
	for i := 0; i < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// nested parses the block under the key on line i: a mapping indented
// deeper, or a list at the key's indent or deeper.
func (q *quickParser) nested(i, indent int) (*yaml.Node, int, bool) {
	if i+1 >= len(q.ls) {
		return nil, 0, false // an empty value is null: left to yaml.v3
	}
	next := q.ls[i+1]
	switch {
	case strings.HasPrefix(next.text, "- ") && next.indent >= indent:
		return q.list(i+1, next.indent)
	case next.indent > indent:
		return q.mapping(i+1, next.indent)
	}
	return nil, 0, false
}

// list parses the block list whose items are the lines from i at this
// indent; each item is one scalar.
func (q *quickParser) list(i, indent int) (*yaml.Node, int, bool) {
	s := q.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: q.ls[i].num, Column: indent + 1})
	for i < len(q.ls) && q.ls[i].indent == indent && strings.HasPrefix(q.ls[i].text, "- ") {
		l := q.ls[i]
		item := strings.TrimLeft(l.text[2:], " ")
		v, ok := q.value(item, l.num, indent+len(l.text)-len(item)+1)
		if !ok || v.Kind != yaml.ScalarNode {
			return nil, 0, false
		}
		s.Content = append(s.Content, v)
		i++
	}
	if i < len(q.ls) && q.ls[i].indent > indent {
		return nil, 0, false
	}
	return s, i, true
}

// splitKey splits "key: value" or "key:" into the key and the value.
func splitKey(text string) (key, rest string, ok bool) {
	i := strings.IndexByte(text, ':')
	if i <= 0 || !isKey(text[:i]) {
		return "", "", false
	}
	if rest = text[i+1:]; rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	return text[:i], strings.TrimLeft(rest, " "), true
}

// isKey says s is a key quickYAML reads: a word, short (yaml.v3 refuses
// an implicit key past 1,024 characters).
func isKey(s string) bool {
	if len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

// value parses the value that fills the rest of a line, starting at this
// column: a quoted or plain scalar, or a flow list of them.
func (q *quickParser) value(text string, line, col int) (*yaml.Node, bool) {
	if text[0] == '[' {
		return q.flowList(text, line, col)
	}
	v, n, ok := q.scalar(text, line, col, false)
	return v, ok && n == len(text)
}

// flowList parses a one-line flow list of scalars, "[a, 'b']".
func (q *quickParser) flowList(text string, line, col int) (*yaml.Node, bool) {
	s := q.node(yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Tag: "!!seq", Line: line, Column: col})
	i := 1
	for {
		i += spaces(text[i:])
		if i < len(text) && text[i] == ']' && len(s.Content) == 0 {
			break
		}
		v, n, ok := q.scalar(text[i:], line, col+i, true)
		if !ok {
			return nil, false
		}
		s.Content = append(s.Content, v)
		i += n
		i += spaces(text[i:])
		if i >= len(text) {
			return nil, false
		}
		if text[i] == ']' {
			break
		}
		if text[i] != ',' {
			return nil, false
		}
		i++
	}
	return s, i == len(text)-1
}

func spaces(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// scalar parses the scalar text begins with and returns how many bytes it
// took; in a flow list a plain scalar ends before a comma or bracket.
func (q *quickParser) scalar(text string, line, col int, flow bool) (*yaml.Node, int, bool) {
	if text == "" {
		return nil, 0, false
	}
	switch text[0] {
	case '\'':
		v, n, ok := singleQuoted(text)
		return q.node(yaml.Node{Kind: yaml.ScalarNode, Style: yaml.SingleQuotedStyle, Tag: "!!str", Value: v, Line: line, Column: col}), n, ok
	case '"':
		end := strings.IndexAny(text[1:], `"\`)
		if end < 0 || text[1+end] != '"' {
			return nil, 0, false // an escape, or a line break inside
		}
		return q.node(yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Tag: "!!str", Value: text[1 : 1+end], Line: line, Column: col}), end + 2, true
	}
	n := plainEnd(text, flow)
	v := strings.TrimRight(text[:n], " ")
	if n == 0 || !plainStart(v, flow) || v == "<<" {
		return nil, 0, false
	}
	s := q.node(yaml.Node{Kind: yaml.ScalarNode, Value: v, Line: line, Column: col})
	s.Tag = s.ShortTag() // yaml.v3's own resolution: !!str, !!int, !!bool, ...
	return s, n, true
}

// singleQuoted returns the value of the single-quoted scalar text begins
// with and its length; inside it, two quotes stand for one.
func singleQuoted(text string) (string, int, bool) {
	for i := 1; i < len(text); i++ {
		if text[i] != '\'' {
			continue
		}
		if i+1 < len(text) && text[i+1] == '\'' {
			i++
			continue
		}
		v := text[1:i]
		if strings.Contains(v, "''") {
			v = strings.ReplaceAll(v, "''", "'")
		}
		return v, i + 1, true
	}
	return "", 0, false
}

// plainEnd returns where a plain scalar at the start of text ends, or 0
// when it holds what only yaml.v3 reads right: ": " (a mapping inside),
// and a colon before a flow indicator or the end.
func plainEnd(text string, flow bool) int {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case flow && strings.IndexByte(",?[]{}", c) >= 0: // yaml.v3 ends a flow scalar at '?' too
			return i
		case c == ':' && (i+1 == len(text) || strings.IndexByte(" ,[]{}", text[i+1]) >= 0):
			return 0
		}
	}
	return len(text)
}

// plainStart says a plain scalar may begin so: not with an indicator.
func plainStart(v string, flow bool) bool {
	if v == "" || strings.IndexByte("-?:,[]{}&*!|>'\"%@`", v[0]) < 0 {
		return v != ""
	}
	// "-" starts a plain scalar when a non-space follows, and outside a
	// flow list so do "?" and ":".
	return (v[0] == '-' || !flow && (v[0] == '?' || v[0] == ':')) && len(v) > 1 && v[1] != ' '
}
