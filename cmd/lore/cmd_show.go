package main

import (
	"errors"
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ShowCmd prints one item.
type ShowCmd struct {
	Item string `arg:"" help:"The item: its id (or a unique id prefix), PF-/ADR- ref, file name slug or path."`
	JSON bool   `name:"json" help:"Print the frontmatter, sections and path as JSON."`
}

// Run finds the item and prints it.
func (c *ShowCmd) Run(g *Globals, s *gitstore.Store) error {
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
	printShow(g, r)
	return nil
}

// warnSkipped names the files that could not be parsed on stderr. An org
// store's are counted, one line a store: they are its repository's to
// fix, and naming each on every command would be noise here (lore lint
// and lore sync name them).
func warnSkipped(g *Globals, errs []error) {
	var stores []string
	count := map[string]int{}
	for _, e := range errs {
		if problems := app.ConfigProblems(e); problems != nil {
			for _, p := range problems {
				fmt.Fprintf(g.Stderr, "lore: %s\n", p)
			}
			continue
		}
		o := ""
		if me := (*markdown.Error)(nil); errors.As(e, &me) {
			o = app.Origin(me.Path)
		}
		if o == "" || o == app.UserStore {
			fmt.Fprintf(g.Stderr, "lore: skipped %v (see lore lint)\n", e)
			continue
		}
		if count[o] == 0 {
			stores = append(stores, o)
		}
		count[o]++
	}
	for _, o := range stores {
		fmt.Fprintf(g.Stderr, "lore: skipped %s of %s, its repository's to fix (lore lint names them)\n", plural(count[o], "file"), o)
	}
}
