package app

import (
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// loadSkills parses the skill documents of .lore/skills (lore aggregate).
// A document that cannot be parsed is returned as an error and skipped.
func loadSkills(s *gitstore.Store) ([]compile.Skill, []error) {
	entries, err := os.ReadDir(s.Path(lorepath.Skills))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var skills []compile.Skill
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		rel := lorepath.Skills + "/" + e.Name()
		data, err := s.ReadFile(rel)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sk, err := compile.ParseSkill(rel, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		skills = append(skills, sk)
	}
	sort.Slice(skills, func(a, b int) bool { return skills[a].Path < skills[b].Path })
	return skills, errs
}

// CompileInput loads what a build compiles: the config, the project's items
// and skill documents, and the global store's items (global "" for none).
// Files that cannot be read or parsed come back as errs and are skipped.
func CompileInput(s *gitstore.Store, global string) (in compile.Input, errs []error, err error) {
	if in.Config, err = s.Config(); err != nil {
		return in, nil, err
	}
	in.Items, errs = s.Load()
	in.Learnings, _ = os.ReadFile(s.Path(in.Config.Learnings)) // none or unreadable: no recent learnings at SessionStart
	skills, serrs := loadSkills(s)
	in.Skills, errs = skills, append(errs, serrs...)
	if global != "" {
		g, gerrs := compile.LoadDir(global, compile.DisplayPath(global))
		in.Global, errs = g, append(errs, gerrs...)
	}
	return in, errs, nil
}
