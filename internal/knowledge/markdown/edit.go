package markdown

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// Field is one frontmatter key and value, for composing a new item in a
// fixed key order.
type Field struct {
	Key   string
	Value any
}

// Compose renders a new file with frontmatter: a block-style YAML block
// with the fields in order (nil and empty values are left out) followed by
// the body. Items go through Spec.Compose; observe's commands and skills,
// which are not items, call it directly.
func Compose(fields []Field, body string) ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for _, f := range fields {
		if isEmpty(f.Value) {
			continue
		}
		v := &yaml.Node{}
		if err := v.Encode(f.Value); err != nil {
			return nil, fmt.Errorf("markdown: encode %s: %w", f.Key, err)
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: f.Key}, v)
	}
	fm, err := encodeYAML(m)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(fm)
	b.WriteString("---\n")
	if body = strings.TrimSpace(body); body != "" {
		b.WriteString("\n" + body + "\n")
	}
	return b.Bytes(), nil
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []string:
		return len(x) == 0
	case *Source:
		return x == nil
	case map[string][]string:
		return len(x) == 0
	}
	return false
}

func encodeYAML(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, fmt.Errorf("markdown: encode frontmatter: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Node returns the value node of a top-level frontmatter key, or nil. The
// node may be changed and written back with SetNode.
func (it *Item) Node(key string) *yaml.Node {
	if it.meta == nil {
		return nil
	}
	for i := 0; i+1 < len(it.meta.Content); i += 2 {
		if it.meta.Content[i].Value == key {
			return it.meta.Content[i+1]
		}
	}
	return nil
}

// Set changes (or adds) one top-level frontmatter key and re-parses the item.
// Only the lines of that key change; every other byte is kept.
func (it *Item) Set(key string, value any) error {
	v := &yaml.Node{}
	if err := v.Encode(value); err != nil {
		return fmt.Errorf("markdown: encode %s: %w", key, err)
	}
	return it.SetNode(key, v)
}

// SetNode replaces the value of a top-level key with node (see Set).
func (it *Item) SetNode(key string, node *yaml.Node) error {
	if node == nil {
		return fmt.Errorf("markdown: rewrite %s of %s: no value", key, it.Path)
	}
	return it.rewrite(key, node)
}

// Unset removes a top-level key and re-parses the item; an absent key is
// no change. Every other byte is kept.
func (it *Item) Unset(key string) error {
	if !it.Has(key) {
		return nil
	}
	return it.rewrite(key, nil)
}

// rewrite sets key to node, or removes it when node is nil
// (docs/design.md, Frontmatter rewrites: every key of any valid YAML layout
// is kept). It first changes only the lines of that key, at
// the mapping's own indentation; where the layout does not allow that (a
// flow mapping, an anchor another key uses) it re-encodes the frontmatter
// from its parsed tree, comments kept, and keeps every byte around it.
// Either result is kept only if every other key decodes as before, the key
// as asked, and the body is unchanged; else the item is left as it was.
func (it *Item) rewrite(key string, node *yaml.Node) error {
	var err error
	for _, edit := range []func(string, *yaml.Node) ([]byte, error){it.lineEdit, it.treeEdit} {
		var out []byte
		if out, err = edit(key, node); err != nil {
			continue
		}
		var n *Item
		if n, err = Parse(it.Path, out); err != nil {
			continue
		}
		if err = it.keeps(n, key, node); err == nil {
			*it = *n
			return nil
		}
	}
	verb := "rewrite"
	if node == nil {
		verb = "remove"
	}
	return fmt.Errorf("markdown: %s %s of %s: %w", verb, key, it.Path, err)
}

// lineEdit replaces the lines of key (or inserts them before the closing
// ---) with key: node encoded at the indentation of the mapping's keys.
func (it *Item) lineEdit(key string, node *yaml.Node) ([]byte, error) {
	if it.meta != nil && it.meta.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("a flow mapping has no lines of its own per key")
	}
	var repl []byte
	if node != nil {
		enc, err := encodeYAML(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{it.keyNode(key), node}})
		if err != nil {
			return nil, err
		}
		repl = it.eol(indent(enc, it.indent()))
	}
	from, to := it.keySpan(key)
	out := make([]byte, 0, len(it.raw)+len(repl))
	out = append(out, it.raw[:from]...)
	out = append(out, repl...)
	return append(out, it.raw[to:]...), nil
}

