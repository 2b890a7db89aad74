package app

import (
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// AgesOptions name the learnings file and the day to count to.
type AgesOptions struct {
	File  string // absolute; "" for the configured learnings file
	Today string // YYYY-MM-DD; "" for the local date
}

// Ages is the git-active-day age of every learnings entry.
type Ages struct {
	*ages.Report
	Freshness int `json:"-"` // consolidate.freshness: entries younger than this are fresh
}

// EntryAges ages the entries from git history (go-git; no git binary).
func EntryAges(s *gitstore.Store, opt AgesOptions) (*Ages, error) {
	today, err := todayOr(opt.Today)
	if err != nil {
		return nil, err
	}
	cfg, err := s.Config()
	if !config.Usable(err) { // a key with a problem is at its default: lint says so
		return nil, err
	}
	rel := cfg.Learnings
	if opt.File != "" {
		rel = s.Rel(opt.File)
	}
	rep, err := ages.Load(s, rel, today)
	if err != nil {
		return nil, err
	}
	return &Ages{rep, cfg.Consolidate.Freshness}, nil
}

// todayOr is the day a --today flag names (YYYY-MM-DD), or the local date
// when it names none.
func todayOr(flag string) (string, error) {
	if flag == "" {
		return ages.Today(), nil
	}
	day, err := ages.ParseDate(flag)
	if err != nil {
		return "", usagef("--today: %v", err)
	}
	return day, nil
}
