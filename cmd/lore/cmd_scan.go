package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/review"
	"github.com/lore-agents/lore/scan"
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
	if quiet {
		if err != nil {
			logQuiet(g, err)
		}
		return nil
	}
	return err
}

func (c *ScanCmd) run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	var since time.Time
	if c.Since != "" {
		if since, err = parseSince(c.Since, time.Now()); err != nil {
			return err
		}
	}
	if !c.DryRun {
		// One scan at a time (parallel Stop hooks of several sessions): wait
		// a while for the other, which runs in the background anyway. This
		// lock is not the store's: writers of items only wait for writes.
		l := flock.New(filepath.Join(s.CacheDir(), "scan.lock"))
		if err := gitstore.NoSymlink(l.Path()); err != nil {
			return err
		}
		if err := os.MkdirAll(s.CacheDir(), 0o755); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), scanLockWait)
		defer cancel()
		ok, err := l.TryLockContext(ctx, 100*time.Millisecond)
		if !ok {
			return fmt.Errorf("another scan is still running in this repository after %v: %w", scanLockWait, err)
		}
		defer l.Unlock()
	}
	paths := c.Paths
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s: no such transcript file or folder", p)
		}
	}
	if len(paths) == 0 {
		paths = configuredPaths(s, cfg.Scan.Paths)
	}
	files, err := scan.Files(paths)
	if err != nil {
		return err
	}
	bmRel := gitstore.LocalRel + "/" + review.BookmarksFile
	if !c.DryRun { // moving an older lore's bookmarks out of the cache is a write
		if bmRel, err = s.Local(review.BookmarksFile); err != nil {
			return err
		}
	}
	data, _ := s.ReadFile(bmRel)
	home, _ := os.UserHomeDir()
	res, err := scan.Scan(files, scan.ParseBookmarks(data), scan.Options{Since: since, Root: s.Root, Home: home})
	if err != nil {
		return err
	}
	if c.JSON {
		if err := printJSONLines(g, res.Candidates); err != nil {
			return err
		}
	}
	var written []review.Written
	fresh := 0
	if !c.DryRun {
		// A scan that found nothing (most Stop hooks) loads no items and
		// rewrites no unchanged bookmarks.
		if len(res.Candidates) > 0 {
			known, err := review.Known(s)
			if err != nil {
				return err
			}
			var sel []scan.Candidate
			sel, fresh = review.Select(res.Candidates, known, cfg.Scan.MaxCandidates)
			if written, err = review.Write(s, sel, time.Now()); err != nil {
				return err
			}
		}
		if err := observeScan(s, res.Candidates, time.Now()); err != nil {
			return err
		}
		// The bookmarks last: a scan killed before them reads the same
		// lines again, and finds its drafts and sightings already there.
		// Unchanged bookmarks (nothing new) are not rewritten: the fsyncs
		// of a rewrite were most of what a re-scan cost.
		if bm := res.Bookmarks.Marshal(); !bytes.Equal(bm, data) {
			if err := s.WriteFile(bmRel, bm); err != nil {
				return err
			}
		}
	}
	if c.JSON || c.Quiet {
		return nil
	}
	st := res.Stats
	fmt.Fprintf(g.Stdout, "scanned %d of %d files (%s, %d lines), %d candidates, %d new drafts\n",
		st.Files, len(files), size(st.Bytes), st.Lines, len(res.Candidates), len(written))
	if skipped := st.BadJSON + st.TooLong + st.Truncated + st.Unknown + st.Errors; skipped > 0 {
		fmt.Fprintf(g.Stdout, "skipped: %d not JSON, %d too long, %d truncated, %d unknown, %d unreadable files\n",
			st.BadJSON, st.TooLong, st.Truncated, st.Unknown, st.Errors)
	}
	for _, w := range written {
		fmt.Fprintf(g.Stdout, "draft %s  [%s, priority %d, confidence %.2f] %s\n", w.Path, w.Signal, w.Priority, w.Confidence, w.Title)
	}
	if fresh > len(written) {
		fmt.Fprintf(g.Stdout, "%d more new candidates not written (scan.maxCandidates is %d; see --json)\n", fresh-len(written), cfg.Scan.MaxCandidates)
	}
	if len(written) > 0 {
		fmt.Fprintln(g.Stdout, "review them with `lore review`")
	}
	return nil
}

// scanLockWait bounds how long a scan waits for another one to finish.
const scanLockWait = time.Minute

// configuredPaths resolves scan.paths (relative to the repository, ~
// expanded), or the agents' default folders for this repository.
func configuredPaths(s *gitstore.Store, cfg []string) []string {
	home, _ := os.UserHomeDir()
	if len(cfg) == 0 {
		return scan.DefaultPaths(s.Root, home)
	}
	var out []string
	for _, p := range cfg {
		if p == "~" || strings.HasPrefix(p, "~/") {
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		} else if !filepath.IsAbs(p) {
			p = s.Path(p)
		}
		out = append(out, p)
	}
	return out
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

// logQuiet appends a quiet run's error to .lore/cache/scan.log, best effort.
func logQuiet(g *Globals, err error) {
	s, serr := g.Store()
	if serr != nil || !s.Initialized() {
		return
	}
	f, ferr := gitstore.OpenAppend(filepath.Join(s.CacheDir(), "scan.log"))
	if ferr != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %v\n", time.Now().UTC().Format(time.RFC3339), err)
}
