package app

import (
	"fmt"

	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Consolidate moves aged learnings into lasting knowledge when the trigger
// says so (consolidate.Options: dry run, agent task, today).
func Consolidate(s *gitstore.Store, opt consolidate.Options) (*consolidate.Result, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	return consolidate.Run(s, cfg, opt)
}

// Summary is a consolidation's one-line outcome (consolidate and handoff
// print it).
func Summary(res *consolidate.Result) string {
	if !res.Ran {
		return "Consolidation skipped: " + res.Reason
	}
	verb := "Consolidated"
	switch {
	case res.DryRun:
		verb = "Would consolidate"
	case res.Task != "":
		return fmt.Sprintf("Consolidation task for the %s agent: %s (%d entries); report: %s",
			consolidate.RememberAgent, res.Task, len(res.Batch), res.Report)
	}
	return fmt.Sprintf("%s %d of %d entries (%d routed, %d superseded, %d redundant, %d escalated, %d over the file limit); report: %s",
		verb, len(res.Routed)+len(res.Superseded)+len(res.Redundant), len(res.Batch), len(res.Routed),
		len(res.Superseded), len(res.Redundant), len(res.Contradictions), len(res.FileLimit), res.Report)
}
