package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/app"
)

// ScanCmd mines agent transcripts for draft lessons.
type ScanCmd struct {
	Paths  []string `arg:"" optional:"" name:"path" help:"Transcript files or folders (default: scan.paths, else the agents' folders for this repository)."`
	JSON   bool     `name:"json" help:"Print one JSON object per candidate per line."`
	DryRun bool     `name:"dry-run" help:"Write nothing: no drafts, no bookmarks."`
	Since  string   `help:"Only files modified since: a duration (48h, 7d) or a date (YYYY-MM-DD)."`
	Quiet  bool     `help:"Print nothing and always exit 0 (for the Stop/SessionEnd hook)."`
}

// Run scans, prints and writes the drafts.
func (c *ScanCmd) Run(g *Globals) error { return quietly(g, c.Quiet, c.run(g)) }

// quietly is what a --quiet command run in the background returns: its
// error goes to .lore/cache/scan.log and it exits 0.
func quietly(g *Globals, quiet bool, err error) error {
	if !quiet {
		return err
	}
	if s, serr := g.Store(); err != nil && serr == nil {
		app.LogQuiet(s, err)
	}
	return nil
}

func (c *ScanCmd) run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	opt := app.ScanOptions{Paths: c.Paths, DryRun: c.DryRun}
	if c.Since != "" {
		if opt.Since, err = parseSince(c.Since, time.Now()); err != nil {
			return err
		}
	}
	res, err := app.Scan(s, opt)
	switch {
	case err != nil:
		return err
	case c.JSON:
		return printJSONLines(g, res.Candidates)
	case !c.Quiet:
		printScan(g.Stdout, res)
	}
	return nil
}

func parseSince(v string, now time.Time) (time.Time, error) {
	if strings.HasSuffix(v, "d") {
		if n, err := strconv.Atoi(strings.TrimSuffix(v, "d")); err == nil {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil {
		return now.Add(-d), nil
	}
	for _, layout := range []string{"2006-01-02", time.RFC3339} {
		if t, err := time.ParseInLocation(layout, v, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, usagef("--since %q: want a duration (48h, 7d) or a date (YYYY-MM-DD)", v)
}
