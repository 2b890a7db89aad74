package markdown

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// layouts are frontmatter blocks in the layouts YAML allows, each with the
// same keys: lore writes the first; people, editors and other tools write
// the rest.
var layouts = map[string]string{
	"block":            "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: pytest hangs\nstatus: draft\npriority: medium\ntriggers:\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\ntags: [lang:python]\n",
	"indented":         "  id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\n  kind: lesson\n  title: pytest hangs\n  status: draft\n  priority: medium\n  triggers:\n    tools: [Bash]\n    commands: ['\\bpytest\\b']\n  tags: [lang:python]\n",
	"indented 4":       "    id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\n    kind: lesson\n    title: pytest hangs\n    status: draft\n    priority: medium\n    triggers:\n        tools:\n            - Bash\n        commands: ['\\bpytest\\b']\n    tags:\n    - lang:python\n",
	"flow":             "{id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8, kind: lesson, title: pytest hangs, status: draft, priority: medium, triggers: {tools: [Bash], commands: ['\\bpytest\\b']}, tags: [lang:python]}\n",
	"flow lines":       "{\n  id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8,\n  kind: lesson, title: pytest hangs,\n  status: draft,\n  priority: medium,\n  triggers: {tools: [Bash],\n    commands: ['\\bpytest\\b']},\n  tags: [lang:python]\n}\n",
	"comments":         "# owned by the CI team\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8 # never change\nkind: lesson\n\n# what it says\ntitle: pytest hangs\nstatus: draft   # until reviewed\npriority: medium\ntriggers:\n  # only the shell\n  tools: [Bash]\n  commands: ['\\bpytest\\b'] # word\ntags: [lang:python]\n# the end\n",
	"anchors":          "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: &t pytest hangs\nstatus: draft\npriority: &p medium\ntriggers: &tr\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\ntags: [lang:python]\nx-title: *t\nx-priority: *p\nx-triggers: *tr\n",
	"merge":            "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: pytest hangs\nstatus: draft\npriority: medium\nbase: &b {tools: [Bash]}\ntriggers:\n  <<: *b\n  commands: ['\\bpytest\\b']\ntags: [lang:python]\n",
	"quoted keys":      "\"id\": 01JQXYZ8K2M4N6P8Q0R2S4T6V8\n'kind': lesson\n\"title\": \"pytest hangs\"\nstatus: 'draft'\n\"priority\": medium\ntriggers: {\"tools\": [Bash], commands: ['\\bpytest\\b']}\ntags: [\"lang:python\"]\n",
	"explicit keys":    "? id\n: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\n? title\n: pytest hangs\nstatus: draft\n? priority\n: medium\ntriggers:\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\ntags: [lang:python]\n",
	"block scalars":    "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: >-\n  pytest\n  hangs\nstatus: draft\npriority: medium\nnotes: |\n  first\n\n  third\ntriggers:\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\ntags: [lang:python]\n",
	"tabs after colon": "id:\t01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind:\tlesson\ntitle:  pytest hangs\nstatus:   draft\npriority:\tmedium\ntriggers:\n  tools:   [Bash]\n  commands: ['\\bpytest\\b']\ntags:\n- lang:python\n",
	"numeric keys":     "  0:\n  00:\n  id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\n  1: one\n",
}

const layoutBody = "\n## Fix\nUse `TERM=dumb`.\n"

// edits are the rewrites lore makes: promote (status, priority), refine
// (triggers), an id for an imported item, and a key that is not there yet.
var edits = []struct {
	key   string
	value any
}{
	{"status", "active"},
	{"priority", "high"},
	{"triggers", map[string][]string{"tools": {"Bash"}, "commands": {`\bpytest -x\b`}}},
	{"id", "01JQXYZ8K2M4N6P8Q0R2S4T6V9"},
	{"updated", "2026-03-29T09:10:00Z"},
}

