package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// CallsStats are what bringing the calls cache up to date took.
type CallsStats struct {
	Transcripts int           `json:"transcripts"` // transcript files considered
	Read        int           `json:"read"`        // of them, read (new or changed)
	Bytes       int64         `json:"bytes"`       // bytes read
	Calls       int           `json:"calls"`       // calls recorded in all
	New         int           `json:"new"`         // calls this run added
	Took        time.Duration `json:"took"`
}

// callsHeader is the first line of a calls cache file: which transcript
// it is and how far it was read.
type callsHeader struct {
	Version int           `json:"v"`
	Key     string        `json:"key"`
	Mark    scan.Bookmark `json:"mark"`
}

const callsVersion = 1

// Calls brings the calls cache up to date with the transcripts at paths
// (nil: the configured scan paths, as lore scan uses) and returns every
// recorded call, oldest session first. It reads only what is new since
// the cache's own bookmarks (never lore scan's: it creates no drafts and
// moves no draft bookmark), replaces the calls of a rewritten transcript,
// and keeps the calls of transcripts since deleted.
func Calls(s *gitstore.Store, paths []string) ([]scan.Call, CallsStats, error) {
	t0 := time.Now()
	var st CallsStats
	cfg, err := s.Config()
	if !config.Usable(err) { // a key with a problem is at its default: lint says so
		return nil, st, err
	}
	files, err := transcripts(s, paths, cfg.Scan.Paths)
	if err != nil {
		return nil, st, err
	}
	raw, err := s.ReadCalls()
	if err != nil {
		return nil, st, err
	}
	cached := parseCallsCache(raw)
	marks := scan.ParseBookmarks(nil)
	for k, c := range cached {
		marks.Files[k] = c.head.Mark
	}
	home, _ := os.UserHomeDir()
	res, err := scan.ReadCalls(files, marks, scan.Options{Root: s.Root, Home: home})
	if err != nil {
		return nil, st, err
	}
	writes := map[string][]byte{}
	for _, fc := range res.Files {
		before := len(cached[fc.Key].calls)
		c := cached[fc.Key].update(fc)
		cached[fc.Key] = c
		st.New += max(0, len(c.calls)-before)
		if writes[gitstore.CallsFile(fc.Key)], err = c.marshal(); err != nil {
			return nil, st, err
		}
	}
	if err := s.WriteCalls(writes); err != nil {
		return nil, st, err
	}
	all := allCalls(cached)
	st.Transcripts, st.Read, st.Bytes, st.Calls = len(files), len(res.Files), res.Stats.Bytes, len(all)
	st.Took = time.Since(t0)
	return all, st, nil
}

// callsFile is one transcript's part of the cache.
type callsFile struct {
	head  callsHeader
	calls []scan.Call
}

// parseCallsCache reads the cache files by transcript; a damaged file is
// left out (its transcript is then read again).
func parseCallsCache(raw map[string][]byte) map[string]callsFile {
	out := make(map[string]callsFile, len(raw))
	for _, data := range raw {
		if c, ok := parseCallsFile(data); ok {
			out[c.head.Key] = c
		}
	}
	return out
}

func parseCallsFile(data []byte) (callsFile, bool) {
	var c callsFile
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if json.Unmarshal(first, &c.head) != nil || c.head.Version != callsVersion || c.head.Key == "" {
		return c, false
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(line) == 0 {
			continue
		}
		var call scan.Call
		if json.Unmarshal(line, &call) != nil {
			return c, false
		}
		c.calls = append(c.calls, call)
	}
	return c, true
}

// update is the file after a read: the calls it keeps, then those read.
func (c callsFile) update(fc scan.FileCalls) callsFile {
	var kept []scan.Call
	if fc.Keep > 0 {
		for _, call := range c.calls {
			if call.Line <= fc.Keep {
				kept = append(kept, call)
			}
		}
	}
	return callsFile{head: callsHeader{Version: callsVersion, Key: fc.Key, Mark: fc.Mark}, calls: append(kept, fc.Calls...)}
}

func (c callsFile) marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c.head); err != nil {
		return nil, fmt.Errorf("calls cache: %w", err)
	}
	for _, call := range c.calls {
		if err := enc.Encode(call); err != nil {
			return nil, fmt.Errorf("calls cache: %w", err)
		}
	}
	return b.Bytes(), nil
}

// allCalls are the cached calls, oldest session first. A session's start
// is the earliest of its files' (a sub-agent's transcript starts later
// than its parent's).
func allCalls(cached map[string]callsFile) []scan.Call {
	var all []scan.Call
	started := map[string]time.Time{}
	for _, c := range cached {
		for _, call := range c.calls {
			if t, ok := started[call.Session]; !call.Started.IsZero() && (!ok || t.IsZero() || call.Started.Before(t)) {
				started[call.Session] = call.Started
			}
			all = append(all, call)
		}
	}
	for i := range all {
		all[i].Started = started[all[i].Session]
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		switch {
		case !a.Started.Equal(b.Started):
			return a.Started.Before(b.Started)
		case a.Session != b.Session:
			return a.Session < b.Session
		case a.File != b.File:
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return all
}
