package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ListCmd lists the store's items, optionally filtered.
type ListCmd struct {
	Kind     string   `enum:",lesson,pitfall,decision" default:"" help:"Only this kind: lesson, pitfall or decision."`
	Status   string   `help:"Only this status (active, draft, accepted, ...)."`
	Tag      []string `help:"Only items with this tag (repeatable: all must match); a bare category such as lang matches lang:*."`
	Priority string   `help:"Only this priority: a band (critical, high, medium, low) or a number 1-10."`
	JSON     bool     `name:"json" help:"Print a JSON array."`
}

// Run prints the items that pass every filter, in path order. Files that
// do not parse are named on stderr and skipped (lore lint explains them).
func (c *ListCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.List(s, app.ListOptions{Kind: c.Kind, Status: c.Status, Tags: c.Tag, Priority: c.Priority})
	if err != nil {
		return err
	}
	warnSkipped(g, r.Skipped)
	for _, name := range r.Unfetched {
		fmt.Fprintf(g.Stderr, "lore: list: %s\n", app.NoCopy(name))
	}
	if c.JSON {
		return g.printJSON(r.Items)
	}
	if len(r.Items) == 0 {
		fmt.Fprintln(g.Stderr, noItems(len(r.Skipped)))
		return nil
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tSTATUS\tPRIORITY\tDELIVERY\tREF\tTITLE")
	for _, e := range r.Items {
		ref := e.Ref
		if ref == "" {
			ref = "-"
		}
		// Padding is computed on the painted text, so every cell of
		// the column gets the same escapes.
		pri := g.paint(bandStyle[e.Band], e.Band)
		title := e.Title
		if e.Origin != compile.Project.String() { // an org or user item names where it is
			title += " (" + e.Path + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", visible(e.ID), visible(e.Kind), visible(e.Status), pri, e.Delivery.Kind, visible(ref), visible(title))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printNever(g, r.Items)
	return nil
}

// printNever says why each active item that never reaches an agent does
// not (a draft's reason, its status, goes without saying).
func printNever(g *Globals, items []app.ListEntry) {
	for _, e := range items {
		if e.Delivery.Kind == compile.Never && (e.Status == "active" || e.Status == "accepted") {
			fmt.Fprintf(g.Stdout, "never delivered: %s: %s\n", visible(e.Path), visible(e.Delivery.Reason))
		}
	}
}

// bandStyle is the colour of a priority band in lore list.
var bandStyle = map[string]string{"critical": styleRed, "high": styleYellow, "medium": "0", "low": "2"}

// noItems says there is nothing to list, and that files were skipped (a
// merge conflict, a syntax error) when some were: "no items" alone would
// hide them.
func noItems(skipped int) string {
	if skipped == 0 {
		return "no items"
	}
	return fmt.Sprintf("no items (%d file(s) skipped, see above)", skipped)
}
