package app

import (
	"github.com/lore-agents/lore/consolidate"
	"github.com/lore-agents/lore/gitstore"
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
