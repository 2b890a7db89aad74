package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/lore-agents/lore/internal/app"
)

// printAges writes the report of docs/design.md, Ages and staleness;
// freshness is the age that counts as consolidation-ready.
func printAges(w io.Writer, r *app.Ages) error {
	freshness := r.Freshness
	var b strings.Builder
	b.WriteString("# Learning Ages Report\n\n")
	fmt.Fprintf(&b, "**File lines:** %d\n", r.Lines)
	if r.LastConsolidation == nil {
		b.WriteString("**Last consolidation:** unknown (no prior consolidation detected)\n")
	} else {
		fmt.Fprintf(&b, "**Last consolidation:** %s ago (%s, %s)\n", days(r.LastConsolidation.ActiveDays),
			r.LastConsolidation.Date, short(r.LastConsolidation.Commit))
	}
	fmt.Fprintf(&b, "**Total entries:** %d\n", len(r.Entries))
	fmt.Fprintf(&b, "**Entries ≥%d active days:** %d\n", freshness, r.AtLeast(freshness))
	if r.Shallow {
		b.WriteString("**Note:** shallow clone: ages count only the history that is present\n")
	}
	for _, e := range r.Oldest() {
		fmt.Fprintf(&b, "\n## %s\n- Age: %s\n- Added: %s\n", e.Title, days(e.Age), e.Added)
		if e.Commit == "" {
			b.WriteString("- Uncommitted\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// days is an age in active days.
func days(n int) string {
	return fmt.Sprintf("%d active days", n)
}

// short is a commit hash as git log --oneline shows it.
func short(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}
