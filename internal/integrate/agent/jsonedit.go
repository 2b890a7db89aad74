package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The settings files are edited as text, never re-encoded: lore inserts
// its entries at the end of a container and removes exactly the bytes it
// inserted, so the user's layout (indentation, key order, compact lines,
// an empty {}) survives an install and an uninstall byte for byte.
//
// Layout lore writes, for a container at depth d, with nl the file's line
// ending and u its indentation step:
//   - into a container with elements: "," + nl + u*(d+1) + element after
//     the last element;
//   - into an empty container: nl + u*(d+1) + element right after the
//     opening bracket, keeping what was between the brackets;
//   - a container lore creates is empty with nl + u*d inside, then filled.
//
// So after lore's elements are removed, a container whose inside is exactly
// nl + u*d was created by lore and goes too, and a file that is exactly
// "{\n}\n" was created by lore and is deleted. (A user's own empty container
// laid out exactly that way would go too; nothing else is ambiguous.)

// node is one JSON value and its byte span in the file.
type node struct {
	start, end int    // [start, end) of the value
	kind       byte   // '{', '[' or 0 for a scalar
	depth      int    // 0 for the root
	items      []item // members or elements, for '{' and '['
}

// item is one object member or array element.
type item struct {
	start int    // the key's opening quote, or the element's start
	key   string // object members only
	val   *node
}

func (it item) end() int { return it.val.end }

// member returns the object member named key.
func (n *node) member(key string) (int, *node) {
	for i, it := range n.items {
		if it.key == key {
			return i, it.val
		}
	}
	return -1, nil
}

// parser is a small validating JSON parser that keeps byte positions; with
// comments set it also skips // and /* */ comments (Gemini CLI's settings).
type parser struct {
	data     []byte
	pos      int
	comments bool
}

func parseJSON(data []byte, comments bool) (*node, error) {
	p := &parser{data: data, comments: comments}
	if err := p.space(); err != nil {
		return nil, err
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos != len(data) {
		return nil, p.errorf("trailing data after the object")
	}
	if n.kind != '{' {
		return nil, &syntaxError{lineOf(data, n.start), "not a JSON object"}
	}
	return n, nil
}

// syntaxError is a file that is not the JSON object lore can edit.
type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%d: %s", e.line, e.msg) }

func (p *parser) errorf(format string, args ...any) error {
	return &syntaxError{lineOf(p.data, p.pos), fmt.Sprintf(format, args...)}
}

// lineOf is the 1-based line of byte pos.
func lineOf(data []byte, pos int) int {
	return 1 + bytes.Count(data[:min(pos, len(data))], []byte("\n"))
}

func (p *parser) space() error {
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case p.comments && c == '/':
			if done, err := p.comment(); done || err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// comment skips a // or /* */ comment at pos; done when the / starts none.
func (p *parser) comment() (done bool, err error) {
	rest := p.data[p.pos:]
	switch {
	case bytes.HasPrefix(rest, []byte("//")):
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest)
		}
		p.pos += i
	case bytes.HasPrefix(rest, []byte("/*")):
		i := bytes.Index(rest[2:], []byte("*/"))
		if i < 0 {
			return false, p.errorf("unclosed comment")
		}
		p.pos += i + 4
	default:
		return true, nil
	}
	return false, nil
}

func (p *parser) value(depth int) (*node, error) {
	if depth > 100 {
		return nil, p.errorf("nested too deeply")
	}
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of file")
	}
	n := &node{start: p.pos, depth: depth}
	switch c := p.data[p.pos]; c {
	case '{', '[':
		n.kind = c
		p.pos++
		if err := p.container(n); err != nil {
			return nil, err
		}
	case '"':
		if _, err := p.str(); err != nil {
			return nil, err
		}
	default:
		if err := p.scalar(); err != nil {
			return nil, err
		}
	}
	n.end = p.pos
	return n, nil
}

// scalar reads a number, true, false or null.
func (p *parser) scalar() error {
	start := p.pos
	for p.pos < len(p.data) && strings.IndexByte(",}] \t\r\n/", p.data[p.pos]) < 0 {
		p.pos++
	}
	var v any
	if json.Unmarshal(p.data[start:p.pos], &v) != nil {
		p.pos = start
		return p.errorf("invalid value %q", truncate(string(p.data[start:min(start+20, len(p.data))])))
	}
	return nil
}

