package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// StatsCmd reports, per item, what it reached and what it prevented.
type StatsCmd struct {
	Items       []string `arg:"" optional:"" name:"item" help:"Items by id, ref, slug or path (default: every item)."`
	Since       string   `placeholder:"YYYY-MM-DD" help:"Count only what happened on or after this date."`
	Transcripts []string `placeholder:"PATH" help:"Transcript files or folders to read (default: the configured scan paths)."`
	JSON        bool     `name:"json" help:"Print the report as JSON."`
}

// Run gathers the evidence and prints it.
func (c *StatsCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Stats(s, app.StatsOptions{Items: c.Items, Since: c.Since, Transcripts: c.Transcripts})
	warnSkipped(g, r.Skipped)
	if r.LedgerSkipped > 0 {
		fmt.Fprintf(g.Stderr, "lore stats: %d ledger lines could not be read and were skipped\n", r.LedgerSkipped)
	}
	if err != nil {
		return err
	}
	if c.JSON {
		return g.printJSON(r.Report)
	}
	printStats(g.Stdout, r)
	return nil
}

// ReplayCmd runs items against the recorded tool calls.
type ReplayCmd struct {
	Items       []string `arg:"" optional:"" name:"item" help:"Items by id, ref or slug, or item files (a draft, a changed file); default: the whole store."`
	Transcripts []string `placeholder:"PATH" help:"Transcript files or folders to read (default: the configured scan paths)."`
	JSON        bool     `name:"json" help:"Print the report as JSON (whatever --format says)."`
	Format      string   `enum:"text,github" default:"text" help:"text, or github: annotations for a pull request."`
}

// Run replays and prints.
func (c *ReplayCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Replay(s, app.ReplayOptions{Args: c.Items, Dir: g.Dir, Transcripts: c.Transcripts})
	warnSkipped(g, r.Skipped)
	if err != nil {
		return err
	}
	switch {
	case c.JSON:
		return g.printJSON(r.Report)
	case c.Format == "github":
		printReplayGitHub(g.Stdout, r.Report)
	default:
		printReplay(g.Stdout, r.Report)
	}
	return nil
}
