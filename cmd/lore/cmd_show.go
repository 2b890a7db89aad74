package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lore-agents/lore/app"
	"github.com/lore-agents/lore/markdown"
)

// ShowCmd prints one item.
type ShowCmd struct {
	Item string `arg:"" help:"The item: its id (or a unique id prefix), PF-/ADR- ref, file name slug or path."`
	JSON bool   `name:"json" help:"Print the frontmatter, sections and path as JSON."`
}

// Run finds the item and prints it.
func (c *ShowCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	r, err := app.Show(s, c.Item)
	warnSkipped(g, r.Skipped)
	if err != nil {
		return err
	}
	if c.JSON {
		doc, err := r.JSON()
		if err != nil {
			return err
		}
		return g.printJSON(doc)
	}
	showText(g, r)
	return nil
}

// warnSkipped names the files that could not be parsed on stderr.
func warnSkipped(g *Globals, errs []error) {
	for _, e := range errs {
		fmt.Fprintf(g.Stderr, "lore: skipped %v (see lore lint)\n", e)
	}
}

// asUsage reports an app.InputError (a value the domain rejects) as a
// usage error, which points at the command's help.
func asUsage(err error) error {
	var in *app.InputError
	if errors.As(err, &in) {
		return usageError{in.Error()}
	}
	return err
}

func showText(g *Globals, r app.ShowResult) {
	w, it := g.Stdout, r.Item
	kind := it.Kind
	if it.Ref != "" {
		kind += " " + it.Ref
	}
	fmt.Fprintln(w, bold(g, it.Title))
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
	showBody(g, it)
}

// showBody prints the body with its section headings in bold.
func showBody(g *Globals, it *markdown.Item) {
	body := strings.TrimSpace(strings.ReplaceAll(string(it.Body()), "\r\n", "\n"))
	if body == "" {
		return
	}
	fmt.Fprintln(g.Stdout)
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "## ") {
			line = bold(g, line)
		}
		fmt.Fprintln(g.Stdout, line)
	}
}

func bold(g *Globals, s string) string {
	if g.Color {
		return "\x1b[1m" + s + "\x1b[0m"
	}
	return s
}
