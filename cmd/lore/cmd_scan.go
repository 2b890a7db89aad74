package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lore-agents/lore/app"
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
		printScan(g, res)
	}
	return nil
}

func printScan(g *Globals, res *app.ScanResult) {
	st, w := res.Stats, g.Stdout
	fmt.Fprintf(w, "scanned %d of %d files (%s, %d lines), %d candidates, %d new drafts\n",
		st.Files, res.Files, size(st.Bytes), st.Lines, len(res.Candidates), len(res.Written))
	if skipped := st.BadJSON + st.TooLong + st.Truncated + st.Unknown + st.Errors; skipped > 0 {
		fmt.Fprintf(w, "skipped: %d not JSON, %d too long, %d truncated, %d unknown, %d unreadable files\n",
			st.BadJSON, st.TooLong, st.Truncated, st.Unknown, st.Errors)
	}
	for _, d := range res.Written {
		fmt.Fprintf(w, "draft %s  [%s, priority %d, confidence %.2f] %s\n", d.Path, d.Signal, d.Priority, d.Confidence, d.Title)
	}
	if res.Fresh > len(res.Written) {
		fmt.Fprintf(w, "%d more new candidates not written (scan.maxCandidates is %d; see --json)\n", res.Fresh-len(res.Written), res.MaxCandidates)
	}
	if len(res.Written) > 0 {
		fmt.Fprintln(w, "review them with `lore review`")
	}
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

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
