package observe

import (
	"fmt"
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
)

// FromCandidates turns a scan's Tier 2 findings (errors fixed, retries,
// hangs, corrections: inferred, not written down by the agent) into pitfall
// sightings, so a mistake seen in two sessions becomes ready on its own.
// Tier 1 candidates are explicit and already become drafts; they are not
// counted again here. A finding with a fix passes the quality gate, and
// one already rejected (its hash in rejected) is not counted.
func FromCandidates(cands []scan.Candidate, rejected map[string]bool, at time.Time) []Record {
	var out []Record
	for _, c := range cands {
		if c.Tier != 2 || rejected[c.Hash] {
			continue
		}
		// A session and line, never the transcript's path (it names the
		// user's home folder); the hash lets render honour a rejection.
		ev := fmt.Sprintf("session %s line %d (%s %s)", c.Session, c.Line, c.Signal, c.Hash)
		// Occurrences: one scan merges the same incident from several
		// sessions into one candidate; each still counts.
		r, err := Sighting(Pitfall, c.Title, max(1, c.Occurrences), at, c.Fix != "", c.Fix, ev)
		if err != nil {
			continue // a title with no words is no pattern
		}
		out = append(out, r)
	}
	return out
}