func (p *parser) container(n *node) error {
	closing := byte('}')
	if n.kind == '[' {
		closing = ']'
	}
	for first := true; ; first = false {
		if err := p.space(); err != nil {
			return err
		}
		if p.pos < len(p.data) && p.data[p.pos] == closing && first {
			p.pos++
			return nil
		}
		it := item{start: p.pos}
		if n.kind == '{' {
			key, err := p.key()
			if err != nil {
				return err
			}
			it.key = key
		}
		v, err := p.value(n.depth + 1)
		if err != nil {
			return err
		}
		it.val = v
		n.items = append(n.items, it)
		if end, err := p.next(closing); end || err != nil {
			return err
		}
	}
}

// key reads a member's key and the ':' after it.
func (p *parser) key() (string, error) {
	key, err := p.str()
	if err != nil {
		return "", err
	}
	if err := p.space(); err != nil {
		return "", err
	}
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return "", p.errorf("%q: missing ':'", key)
	}
	p.pos++
	return key, p.space()
}

// next reads the ',' after a member or element, or the closing bracket
// (end).
func (p *parser) next(closing byte) (end bool, err error) {
	if err := p.space(); err != nil {
		return false, err
	}
	if p.pos >= len(p.data) {
		return false, p.errorf("unexpected end of file")
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case closing:
		p.pos++
		return true, nil
	}
	return false, p.errorf("expected ',' or '%c'", closing)
}

func (p *parser) str() (string, error) {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", p.errorf("expected a string")
	}
	start := p.pos
	for p.pos++; p.pos < len(p.data); p.pos++ {
		switch p.data[p.pos] {
		case '\\':
			p.pos++
		case '"':
			p.pos++
			var s string
			if err := json.Unmarshal(p.data[start:p.pos], &s); err != nil {
				p.pos = start
				return "", p.errorf("invalid string")
			}
			return s, nil
		}
	}
	p.pos = start
	return "", p.errorf("unterminated string")
}

func truncate(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// style is how a file lays out its lines: the indentation step (a tab, 2
// or 4 spaces, ...) and the line ending.
type style struct{ unit, nl string }

// styleOf finds the file's style from its first indented member or element:
// its leading whitespace divided by its depth, so lore's own lines (laid
// out in that style) give the same answer. Two spaces and \n if none.
func styleOf(data []byte, root *node) style {
	st := style{unit: "  ", nl: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	first, depth := len(data), 0
	var walk func(c *node)
	walk = func(c *node) {
		for _, it := range c.items {
			if it.start < first {
				line := bytes.LastIndexByte(data[:it.start], '\n')
				if ws := data[line+1 : it.start]; line >= 0 && len(ws) > 0 && len(bytes.Trim(ws, " \t")) == 0 {
					first, depth = it.start, c.depth+1
				}
			}
			walk(it.val)
		}
	}
	walk(root)
	if first == len(data) {
		return st
	}
	line := bytes.LastIndexByte(data[:first], '\n')
	ws := string(data[line+1 : first])
	st.unit = ws
	if n := len(ws) / depth; len(ws)%depth == 0 && strings.Repeat(ws[:n], depth) == ws {
		st.unit = ws[:n]
	}
	return st
}

// indent is the whitespace that starts a line at depth.
func (st style) indent(depth int) string { return st.nl + strings.Repeat(st.unit, depth) }

// render is v as JSON laid out for an element at depth in the file's
// style, without HTML escaping (a command's `&&` and `>&2` stay readable).
func render(v any, depth int, st style) string {
	var b bytes.Buffer
	if err := json.Indent(&b, encode(v), strings.Repeat(st.unit, depth), st.unit); err != nil {
		panic(err) // lore's own values only
	}
	return strings.ReplaceAll(b.String(), "\n", st.nl)
}

// encode marshals v without HTML escaping.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // lore's own values only
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// insert adds text (already laid out for depth c.depth+1) as the last
// element of container c.
func insert(data []byte, c *node, text string, st style) []byte {
	at, sep := c.start+1, ""
	if len(c.items) > 0 {
		at, sep = c.items[len(c.items)-1].end(), ","
	}
	return splice(data, at, at, sep+st.indent(c.depth+1)+text)
}

// remove deletes element i of container c with the separator lore's insert
// put before it.
func remove(data []byte, c *node, i int) []byte {
	switch {
	case len(c.items) == 1:
		return splice(data, c.start+1, c.items[0].end(), "")
	case i > 0:
		return splice(data, c.items[i-1].end(), c.items[i].end(), "")
	default:
		return splice(data, c.items[0].start, c.items[1].start, "")
	}
}

// createdByLore reports whether an empty container has the inside of one
// lore created.
func createdByLore(data []byte, c *node, st style) bool {
	return len(c.items) == 0 && string(data[c.start+1:c.end-1]) == st.indent(c.depth)
}

func splice(data []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(data)-(to-from)+len(text))
	out = append(out, data[:from]...)
	out = append(out, text...)
	return append(out, data[to:]...)
}
