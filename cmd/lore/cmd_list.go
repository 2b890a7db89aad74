package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/lore-agents/lore/markdown"
)

// ListCmd lists the store's items, optionally filtered.
type ListCmd struct {
	Kind     string   `enum:",lesson,pitfall,decision" default:"" help:"Only this kind: lesson, pitfall or decision."`
	Status   string   `help:"Only this status (active, draft, accepted, ...)."`
	Tag      []string `help:"Only items with this tag (repeatable: all must match); a bare category such as lang matches lang:*."`
	Priority string   `help:"Only this priority: a band (critical, high, medium, low) or a number 1-10."`
	JSON     bool     `name:"json" help:"Print a JSON array."`
}

// listEntry is one item in list --json.
type listEntry struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	Title      string   `json:"title"`
	Status     string   `json:"status"`
	Priority   int      `json:"priority"`
	Band       string   `json:"band"`
	Confidence float64  `json:"confidence"`
	Ref        string   `json:"ref,omitempty"`
	Tags       []string `json:"tags"`
	Path       string   `json:"path"`
}

// Run prints the items that pass every filter, in path order. Files that
// do not parse are named on stderr and skipped (lore lint explains them).
func (c *ListCmd) Run(g *Globals) error {
	keep, err := c.filter()
	if err != nil {
		return err
	}
	items, err := loadItems(g)
	if err != nil {
		return err
	}
	out := []listEntry{}
	for _, it := range items {
		if keep(it) {
			tags := it.Tags
			if tags == nil {
				tags = []string{}
			}
			out = append(out, listEntry{it.ID, it.Kind, it.Title, it.Status, int(it.Priority), it.Priority.Band(), it.Confidence, it.Ref, tags, it.Path})
		}
	}
	if c.JSON {
		return g.printJSON(out)
	}
	if len(out) == 0 {
		fmt.Fprintln(g.Stderr, "no items")
		return nil
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tSTATUS\tPRIORITY\tREF\tTITLE")
	for _, e := range out {
		ref := e.Ref
		if ref == "" {
			ref = "-"
		}
		pri := e.Band
		if g.Color {
			pri = paint(pri, e.Band)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.ID, e.Kind, e.Status, pri, ref, e.Title)
	}
	return tw.Flush()
}

// paint colors a band name; padding is computed on the escaped text, so
// every cell of the column gets the same escapes.
func paint(s, band string) string {
	code := map[string]string{"critical": "31", "high": "33", "medium": "0", "low": "2"}[band]
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// filter turns the flags into one predicate; a bad --priority is a usage
// error before anything is read.
func (c *ListCmd) filter() (func(*markdown.Item) bool, error) {
	band, num := "", 0
	if p := strings.ToLower(strings.TrimSpace(c.Priority)); p != "" {
		switch p {
		case "critical", "high", "medium", "low":
			band = p
		default:
			n, err := markdown.ParsePriority(p)
			if err != nil {
				return nil, usagef("--priority: %v", err)
			}
			num = int(n)
		}
	}
	return func(it *markdown.Item) bool {
		switch {
		case c.Kind != "" && it.Kind != c.Kind,
			c.Status != "" && !strings.EqualFold(it.Status, c.Status),
			band != "" && it.Priority.Band() != band,
			num != 0 && int(it.Priority) != num:
			return false
		}
		for _, t := range c.Tag {
			if !hasTag(it.Tags, t) {
				return false
			}
		}
		return true
	}, nil
}

func hasTag(tags []string, want string) bool {
	for _, t := range tags {
		if strings.EqualFold(t, want) {
			return true
		}
		if cat, _, ok := strings.Cut(t, ":"); ok && !strings.Contains(want, ":") && strings.EqualFold(cat, want) {
			return true
		}
	}
	return false
}

// loadItems loads every item of an initialized store; files that cannot be
// parsed are reported on stderr and skipped.
func loadItems(g *Globals) ([]*markdown.Item, error) {
	s, err := g.InitializedStore()
	if err != nil {
		return nil, err
	}
	items, errs := s.Load()
	for _, e := range errs {
		fmt.Fprintf(g.Stderr, "lore: skipped %v (see lore lint)\n", e)
	}
	return items, nil
}
