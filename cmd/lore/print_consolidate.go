package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
)

// consolidationSummary is a consolidation's one-line outcome (consolidate
// and handoff print it).
func consolidationSummary(res *app.Consolidation) string {
	if !res.Ran {
		return "Consolidation skipped: " + res.Reason
	}
	verb := "Consolidated"
	switch {
	case res.DryRun:
		verb = "Would consolidate"
	case res.Task != "":
		return fmt.Sprintf("Consolidation task for the %s agent: %s (%d entries); report: %s",
			app.RememberAgent, res.Task, len(res.Batch), res.Report)
	}
	return fmt.Sprintf("%s %d of %d entries (%d routed, %d superseded, %d redundant, %d escalated, %d over the file limit); report: %s",
		verb, len(res.Routed)+len(res.Superseded)+len(res.Redundant), len(res.Batch), len(res.Routed),
		len(res.Superseded), len(res.Redundant), len(res.Contradictions), len(res.FileLimit), res.Report)
}
