package main

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/markdown"
)

// ShowCmd prints one item.
type ShowCmd struct {
	Item string `arg:"" help:"The item: its id (or a unique id prefix), PF-/ADR- ref, file name slug or path."`
	JSON bool   `name:"json" help:"Print the frontmatter, sections and path as JSON."`
}

type sectionJSON struct {
	Title   string `json:"title"`
	Line    int    `json:"line"`
	Content string `json:"content"`
}

// Run finds the item and prints it.
func (c *ShowCmd) Run(g *Globals) error {
	items, err := loadItems(g)
	if err != nil {
		return err
	}
	it, err := resolve(items, c.Item)
	if err != nil {
		return err
	}
	if c.JSON {
		return showJSON(g, it)
	}
	showText(g, it)
	return nil
}

// resolve finds an item by, in order: id, ref, path, slug, id prefix. The
// first way that matches decides; two matches are an ambiguity that lists
// the candidates.
func resolve(items []*markdown.Item, q string) (*markdown.Item, error) {
	q = strings.TrimSpace(q)
	stem := func(it *markdown.Item) string { return strings.TrimSuffix(path.Base(it.Path), ".md") }
	ways := []func(*markdown.Item) bool{
		func(it *markdown.Item) bool { return strings.EqualFold(it.ID, q) },
		func(it *markdown.Item) bool { return it.Ref != "" && strings.EqualFold(it.Ref, q) },
		func(it *markdown.Item) bool {
			return it.Path == q || strings.HasSuffix(it.Path, "/"+strings.TrimPrefix(q, "./"))
		},
		func(it *markdown.Item) bool {
			s := stem(it)
			return s == q || (it.Ref != "" && strings.EqualFold(s, it.Ref+"-"+q))
		},
		func(it *markdown.Item) bool {
			return len(q) >= 2 && strings.HasPrefix(strings.ToUpper(it.ID), strings.ToUpper(q))
		},
	}
	for _, match := range ways {
		var found []*markdown.Item
		for _, it := range items {
			if match(it) {
				found = append(found, it)
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0], nil
		}
		var names []string
		for _, it := range found {
			names = append(names, fmt.Sprintf("%s (%s)", it.ID, it.Path))
		}
		return nil, fmt.Errorf("%q is ambiguous: %s", q, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("no item matches %q (lore list shows ids, refs and paths)", q)
}

// known keys are shown in the header; any other key is listed after it.
var knownKeys = map[string]bool{"id": true, "kind": true, "title": true, "status": true, "priority": true,
	"confidence": true, "ref": true, "tags": true, "triggers": true, "created": true, "updated": true}

func showText(g *Globals, it *markdown.Item) {
	w := g.Stdout
	bold := func(s string) string {
		if g.Color {
			return "\x1b[1m" + s + "\x1b[0m"
		}
		return s
	}
	kind := it.Kind
	if it.Ref != "" {
		kind += " " + it.Ref
	}
	fmt.Fprintln(w, bold(it.Title))
	fmt.Fprintf(w, "%s · %s · priority %s (%d) · confidence %g\n", kind, it.Status, it.Priority.Band(), int(it.Priority), it.Confidence)
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "%-10s %s\n", k+":", v)
		}
	}
	field("id", it.ID)
	field("path", it.Path)
	field("tags", strings.Join(it.Tags, ", "))
	t := it.Triggers
	for _, tr := range []struct {
		k string
		v []string
	}{{"tools", t.Tools}, {"commands", t.Commands}, {"unless", t.Unless}, {"paths", t.Paths}, {"content", t.Content}, {"keywords", t.Keywords}, {"topics", t.Topics}} {
		if len(tr.v) > 0 {
			field(tr.k, strings.Join(tr.v, "  "))
		}
	}
	for _, k := range it.Keys() {
		if knownKeys[k] {
			continue
		}
		field(k, compactValue(it.Node(k)))
	}
	if !it.Created.IsZero() {
		field("created", it.Created.Format("2006-01-02 15:04 MST"))
	}
	if !it.Updated.IsZero() {
		field("updated", it.Updated.Format("2006-01-02 15:04 MST"))
	}
	body := strings.TrimSpace(strings.ReplaceAll(string(it.Body()), "\r\n", "\n"))
	if body == "" {
		return
	}
	fmt.Fprintln(w)
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "## ") {
			line = bold(line)
		}
		fmt.Fprintln(w, line)
	}
}

// compactValue prints a frontmatter value on one line without its
// comments: scalars as they are, anything else as compact JSON.
func compactValue(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return "(" + err.Error() + ")"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// showJSON prints every frontmatter key as written (unknown ones too), with
// priority as a number plus its band, the sections and the path.
func showJSON(g *Globals, it *markdown.Item) error {
	out := map[string]any{}
	for _, k := range it.Keys() {
		var v any
		if err := it.Node(k).Decode(&v); err != nil {
			return fmt.Errorf("%s: %s: %w", it.Path, k, err)
		}
		out[k] = v
	}
	out["priority"] = int(it.Priority)
	out["band"] = it.Priority.Band()
	out["confidence"] = it.Confidence
	out["path"] = it.Path
	secs := []sectionJSON{}
	for _, s := range it.Sections {
		secs = append(secs, sectionJSON{s.Title, s.Line, s.Content})
	}
	out["sections"] = secs
	return g.printJSON(out)
}
