package app

import (
	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ConsolidateOptions say how to consolidate.
type ConsolidateOptions struct {
	DryRun bool   // decide everything, write only the report
	Agent  bool   // write the batch as a task for RememberAgent instead of routing
	Today  string // YYYY-MM-DD; "" for the local date
}

// Consolidation is what a consolidation decided and did (lore consolidate
// --json prints it).
type Consolidation = consolidate.Result

// RememberAgent is the sub-agent a consolidation task is written for.
const RememberAgent = consolidate.RememberAgent

// Consolidate moves aged learnings into lasting knowledge when the trigger
// says so.
func Consolidate(s *gitstore.Store, o ConsolidateOptions) (*Consolidation, error) {
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	return consolidate.Run(s, cfg, consolidate.Options{DryRun: o.DryRun, Agent: o.Agent, Today: o.Today})
}
