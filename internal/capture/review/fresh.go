package review

import (
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// WriteFresh writes the candidate as a draft unless the store already
// holds or rejected its content (Known); the check and the write are one
// step under the store lock, so two writers of one lesson (two MCP
// clients) make one draft. ok is false when nothing was written.
func WriteFresh(s *gitstore.Store, c scan.Candidate, now time.Time) (w Written, ok bool, err error) {
	// Known outside the lock first: it may move legacy rejections, which
	// takes the lock itself, and most repeats stop here.
	if known, err := Known(s); err != nil || known[c.Hash] {
		return Written{}, false, err
	}
	unlock, err := s.Lock()
	if err != nil {
		return Written{}, false, err
	}
	defer unlock()
	if known, err := Known(s); err != nil || known[c.Hash] {
		return Written{}, false, err
	}
	out, err := writeLocked(s, []scan.Candidate{c}, now)
	if err != nil {
		return Written{}, false, err
	}
	return out[0], true, nil
}