// treeEdit re-encodes the frontmatter with key set to node (removed when
// nil), from a copy of its parsed tree: every other node, its comments and
// styles go through yaml.v3 as they were parsed. An alias of an anchor in
// the value replaced becomes a copy of what it named.
func (it *Item) treeEdit(key string, node *yaml.Node) ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	if it.meta != nil {
		m = copyTree(it.meta, map[*yaml.Node]*yaml.Node{})
	}
	i := 0
	for i < len(m.Content) && m.Content[i].Value != key {
		i += 2
	}
	var gone *yaml.Node
	switch {
	case i+1 < len(m.Content) && node != nil:
		gone, m.Content[i+1] = m.Content[i+1], node
	case i+1 < len(m.Content):
		gone = m.Content[i+1]
		m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
	case node != nil:
		m.Content = append(m.Content, it.keyNode(key), node)
	}
	if gone != nil {
		unalias(m, within(gone))
	}
	enc, err := encodeYAML(m)
	if err != nil {
		return nil, err
	}
	from, to := it.frontmatterSpan()
	out := make([]byte, 0, len(it.raw)+len(enc))
	out = append(out, it.raw[:from]...)
	out = append(out, it.eol(enc)...)
	return append(out, it.raw[to:]...), nil
}

// keeps says why n, the item rewritten from it with key set to node
// (removed when nil), is not what was asked: a body that changed, another
// key whose value changed, or key's value.
func (it *Item) keeps(n *Item, key string, node *yaml.Node) error {
	if !bytes.Equal(n.Body(), it.Body()) {
		return fmt.Errorf("the body would change")
	}
	if before, after := otherValues(it, key), otherValues(n, key); !reflect.DeepEqual(before, after) {
		return fmt.Errorf("another key would change")
	}
	got := n.Node(key)
	if node == nil && got == nil || node != nil && got != nil && reflect.DeepEqual(decoded(got), decoded(node)) {
		return nil
	}
	return fmt.Errorf("%s would not hold the value asked", key)
}

// otherValues are the frontmatter's keys but skip, in order, each with its
// decoded value (aliases and merge keys resolved).
func otherValues(it *Item, skip string) []any {
	var out []any
	if it.meta == nil {
		return out
	}
	for i := 0; i+1 < len(it.meta.Content); i += 2 {
		if k := it.meta.Content[i]; k.Value != skip {
			out = append(out, k.Value, decoded(it.meta.Content[i+1]))
		}
	}
	return out
}

// decoded is a node's value as a program reads it, or its decode error.
func decoded(n *yaml.Node) any {
	var v any
	if err := n.Decode(&v); err != nil {
		return err.Error()
	}
	return v
}

// keyNode is the key node to write for key: the existing one's tag and
// quoting without its comments (they stay in the file), else a plain one.
func (it *Item) keyNode(key string) *yaml.Node {
	if it.meta != nil {
		for i := 0; i+1 < len(it.meta.Content); i += 2 {
			if k := it.meta.Content[i]; k.Value == key && k.Kind == yaml.ScalarNode {
				return &yaml.Node{Kind: yaml.ScalarNode, Tag: k.Tag, Style: k.Style, Value: k.Value}
			}
		}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: key}
}

// indent is the indentation of the mapping's keys: the spaces that start
// the line of its first key (before a "? " of an explicit key, after a tag
// on a line of its own).
func (it *Item) indent() int {
	if it.meta == nil || len(it.meta.Content) == 0 {
		return 0
	}
	starts := lineStarts(it.raw)
	i := it.fmLine + it.meta.Content[0].Line - 1
	if i < 0 || i >= len(starts) {
		return 0
	}
	return leadingSpaces(it.raw[starts[i]:])
}