// TestRewriteKeepsEveryKey is the property of a frontmatter rewrite: on
// every layout, with LF or CRLF lines, setting or removing one key leaves
// every other key's decoded value (aliases and merges resolved) equal and
// the body byte for byte, and the key decodes to what was set
// (docs/design.md, Frontmatter rewrites).
func TestRewriteKeepsEveryKey(t *testing.T) {
	for name, fm := range layouts {
		for _, eol := range []string{"\n", "\r\n"} {
			data := []byte(strings.ReplaceAll("---\n"+fm+"---\n"+layoutBody, "\n", eol))
			orig, err := Parse("f.md", data)
			if err != nil {
				t.Fatalf("%s: layout does not parse: %v", name, err)
			}
			for _, e := range edits {
				it := mustParse(t, data)
				if err := it.Set(e.key, e.value); err != nil {
					t.Errorf("%s%q: set %s: %v", name, eol, e.key, err)
					continue
				}
				want := &yaml.Node{}
				_ = want.Encode(e.value)
				checkRewrite(t, fmt.Sprintf("%s%q: set %s", name, eol, e.key), orig, it, e.key, want)
			}
			for _, key := range orig.Keys() {
				it := mustParse(t, data)
				if err := it.SetNode(key, orig.Node(key)); err != nil {
					t.Errorf("%s%q: set %s to itself: %v", name, eol, key, err)
				} else {
					checkRewrite(t, fmt.Sprintf("%s%q: set %s to itself", name, eol, key), orig, it, key, orig.Node(key))
				}
				it = mustParse(t, data)
				if err := it.Unset(key); err != nil {
					t.Errorf("%s%q: unset %s: %v", name, eol, key, err)
					continue
				}
				checkRewrite(t, fmt.Sprintf("%s%q: unset %s", name, eol, key), orig, it, key, nil)
			}
		}
	}
}

func mustParse(t *testing.T, data []byte) *Item {
	t.Helper()
	it, err := Parse("f.md", data)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// checkRewrite compares the item after a rewrite of key (to want, or
// removed when want is nil) with the item before.
func checkRewrite(t *testing.T, what string, before, after *Item, key string, want *yaml.Node) {
	t.Helper()
	if !bytes.Equal(before.Body(), after.Body()) {
		t.Errorf("%s: body changed:\n%q", what, after.Raw())
	}
	if got, exp := keyValues(t, after, key), keyValues(t, before, key); !reflect.DeepEqual(got, exp) {
		t.Errorf("%s: other keys changed:\n got %v\nwant %v\nfile:\n%s", what, got, exp, after.Raw())
	}
	got := after.Node(key)
	switch {
	case want == nil && got != nil:
		t.Errorf("%s: key still there:\n%s", what, after.Raw())
	case want != nil && got == nil:
		t.Errorf("%s: key lost:\n%s", what, after.Raw())
	case want != nil && !reflect.DeepEqual(decodeNode(t, got), decodeNode(t, want)):
		t.Errorf("%s: %s is %v, want %v:\n%s", what, key, decodeNode(t, got), decodeNode(t, want), after.Raw())
	}
}

// keyValues lists the frontmatter's keys but skip, each with its decoded
// value, in order.
func keyValues(t *testing.T, it *Item, skip string) []string {
	var out []string
	for _, k := range it.Keys() {
		if k != skip {
			out = append(out, fmt.Sprintf("%s=%#v", k, decodeNode(t, it.Node(k))))
		}
	}
	return out
}

func decodeNode(t *testing.T, n *yaml.Node) any {
	t.Helper()
	var v any
	if err := n.Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

// TestRewriteIsSurgical: in a block layout only the key's own line
// changes, at the file's indentation; comments and every other byte stay.
func TestRewriteIsSurgical(t *testing.T) {
	for _, name := range []string{"block", "indented", "indented 4", "comments", "merge", "block scalars", "numeric keys"} {
		fm := layouts[name]
		if name == "numeric keys" {
			fm += "  priority: medium\n"
		}
		data := "---\n" + fm + "---\n" + layoutBody
		it := mustParse(t, []byte(data))
		if err := it.Set("priority", "high"); err != nil {
			t.Fatal(err)
		}
		if want := strings.Replace(data, "priority: medium", "priority: high", 1); string(it.Raw()) != want {
			t.Errorf("%s:\n got %q\nwant %q", name, it.Raw(), want)
		}
	}
}
