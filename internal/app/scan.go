package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/capture/review"
	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ScanOptions are what lore scan reads and whether it writes.
type ScanOptions struct {
	Paths  []string  // transcript files or folders (none: scan.paths, else the agents' folders)
	DryRun bool      // write nothing: no drafts, no bookmarks
	Since  time.Time // only files modified since (zero: all)
}

// ScanResult is what a scan found and wrote.
type ScanResult struct {
	Candidates    []scan.Candidate
	Stats         scan.Stats
	Files         int              // transcript files considered
	Written       []review.Written // new drafts
	Fresh         int              // new candidates, written or not
	MaxCandidates int              // scan.maxCandidates
}

// scanLockWait bounds how long a scan waits for another one to finish.
const scanLockWait = time.Minute

// Scan mines the transcripts for candidates and, unless DryRun, applies
// what it found: under the scan lock, it writes the new ones as drafts,
// counts them as observations and moves the bookmarks.
func Scan(s *gitstore.Store, opt ScanOptions) (*ScanResult, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	if opt.DryRun {
		// Only the plan: no lock, and the bookmarks read where they are.
		p, err := planScan(s, cfg, opt, func() (string, error) { return lorepath.Local + "/" + lorepath.Bookmarks, nil })
		if err != nil {
			return nil, err
		}
		return p.res, nil
	}
	unlock, err := s.ScanLock(scanLockWait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// An older lore's bookmarks move out of the cache first (a write).
	p, err := planScan(s, cfg, opt, func() (string, error) { return s.Local(lorepath.Bookmarks) })
	if err != nil {
		return nil, err
	}
	if err := p.apply(s, cfg); err != nil {
		return nil, err
	}
	return p.res, nil
}

// scanPlan is what a scan found, and the bookmarks it read and moves to.
type scanPlan struct {
	res       *ScanResult
	bmRel     string
	bmRead    []byte // the bookmarks as read
	bookmarks []byte // as the scan moved them; nil: as read
}

// planScan scans the transcripts from the bookmarks (none: an empty file)
// at the path bookmarksAt says; it writes nothing but what bookmarksAt
// does.
func planScan(s *gitstore.Store, cfg config.Config, opt ScanOptions, bookmarksAt func() (string, error)) (*scanPlan, error) {
	files, err := transcripts(s, opt.Paths, cfg.Scan.Paths)
	if err != nil {
		return nil, err
	}
	bmRel, err := bookmarksAt()
	if err != nil {
		return nil, err
	}
	data, _ := s.ReadFile(bmRel)
	home, _ := os.UserHomeDir()
	res, err := scan.Scan(files, scan.ParseBookmarks(data), scan.Options{Since: opt.Since, Root: s.Root, Home: home})
	if err != nil {
		return nil, err
	}
	r := &ScanResult{Candidates: res.Candidates, Stats: res.Stats, Files: len(files), MaxCandidates: cfg.Scan.MaxCandidates}
	p := &scanPlan{res: r, bmRel: bmRel, bmRead: data}
	if res.Moved || len(data) == 0 {
		p.bookmarks = res.Bookmarks.Marshal()
	}
	return p, nil
}

// apply writes the drafts and observations, then the bookmarks: a scan
// killed before them reads the same lines again, and finds its drafts and
// sightings already there. Unchanged bookmarks (nothing new) are not
// rewritten: the fsyncs of a rewrite were most of what a re-scan cost.
func (p *scanPlan) apply(s *gitstore.Store, cfg config.Config) error {
	if err := p.res.write(s, cfg); err != nil {
		return err
	}
	if p.bookmarks == nil || bytes.Equal(p.bookmarks, p.bmRead) {
		return nil
	}
	return s.WriteFile(p.bmRel, p.bookmarks)
}

// write writes the new candidates as drafts and counts them as sightings.
// A scan that found nothing (most Stop hooks) loads no items.
func (r *ScanResult) write(s *gitstore.Store, cfg config.Config) error {
	if len(r.Candidates) > 0 {
		known, err := review.Known(s)
		if err != nil {
			return err
		}
		var sel []scan.Candidate
		sel, r.Fresh = review.Select(r.Candidates, known, cfg.Scan.MaxCandidates)
		if r.Written, err = review.Write(s, sel, time.Now()); err != nil {
			return err
		}
	}
	return observeScan(s, r.Candidates, time.Now())
}

// transcripts lists the transcript files under the given paths (each must
// exist), or under the configured ones when none are given.
func transcripts(s *gitstore.Store, paths, configured []string) ([]string, error) {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%s: no such transcript file or folder", p)
		}
	}
	if len(paths) == 0 {
		paths = configuredPaths(s, configured)
	}
	return scan.Files(paths)
}

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

// LogQuiet appends a quiet background run's error to .lore/cache/scan.log,
// best effort (nothing when there is no .lore/).
func LogQuiet(s *gitstore.Store, err error) {
	if !s.Initialized() {
		return
	}
	f, ferr := s.OpenLog(lorepath.ScanLog)
	if ferr != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %v\n", time.Now().UTC().Format(time.RFC3339), err)
}
