package observe

import (
	"fmt"
	"time"

	"github.com/lore-agents/lore/scan"
)

// FromCandidates turns a scan's Tier 2 findings (errors fixed, retries,
// hangs, corrections: inferred, not written down by the agent) into pitfall
// sightings, so a mistake seen in two sessions becomes ready on its own.
// Tier 1 candidates are explicit and already become drafts; they are not
// counted again here. A finding with a fix passes the quality gate.
func FromCandidates(cands []scan.Candidate, at time.Time) []Record {
	var out []Record
	for _, c := range cands {
		if c.Tier != 2 {
			continue
		}
		ev := fmt.Sprintf("%s:%d (%s)", c.File, c.Line, c.Signal)
		r, err := Sighting(Pitfall, c.Title, 1, at, c.Fix != "", c.Fix, ev)
		if err != nil {
			continue // a title with no words is no pattern
		}
		out = append(out, r)
	}
	return out
}
