package markdown

import (
	"bytes"
	"fmt"
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
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: key}, node}}
	repl, err := encodeYAML(m)
	if err != nil {
		return err
	}
	if bytes.Contains(it.raw, []byte("\r\n")) {
		repl = bytes.ReplaceAll(repl, []byte("\n"), []byte("\r\n"))
	}
	from, to := it.keySpan(key)
	out := make([]byte, 0, len(it.raw)+len(repl))
	out = append(out, it.raw[:from]...)
	out = append(out, repl...)
	out = append(out, it.raw[to:]...)
	n, err := Parse(it.Path, out)
	if err != nil {
		return fmt.Errorf("markdown: rewrite %s of %s: %w", key, it.Path, err)
	}
	*it = *n
	return nil
}

// Unset removes a top-level key and re-parses the item; an absent key is
// no change. Every other byte is kept.
func (it *Item) Unset(key string) error {
	if !it.Has(key) {
		return nil
	}
	from, to := it.keySpan(key)
	out := append(append([]byte{}, it.raw[:from]...), it.raw[to:]...)
	n, err := Parse(it.Path, out)
	if err != nil {
		return fmt.Errorf("markdown: remove %s of %s: %w", key, it.Path, err)
	}
	*it = *n
	return nil
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
			// Leave comment and blank lines that precede the next key in place.
			for last > first && isCommentOrBlank(it.raw[off(last):off(last+1)]) {
				last--
			}
			return off(first), off(last + 1)
		}
	}
	return off(closeLine), off(closeLine)
}

func isCommentOrBlank(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) == 0 || t[0] == '#'
}

func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			starts = append(starts, i+1)
		}
	}
	return starts
}
