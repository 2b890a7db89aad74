package app

import (
	"bytes"
	"errors"
	"io/fs"
	"sort"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// What an aggregate step does to a skill document.
const (
	AggregateUnchanged = "unchanged"
	AggregateWrite     = "write"
	AggregateUpdate    = "update"
	AggregateRemove    = "remove"
)

// AggregateStep is one skill document of the plan.
type AggregateStep struct {
	Action  string // AggregateUnchanged, AggregateWrite, AggregateUpdate or AggregateRemove
	Path    string
	Tool    string
	Lessons int // the tool's active lessons (none for a removal)

	doc     []byte // the document to write
	readErr error  // the current document could not be read (not a missing file)
}

// AggregatePlan is what lore aggregate would write and remove: a skill
// document for every tool with compile.MinAggregate or more active
// lessons (tools in order), then the documents of tools that fell below.
type AggregatePlan struct {
	Steps   []AggregateStep
	Skipped []error // files that could not be parsed
}

// PlanAggregate computes the plan; it writes nothing.
func PlanAggregate(s *gitstore.Store) (*AggregatePlan, error) {
	in, errs, err := projectInput(s)
	if err != nil {
		return nil, err
	}
	p := &AggregatePlan{Steps: aggregateDiff(s.ReadFile, in), Skipped: errs}
	for _, st := range p.Steps {
		if st.readErr != nil {
			return nil, st.readErr
		}
	}
	return p, nil
}

// ApplyAggregate writes and removes what the plan says, in its order.
func ApplyAggregate(s *gitstore.Store, p *AggregatePlan) error {
	for _, st := range p.Steps {
		var err error
		switch st.Action {
		case AggregateWrite, AggregateUpdate:
			err = s.WriteFile(st.Path, st.doc)
		case AggregateRemove:
			err = removeLocked(s, st.Path)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// removeLocked removes a file of the store under its lock.
func removeLocked(s *gitstore.Store, rel string) error {
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	return s.RemoveLocked(rel)
}

// aggregateDiff compares the skill documents lore aggregate would write
// with the files (read): the one diff aggregate applies and status counts.
func aggregateDiff(read func(string) ([]byte, error), in compile.Input) []AggregateStep {
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
	var steps []AggregateStep
	for _, tool := range tools {
		rel := compile.SkillPath(tool)
		id := existing[rel].ID
		delete(existing, rel)
		if id == "" {
			id = ulid.Make().String()
		}
		steps = append(steps, skillStep(read, tool, rel, compile.SkillDoc(tool, id, groups[tool]), len(groups[tool])))
	}
	for _, sk := range in.Skills {
		if _, unkept := existing[sk.Path]; unkept {
			steps = append(steps, AggregateStep{Action: AggregateRemove, Path: sk.Path, Tool: sk.Tool})
		}
	}
	return steps
}

// skillStep compares one tool's document with its file.
func skillStep(read func(string) ([]byte, error), tool, rel string, doc []byte, lessons int) AggregateStep {
	st := AggregateStep{Action: AggregateUpdate, Path: rel, Tool: tool, Lessons: lessons, doc: doc}
	old, err := read(rel)
	switch {
	case err == nil && bytes.Equal(old, doc):
		st.Action = AggregateUnchanged
	case errors.Is(err, fs.ErrNotExist):
		st.Action = AggregateWrite
	case err != nil:
		st.Action, st.readErr = AggregateWrite, err
	}
	return st
}

// outOfDate lists the tools whose skill document the plan would write,
// rewrite or remove, in order.
func outOfDate(steps []AggregateStep) []string {
	out := []string{}
	for _, st := range steps {
		if st.Action != AggregateUnchanged {
			out = append(out, st.Tool)
		}
	}
	sort.Strings(out)
	return out
}
