package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// AggregateCmd folds five or more active lessons tagged with the same tool:
// into one skill document that the hook injects instead of the lessons.
type AggregateCmd struct {
	DryRun bool `help:"Say what would be written or removed, and write nothing."`
}

// Run writes .lore/skills/<tool>.md for every tool with enough lessons,
// rewrites a skill whose lessons changed, and removes a skill whose tool
// fell below five. Unchanged documents are not touched.
func (c *AggregateCmd) Run(g *Globals, s *gitstore.Store) error {
	plan, err := app.PlanAggregate(s)
	if err != nil {
		return err
	}
	for _, line := range app.SkippedLines(plan.Skipped) {
		fmt.Fprintf(g.Stderr, "lore: aggregate: %s\n", line)
	}
	for _, st := range plan.Steps {
		fmt.Fprintln(g.Stdout, aggregateLine(st, c.DryRun))
	}
	if len(plan.Steps) == 0 {
		fmt.Fprintf(g.Stdout, "no tool has %d or more active lessons: nothing to aggregate\n", compile.MinAggregate)
	}
	if c.DryRun {
		return nil
	}
	return app.ApplyAggregate(s, plan)
}

// aggregateLine says what a step does, or would do.
func aggregateLine(st app.AggregateStep, dryRun bool) string {
	verb := st.Action
	if dryRun && verb != app.AggregateUnchanged {
		verb = "would " + verb
	}
	if st.Action == app.AggregateRemove {
		return fmt.Sprintf("%s %s (fewer than %d active lessons tagged tool:%s)", verb, st.Path, compile.MinAggregate, st.Tool)
	}
	return fmt.Sprintf("%s %s (%d lessons)", verb, st.Path, st.Lessons)
}
