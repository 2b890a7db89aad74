package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/app"
	"github.com/lore-agents/lore/compile"
	"github.com/lore-agents/lore/gitstore"
)

// AggregateCmd folds five or more active lessons tagged with the same tool:
// into one skill document that the hook injects instead of the lessons.
type AggregateCmd struct {
	DryRun bool `help:"Say what would be written or removed, and write nothing."`
}

// Run writes .lore/skills/<tool>.md for every tool with enough lessons,
// rewrites a skill whose lessons changed, and removes a skill whose tool
// fell below five. Unchanged documents are not touched.
func (c *AggregateCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	in, errs, err := app.CompileInput(s, "")
	if err != nil {
		return err
	}
	for _, e := range errs {
		fmt.Fprintf(g.Stderr, "lore: aggregate: skipped %v\n", e)
	}
	groups := compile.Groups(in.Items, in.Config.Inject.MinConfidence)
	existing := map[string]compile.Skill{}
	for _, sk := range in.Skills {
		existing[sk.Path] = sk
	}
	tools := make([]string, 0, len(groups))
	for t := range groups {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	verb := func(v string) string {
		if c.DryRun {
			return "would " + v
		}
		return v
	}
	keep := map[string]bool{}
	changed := 0
	for _, tool := range tools {
		rel := compile.SkillPath(tool)
		keep[rel] = true
		id := existing[rel].ID
		if id == "" {
			id = ulid.Make().String()
		}
		doc := compile.SkillDoc(tool, id, groups[tool])
		old, err := s.ReadFile(rel)
		switch {
		case err == nil && bytes.Equal(old, doc):
			fmt.Fprintf(g.Stdout, "unchanged %s (%d lessons)\n", rel, len(groups[tool]))
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		v := "update"
		if err != nil {
			v = "write"
		}
		changed++
		fmt.Fprintf(g.Stdout, "%s %s (%d lessons)\n", verb(v), rel, len(groups[tool]))
		if !c.DryRun {
			if err := s.WriteFile(rel, doc); err != nil {
				return err
			}
		}
	}
	for _, sk := range in.Skills {
		if keep[sk.Path] {
			continue
		}
		changed++
		fmt.Fprintf(g.Stdout, "%s %s (fewer than %d active lessons tagged tool:%s)\n", verb("remove"), sk.Path, compile.MinAggregate, sk.Tool)
		if c.DryRun {
			continue
		}
		unlock, err := s.Lock()
		if err != nil {
			return err
		}
		err = gitstore.Remove(s.Path(sk.Path))
		unlock()
		if err != nil {
			return err
		}
	}
	if len(tools) == 0 && changed == 0 {
		fmt.Fprintf(g.Stdout, "no tool has %d or more active lessons: nothing to aggregate\n", compile.MinAggregate)
	}
	return nil
}
