package markdown

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/lazyre"
)

// Examples are calls an item must fire on and calls it must stay quiet
// on, each written `Tool: input` (docs/design.md, Item format). lint runs
// them through the hook's matcher.
type Examples struct {
	Fire  []Example
	Quiet []Example
}

// Empty reports whether there is no example.
func (e Examples) Empty() bool { return len(e.Fire)+len(e.Quiet) == 0 }

// Example is one call: the tool as written and its input (a command, a
// path, `path | added text`, or a prompt), at a file line (0 when it was
// not read from a file).
type Example struct {
	Tool, Input string
	Line        int
}

// String is the example as written: `Tool: input`.
func (e Example) String() string {
	if e.Input == "" {
		return e.Tool + ":"
	}
	return e.Tool + ": " + e.Input
}

var exampleRe = lazyre.New(`^([A-Za-z][A-Za-z0-9_.-]*):(?:\s+([\s\S]*))?$`)

// ParseExample reads one example, `Tool: input` (`Bash: pytest -x tests`,
// `Edit: src/db/0003.py`); the input may be empty (`WebFetch:`).
func ParseExample(s string) (Example, error) {
	m := exampleRe().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Example{}, fmt.Errorf("%q is not a call written `Tool: input` (e.g. `Bash: pytest -x tests`, `Edit: src/app.py`)", s)
	}
	return Example{Tool: m[1], Input: strings.TrimSpace(m[2])}, nil
}

// decodeExamples reads `examples: {fire: [...], quiet: [...]}`. An entry
// is a string `Tool: input` or, as YAML reads an unquoted `- Bash: ls`, a
// mapping of one tool to its input.
func (it *Item) decodeExamples(v *yaml.Node) {
	it.entries(v, "examples", "(fire: [calls], quiet: [calls])", func(k, val *yaml.Node, key string) {
		switch k.Value {
		case "fire":
			it.Examples.Fire = append(it.Examples.Fire, it.exampleList(key, val)...)
		case "quiet":
			it.Examples.Quiet = append(it.Examples.Quiet, it.exampleList(key, val)...)
		default:
			it.problem(k, key, "unknown key (want fire or quiet)")
		}
	})
}

// exampleList reads a list of examples (or, leniently, one).
func (it *Item) exampleList(key string, v *yaml.Node) []Example {
	entries := []*yaml.Node{v}
	switch {
	case isNull(v):
		return nil
	case v.Kind == yaml.SequenceNode:
		entries = v.Content
	}
	var out []Example
	for _, n := range entries {
		if e, ok := it.example(key, n); ok {
			out = append(out, e)
		}
	}
	return out
}

// example reads one entry: a scalar `Tool: input` or a one-key mapping.
func (it *Item) example(key string, n *yaml.Node) (Example, bool) {
	text := n.Value
	switch {
	case n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[1].Kind == yaml.ScalarNode:
		text = n.Content[0].Value + ": " + n.Content[1].Value
	case n.Kind != yaml.ScalarNode || isNull(n):
		it.problem(n, key, "each example is one call written `Tool: input` (e.g. 'Bash: pytest -x tests')")
		return Example{}, false
	}
	e, err := ParseExample(text)
	if err != nil {
		it.problem(n, key, "%v", err)
		return Example{}, false
	}
	e.Line = it.fmLine + n.Line
	return e, true
}

// value is the examples as Spec.Compose writes them: quoted strings in
// flow lists; nil when there are none.
func (e Examples) value() any {
	if e.Empty() {
		return nil
	}
	return struct {
		Fire  []string `yaml:"fire,omitempty,flow"`
		Quiet []string `yaml:"quiet,omitempty,flow"`
	}{exampleStrings(e.Fire), exampleStrings(e.Quiet)}
}

func exampleStrings(list []Example) []string {
	var out []string
	for _, e := range list {
		out = append(out, e.String())
	}
	return out
}

// ParseExamples reads examples given as `Tool: input` strings (lore add's
// and lore promote's flags).
func ParseExamples(fire, quiet []string) (Examples, error) {
	var ex Examples
	for _, l := range []struct {
		flag string
		in   []string
		out  *[]Example
	}{{"--example-fire", fire, &ex.Fire}, {"--example-quiet", quiet, &ex.Quiet}} {
		for _, s := range l.in {
			e, err := ParseExample(s)
			if err != nil {
				return Examples{}, fmt.Errorf("%s: %w", l.flag, err)
			}
			*l.out = append(*l.out, e)
		}
	}
	return ex, nil
}