// indent puts n spaces before every line of b that is not empty (an empty
// line inside a block scalar stays empty).
func indent(b []byte, n int) []byte {
	if n == 0 {
		return b
	}
	pad := bytes.Repeat([]byte(" "), n)
	var out []byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, pad...)
		}
		out = append(out, l...)
	}
	return out
}

// eol gives b the file's line ends.
func (it *Item) eol(b []byte) []byte {
	if bytes.Contains(it.raw, []byte("\r\n")) {
		return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	}
	return b
}

// frontmatterSpan is the byte range between the opening and closing ---
// lines.
func (it *Item) frontmatterSpan() (from, to int) {
	starts := lineStarts(it.raw)
	from = len(it.raw)
	if it.fmLine < len(starts) {
		from = starts[it.fmLine]
	}
	return from, starts[lineAt(it.raw, it.bodyStart-1)-1]
}

// copyTree copies a node tree; seen maps each node copied to its copy, so
// an alias points at the copy of its anchor.
func copyTree(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node {
	if c, ok := seen[n]; ok {
		return c
	}
	c := &yaml.Node{}
	*c = *n
	seen[n] = c
	if n.Alias != nil {
		c.Alias = copyTree(n.Alias, seen)
	}
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = copyTree(k, seen)
	}
	return c
}

// within is the set of nodes of the tree at n.
func within(n *yaml.Node) map[*yaml.Node]bool {
	set := map[*yaml.Node]bool{}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		set[n] = true
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return set
}

// unalias turns each alias under n of an anchor in gone into a copy of the
// node it names, without the anchor.
func unalias(n *yaml.Node, gone map[*yaml.Node]bool) {
	if n.Kind == yaml.AliasNode && gone[n.Alias] {
		*n = *copyTree(n.Alias, map[*yaml.Node]*yaml.Node{})
		n.Anchor = ""
	}
	for _, c := range n.Content {
		unalias(c, gone)
	}
}

// keySpan returns the byte range of the lines that hold a top-level key and
// its value; for an absent key, the empty range just before the closing ---.
func (it *Item) keySpan(key string) (from, to int) {
	starts := lineStarts(it.raw)
	off := func(line int) int { // 1-based line -> offset of its start
		if line-1 < len(starts) {
			return starts[line-1]
		}
		return len(it.raw)
	}
	closeLine := lineAt(it.raw, it.bodyStart-1) // the closing --- line
	if it.meta != nil {
		for i := 0; i+1 < len(it.meta.Content); i += 2 {
			if it.meta.Content[i].Value != key {
				continue
			}
			first := it.fmLine + it.meta.Content[i].Line
			last := closeLine - 1
			if i+2 < len(it.meta.Content) {
				last = it.fmLine + it.meta.Content[i+2].Line - 1
			}
			// Leave blank lines, and comments at the keys' indentation, that
			// precede the next key in place; a deeper "#" line is the value's
			// (a block scalar's content, a comment inside it).
			keyIndent := leadingSpaces(it.raw[off(first):off(first+1)])
			for last > first && isCommentOrBlank(it.raw[off(last):off(last+1)], keyIndent) {
				last--
			}
			return off(first), off(last + 1)
		}
	}
	return off(closeLine), off(closeLine)
}

// isCommentOrBlank: line is blank, or a comment indented no deeper than
// indent.
func isCommentOrBlank(line []byte, indent int) bool {
	t := bytes.TrimSpace(line)
	return len(t) == 0 || t[0] == '#' && leadingSpaces(line) <= indent
}

func leadingSpaces(line []byte) int { return len(line) - len(bytes.TrimLeft(line, " ")) }

func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			starts = append(starts, i+1)
		}
	}
	return starts
}
