package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// printShow writes the item for a reader: title, a header of its keys,
// the body; with colour, the title and headings in bold.
func printShow(g *Globals, r app.ShowResult) {
	w, it := g.Stdout, r.Item
	bold := func(s string) string { return g.paint(styleBold, s) }
	kind := it.Kind
	if it.Ref != "" {
		kind += " " + it.Ref
	}
	fmt.Fprintln(w, bold(visible(it.Title)))
	fmt.Fprintf(w, "%s · %s · priority %s (%d) · confidence %g\n", visible(kind), visible(it.Status), it.Priority.Band(), int(it.Priority), it.Confidence)
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "%-10s %s\n", visible(k)+":", visible(v))
		}
	}
	delivery := r.Delivery.Kind
	if r.Delivery.Reason != "" {
		delivery += ": " + r.Delivery.Reason
	}
	field("delivery", delivery)
	field("id", it.ID)
	field("path", it.Path)
	field("tags", strings.Join(it.Tags, ", "))
	t := it.Triggers
	for _, tr := range []struct {
		k string
		v []string
	}{{"tools", t.Tools}, {"commands", t.Commands}, {"unless", t.Unless}, {"paths", t.Paths}, {"content", t.Content}, {"keywords", t.Keywords}, {"topics", t.Topics}} {
		field(tr.k, strings.Join(tr.v, "  "))
	}
	for _, f := range r.Extra {
		field(f.Key, f.Value)
	}
	if !it.Created.IsZero() {
		field("created", it.Created.Format("2006-01-02 15:04 MST"))
	}
	if !it.Updated.IsZero() {
		field("updated", it.Updated.Format("2006-01-02 15:04 MST"))
	}
	printBody(w, it, bold)
}

// printBody prints the body with its section headings in bold.
func printBody(w io.Writer, it *markdown.Item, bold func(string) string) {
	body := visible(strings.TrimSpace(strings.ReplaceAll(string(it.Body()), "\r\n", "\n")))
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
