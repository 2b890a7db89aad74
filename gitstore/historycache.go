package gitstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// historyVersion changes whenever the cached facts change meaning; an older
// cache is ignored and rebuilt.
const historyVersion = 1

// historyRecord is the cached answer for one HEAD and learnings blob.
type historyRecord struct {
	Version int               `json:"version"`
	Head    string            `json:"head"`
	Path    string            `json:"path"`
	Blob    string            `json:"blob"`
	Dates   []string          `json:"dates"`
	Origins map[string]Origin `json:"origins"`
	Last    *Origin           `json:"last"`
	Shallow bool              `json:"shallow"`
}

// cached is a loaded previous answer with the commits it covered.
type cached struct {
	rec     historyRecord
	commits map[plumbing.Hash]bool
}

// historyCache is the pair of derived files for one learnings path: a small
// JSON record (all a warm run reads) and the reachable commit hashes (read
// only when HEAD moved). Any damage just means a full walk.
type historyCache struct {
	json, commits string
	rec           *historyRecord
}

func (s *Store) historyCache(rel string) *historyCache {
	sum := sha1.Sum([]byte(rel))
	base := filepath.Join(s.CacheDir(), "ages-"+hex.EncodeToString(sum[:8]))
	return &historyCache{json: base + ".json", commits: base + ".commits"}
}

// load returns the cached History when it was computed for this HEAD and
// path.
func (c *historyCache) load(head plumbing.Hash, path string) *History {
	data, err := os.ReadFile(c.json)
	if err != nil {
		return nil
	}
	var r historyRecord
	if json.Unmarshal(data, &r) != nil || r.Version != historyVersion || r.Origins == nil {
		return nil
	}
	c.rec = &r
	if r.Head != head.String() || r.Path != path {
		return nil
	}
	return &History{
		Head: r.Head, Path: r.Path, Dates: r.Dates, Origins: r.Origins,
		LastConsolidation: r.Last, Shallow: r.Shallow, Cached: true,
	}
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
	if h.Head == "" {
		return
	}
	data, err := json.Marshal(historyRecord{
		Version: historyVersion, Head: h.Head, Path: h.Path, Blob: blob.String(),
		Dates: h.Dates, Origins: h.Origins, Last: h.LastConsolidation, Shallow: h.Shallow,
	})
	if err != nil {
		return
	}
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
	// The commit list first: a JSON record never points at a list that
	// belongs to another HEAD (previous checks the list's header anyway).
	if WriteAtomic(c.commits, b.Bytes()) != nil {
		return
	}
	_ = WriteAtomic(c.json, data)
}
