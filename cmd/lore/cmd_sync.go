package main

import (
	"context"
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// SyncCmd fetches the organisation stores the config names and rebuilds.
type SyncCmd struct {
	Check      bool `help:"Fetch nothing: exit 1 when a source cannot be reached or the copy here is behind its remote (for CI)."`
	Background bool `help:"The hook's daily sync: print nothing, skip a source another lore is fetching." hidden:""`
	JSON       bool `name:"json" help:"Print each source's outcome as JSON."`
}

// Run syncs and prints one line per source.
func (c *SyncCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Sync(context.Background(), s, app.SyncOptions{Check: c.Check, Background: c.Background})
	if c.Background {
		return err
	}
	if r.Built != nil {
		printBuildProblems(g, *r.Built)
	} else {
		for _, p := range r.Problems { // a build says them with the rest
			fmt.Fprintf(g.Stderr, "lore: sync: %s\n", p)
		}
	}
	if err != nil {
		return err
	}
	if c.JSON {
		err = g.printJSON(r)
	} else {
		printSync(g, r, c.Check)
	}
	if err == nil && r.Failed() {
		err = errFindings
	}
	return err
}

func printSync(g *Globals, r app.SyncReport, check bool) {
	if len(r.Sources) == 0 {
		if len(r.Problems) > 0 {
			fmt.Fprintln(g.Stdout, "no source can be used: the config's problems above leave each one out")
		} else {
			fmt.Fprintln(g.Stdout, "no sources: name them under sources: in .lore/config.yaml or the user's config")
		}
		return
	}
	for _, s := range r.Sources {
		fmt.Fprintln(g.Stdout, syncLine(s, check))
	}
	if r.Built != nil && !r.Built.Fresh {
		fmt.Fprintf(g.Stdout, "built: %s compiled\n", plural(r.Built.Report.Compiled, "item"))
	}
}

// syncLine is one source's outcome.
func syncLine(s app.SyncedSource, check bool) string {
	at := "never fetched"
	if s.Commit != "" {
		at = fmt.Sprintf("%.12s, fetched %s", s.Commit, s.Fetched.Local().Format("2006-01-02 15:04"))
	}
	switch {
	case s.Error != "" && s.Commit != "":
		return fmt.Sprintf("%s: failed, keeping %s: %s", s.Name, at, s.Error)
	case s.Error != "":
		return fmt.Sprintf("%s: failed: %s", s.Name, s.Error)
	case check && s.Behind:
		return fmt.Sprintf("%s: behind: here %s, remote %.12s (run lore sync)", s.Name, at, s.Remote)
	case check:
		return fmt.Sprintf("%s: reachable, remote %.12s; here %s", s.Name, s.Remote, at)
	case s.Busy:
		return fmt.Sprintf("%s: another lore is fetching it", s.Name)
	case s.Changed:
		return fmt.Sprintf("%s: updated to %s", s.Name, at)
	}
	return fmt.Sprintf("%s: up to date at %s", s.Name, at)
}
