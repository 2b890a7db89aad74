package markdown

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// sameAsYAML says quickYAML, when it accepts data, makes the tree
// yaml.v3 makes of it, and whether it accepted.
func sameAsYAML(t *testing.T, name string, data []byte) bool {
	t.Helper()
	var quick yaml.Node
	if !quickYAML(data, &quick) {
		return false
	}
	var want yaml.Node
	if err := yaml.Unmarshal(data, &want); err != nil {
		t.Errorf("%s: quickYAML accepted what yaml.v3 refuses (%v):\n%s", name, err, data)
		return true
	}
	if !reflect.DeepEqual(quick, want) {
		t.Errorf("%s: quickYAML's tree differs from yaml.v3's:\n%s\nquick: %s\nyaml.v3: %s", name, data, dump(&quick), dump(&want))
	}
	return true
}

// dump prints a tree with every field the comparison sees.
func dump(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "\n%s%q kind=%d style=%d tag=%s at %d:%d comments=%q|%q|%q", strings.Repeat("  ", depth),
			n.Value, n.Kind, n.Style, n.Tag, n.Line, n.Column, n.HeadComment, n.LineComment, n.FootComment)
		for _, k := range n.Content {
			walk(k, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// frontmatterOf returns the bytes adrg/frontmatter hands the YAML parser:
// what lies between the --- lines.
func frontmatterOf(data []byte) ([]byte, bool) {
	text := bytes.TrimPrefix(data, []byte("\ufeff"))
	open, close, end := findFrontmatter(text)
	if open < 0 || close < 0 {
		return nil, false
	}
	return innerBlock(text[:end]), true
}

// quickYAML makes yaml.v3's tree of every frontmatter it accepts in the
// testdata corpus, and accepts a good share of it.
func TestQuickYAMLIsYAMLv3(t *testing.T) {
	accepted, total := 0, 0
	for name, data := range corpus(t) {
		if fm, ok := frontmatterOf(data); ok {
			total++
			if sameAsYAML(t, name, fm) {
				accepted++
			}
		}
	}
	if accepted < total/3 {
		t.Errorf("quickYAML accepted %d of the corpus's %d frontmatters", accepted, total)
	}
}

// Shapes at the edges of what quickYAML accepts: each either makes
// yaml.v3's tree or is refused.
func TestQuickYAMLEdges(t *testing.T) {
	for _, s := range []struct {
		data   string
		accept bool
	}{
		{"id: x\nkind: lesson\n", true},
		{"title: 'It''s a ''quote'''\n", true},
		{"title: \"say \\\"x\\\"\"\n", false},
		{"title: \"plain double\"\n", true},
		{"tags: [a, 'b c', \"d\", team:platform]\n", true},
		{"tags: []\n", true},
		{"tags: [a, ]\n", false},
		{"tags: [a\n", false},
		{"triggers:\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\n", true},
		{"tags:\n- a\n- b\nstatus: active\n", true},
		{"tags:\n  - a\n  -   b\n", true},
		{"tags:\n  - a: b\n", false},
		{"title: a: b\n", false},
		{"title: http://x.example/a?b=c\n", true},
		{"priority: 2\nconfidence: 0.8\ncreated: 2024-01-02\nok: true\nnone: null\nwave: ~\n", true},
		{"title: x # a comment\n", false},
		{"title: multi\n  line\n", false},
		{"title:\n", false},
		{"title: |\n  x\n", false},
		{"a: &x 1\nb: *x\n", false},
		{"id: x\nid: y\n", false},
		{"  id: x\n", false},
		{"source:\n  type: scan\n  sessions:\n    - s1\n  files: [a/b.py]\nstatus: draft\n", true},
		{"examples:\n  fire:\n    - 'Bash: pytest'\n    - Edit\n  quiet: []\n", true},
		{"title: -x\nref: ?y\nk: :z\n", true},
		{"title: - x\n", false},
		{"title: x \n\n\nstatus:   active   \n", true},
		{"title: caf\u00e9\n", false},
		{"<<: x\n", false},
		{"true: x\nNull: y\nno: z\n", true},
	} {
		var quick yaml.Node
		if got := quickYAML([]byte(s.data), &quick); got != s.accept {
			t.Errorf("quickYAML(%q) accepted %v, want %v", s.data, got, s.accept)
		}
		sameAsYAML(t, s.data, []byte(s.data))
	}
}
