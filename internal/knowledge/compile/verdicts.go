package compile

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"sync"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Verdicts memoizes check, each item's validation and safety errors, by
// the item's path and bytes (docs/design.md, Incremental build). The
// safety checks run every secret rule over every item: three quarters of
// a build at 10,000 items. A build starts from the verdicts the last one
// saved and keeps only those it used, so a removed or changed file's
// verdict is dropped. The salt names the checker (the lore binary): a
// new one invalidates every saved verdict.
type Verdicts struct {
	salt    string
	mu      sync.Mutex
	old     map[string]verdict // read from the last build's cache file
	now     map[string]verdict // used by this build, what Bytes saves
	checked bool               // an item was checked: not all verdicts came from old
}

type verdict struct {
	Errs   []*markdown.Error
	Unsafe bool
}

// verdictsFile is what the cache file holds (encoding/gob).
type verdictsFile struct {
	Salt     string
	Verdicts map[string]verdict
}

// LoadVerdicts reads the verdicts a build saved (nil data: none). Saved
// with another salt, or unreadable (truncated, corrupt), they are ignored:
// the items are checked again.
func LoadVerdicts(data []byte, salt string) *Verdicts {
	v := &Verdicts{salt: salt, old: map[string]verdict{}, now: map[string]verdict{}}
	var f verdictsFile
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&f) == nil && f.Salt == salt && f.Verdicts != nil {
		v.old = f.Verdicts
	}
	return v
}

// check is check(it), memoized by the item's digest; nil checks every time.
func (v *Verdicts) check(it *markdown.Item, digest [sha256.Size]byte) ([]*markdown.Error, bool) {
	if v == nil {
		return check(it)
	}
	k := string(digest[:])
	v.mu.Lock()
	r, ok := v.old[k]
	v.mu.Unlock()
	if !ok {
		r.Errs, r.Unsafe = check(it)
	}
	v.mu.Lock()
	v.checked = v.checked || !ok
	v.now[k] = r
	v.mu.Unlock()
	return r.Errs, r.Unsafe
}

// Changed says the verdicts to save differ from those loaded: an item
// was checked, or a loaded verdict was not used (its file changed or
// went away).
func (v *Verdicts) Changed() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.checked || len(v.now) != len(v.old)
}

// Bytes encodes the verdicts this build used, for the next build.
func (v *Verdicts) Bytes() []byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(verdictsFile{Salt: v.salt, Verdicts: v.now}); err != nil {
		return nil // nothing gob cannot encode is in it; an empty file is no verdicts
	}
	return buf.Bytes()
}
