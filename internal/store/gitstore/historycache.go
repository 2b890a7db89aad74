package gitstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/lore-agents/lore/internal/filewrite"
)

// historyVersion changes whenever the cached facts or their format change;
// an older cache is ignored and rebuilt.
const historyVersion = 2

// historyRecord is the cached answer for one HEAD and learnings blob.
type historyRecord struct {
	Head    string
	Path    string
	Blob    string
	Dates   []string
	Origins map[string]Origin
	Last    *Origin
	Shallow bool
}

// cached is a loaded previous answer with the commits it covered.
type cached struct {
	rec     historyRecord
	commits map[plumbing.Hash]bool
}

// historyCache is the pair of derived files for one learnings path: a small
// line-based record (all a warm run reads; encoding/json took longer to
// decode it than the rest of a warm `lore ages` together) and the reachable
// commit hashes (read only when HEAD moved). Any damage just means a full
// walk.
type historyCache struct {
	record, commits string
	rec             *historyRecord
}

func (s *Store) historyCache(rel string) *historyCache {
	sum := sha1.Sum([]byte(rel))
	base := filepath.Join(s.CacheDir(), "ages-"+hex.EncodeToString(sum[:8]))
	return &historyCache{record: base + ".txt", commits: base + ".commits"}
}

// load returns the cached History when it was computed for this HEAD and
// path.
func (c *historyCache) load(head plumbing.Hash, path string) *History {
	data, err := os.ReadFile(c.record)
	if err != nil {
		return nil
	}
	r, ok := parseRecord(string(data))
	if !ok {
		return nil
	}
	c.rec = r
	if r.Head != head.String() || r.Path != path {
		return nil
	}
	return &History{
		Head: r.Head, Path: r.Path, Dates: r.Dates, Origins: r.Origins,
		LastConsolidation: r.Last, Shallow: r.Shallow, Cached: true,
	}
}

// The record, one fact a line: a version line, then head, path, blob,
// shallow, dates (space-separated), last (absent when there is none), one
// "origin DATE COMMIT TITLE" line per heading, and "end". A title is one
// line of Markdown and the path cannot hold a newline (save skips such a
// path).
const recordMagic = "lore-ages-history"

func formatRecord(r historyRecord) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d\nhead %s\npath %s\nblob %s\nshallow %t\ndates %s\n",
		recordMagic, historyVersion, r.Head, r.Path, r.Blob, r.Shallow, strings.Join(r.Dates, " "))
	if r.Last != nil {
		fmt.Fprintf(&b, "last %s %s\n", r.Last.Date, r.Last.Commit)
	}
	for _, t := range slices.Sorted(maps.Keys(r.Origins)) {
		o := r.Origins[t]
		fmt.Fprintf(&b, "origin %s %s %s\n", o.Date, o.Commit, t)
	}
	b.WriteString("end\n")
	return []byte(b.String())
}

// parseRecord reads formatRecord's output; ok is false for anything else.
func parseRecord(data string) (*historyRecord, bool) {
	lines := strings.Split(data, "\n")
	want := fmt.Sprintf("%s %d", recordMagic, historyVersion)
	if len(lines) < 8 || lines[0] != want || lines[len(lines)-2] != "end" || lines[len(lines)-1] != "" {
		return nil, false
	}
	r := &historyRecord{Origins: map[string]Origin{}}
	fields := []struct {
		key string
		val *string
	}{{"head", &r.Head}, {"path", &r.Path}, {"blob", &r.Blob}}
	for i, f := range fields {
		v, ok := strings.CutPrefix(lines[1+i], f.key+" ")
		if !ok {
			return nil, false
		}
		*f.val = v
	}
	shallow, ok := strings.CutPrefix(lines[4], "shallow ")
	if !ok || (shallow != "true" && shallow != "false") {
		return nil, false
	}
	r.Shallow = shallow == "true"
	dates, ok := strings.CutPrefix(lines[5], "dates")
	if !ok {
		return nil, false
	}
	r.Dates = strings.Fields(dates)
	for _, l := range lines[6 : len(lines)-2] {
		if !r.addLine(l) {
			return nil, false
		}
	}
	return r, true
}

// addLine reads a last or origin line into r.
func (r *historyRecord) addLine(l string) bool {
	if v, ok := strings.CutPrefix(l, "last "); ok && r.Last == nil {
		date, commit, ok := strings.Cut(v, " ")
		r.Last = &Origin{Commit: commit, Date: date}
		return ok
	}
	v, ok := strings.CutPrefix(l, "origin ")
	if !ok {
		return false
	}
	date, rest, ok1 := strings.Cut(v, " ")
	commit, title, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 {
		return false
	}
	r.Origins[title] = Origin{Commit: commit, Date: date}
	return true
}

// previous returns the last answer and its commits, for an incremental walk.
func (c *historyCache) previous() *cached {
	if c.rec == nil {
		return nil
	}
	data, err := os.ReadFile(c.commits)
	if err != nil || len(data) < 20 || len(data)%20 != 0 {
		return nil
	}
	if hex.EncodeToString(data[:20]) != c.rec.Head {
		return nil
	}
	set := make(map[plumbing.Hash]bool, len(data)/20)
	for i := 20; i < len(data); i += 20 {
		var h plumbing.Hash
		copy(h[:], data[i:i+20])
		set[h] = true
	}
	return &cached{rec: *c.rec, commits: set}
}

// save writes both files; failures are ignored (the cache is derived data).
func (c *historyCache) save(h *History, blob plumbing.Hash, loaded []plumbing.Hash, prev *cached) {
	if h.Head == "" || strings.Contains(h.Path, "\n") {
		return
	}
	data := formatRecord(historyRecord{
		Head: h.Head, Path: h.Path, Blob: blob.String(),
		Dates: h.Dates, Origins: h.Origins, Last: h.LastConsolidation, Shallow: h.Shallow,
	})
	var b bytes.Buffer
	head := plumbing.NewHash(h.Head)
	b.Write(head[:])
	for _, x := range loaded {
		b.Write(x[:])
	}
	if prev != nil {
		seen := make(map[plumbing.Hash]bool, len(loaded))
		for _, x := range loaded {
			seen[x] = true
		}
		for x := range prev.commits {
			if !seen[x] {
				b.Write(x[:])
			}
		}
	}
	// The commit list first: a record never points at a list that
	// belongs to another HEAD (previous checks the list's header anyway).
	if writeCache(c.commits, b.Bytes()) != nil {
		return
	}
	_ = writeCache(c.record, data)
}

// cacheWrite replaces a cache file without fsync (four of them were a
// twentieth of a cold `lore ages`): after a power cut a file may be cut
// short, which the record's end line and the commit list's header and
// length reveal, and the next run walks again.
var cacheWrite = filewrite.Options{}

func writeCache(path string, data []byte) error {
	if err := NoSymlink(path); err != nil {
		return err
	}
	return filewrite.Replace(path, data, cacheWrite)
}
