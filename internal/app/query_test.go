package app

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// lesson writes an active lesson tagged tool:<tool> as .lore/lessons/<name>.md.
func lesson(t *testing.T, s *gitstore.Store, name, id, tool string) {
	t.Helper()
	doc := fmt.Sprintf("---\nid: %s\nkind: lesson\ntitle: %s\nstatus: active\npriority: high\n"+
		"triggers:\n  tools: [Bash]\ntags: [tool:%s]\n---\n\n## Fix\nFix %s.\n", id, name, tool, name)
	if err := os.WriteFile(s.Path(".lore/lessons/"+name+".md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

func item(t *testing.T, rel, frontmatter string) *markdown.Item {
	t.Helper()
	it, err := markdown.Parse(rel, []byte("---\n"+frontmatter+"\n---\n\n## Fix\nx\n"))
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestResolve(t *testing.T) {
	items := []*markdown.Item{
		item(t, ".lore/lessons/tty.md", "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V1\nkind: lesson\ntitle: tty\nstatus: active"),
		item(t, ".lore/pitfalls/PF-0007-force-push.md", "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V2\nkind: pitfall\nref: PF-0007\ntitle: force push\nstatus: active"),
		item(t, ".lore/lessons/other.md", "id: 01JQABC8K2M4N6P8Q0R2S4T6V3\nkind: lesson\ntitle: other\nstatus: active"),
	}
	for q, want := range map[string]string{
		"01jqxyz8k2m4n6p8q0r2s4t6v1":   "tty",        // id, any case
		"pf-0007":                      "force push", // ref
		"./lessons/other.md":           "other",      // path
		"tty":                          "tty",        // slug
		"force-push":                   "force push", // slug after the ref
		"01JQABC":                      "other",      // unique id prefix
		"  01JQXYZ8K2M4N6P8Q0R2S4T6V2": "force push",
	} {
		it, err := Resolve(items, q)
		if err != nil || it.Title != want {
			t.Errorf("Resolve(%q) = %v, %v; want %q", q, it, err, want)
		}
	}
	if _, err := Resolve(items, "01JQXYZ"); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "tty.md") {
		t.Errorf("a shared prefix: %v, want ErrAmbiguous naming the candidates", err)
	}
	if _, err := Resolve(items, "nosuch"); !errors.Is(err, ErrNotFound) || err.Error() != `no item matches "nosuch" (lore list shows ids, refs and paths)` {
		t.Errorf("no match: %v", err)
	}
}

func TestListFilters(t *testing.T) {
	s := newStore(t)
	lesson(t, s, "a", "01JQXYZ8K2M4N6P8Q0R2S4T6V1", "pytest")
	lesson(t, s, "b", "01JQXYZ8K2M4N6P8Q0R2S4T6V2", "git")
	for _, c := range []struct {
		opt  ListOptions
		want int
	}{
		{ListOptions{}, 2},
		{ListOptions{Tags: []string{"tool"}}, 2}, // a bare category matches tool:*
		{ListOptions{Tags: []string{"TOOL:git"}}, 1},
		{ListOptions{Priority: "high"}, 2},
		{ListOptions{Priority: "low"}, 0},
		{ListOptions{Kind: "pitfall"}, 0},
		{ListOptions{Status: "ACTIVE"}, 2},
	} {
		r, err := List(s, c.opt)
		if err != nil || len(r.Items) != c.want {
			t.Errorf("List(%+v) = %d items, %v; want %d", c.opt, len(r.Items), err, c.want)
		}
	}
	var in *InputError
	if _, err := List(s, ListOptions{Priority: "urgent"}); !errors.As(err, &in) {
		t.Errorf("a bad priority: %v, want an InputError", err)
	}
}

// TestAggregatePlan: the plan aggregate applies is the diff status counts,
// and applying it leaves nothing out of date.
func TestAggregatePlan(t *testing.T) {
	s := newStore(t)
	for i := 1; i <= 5; i++ {
		lesson(t, s, fmt.Sprintf("l%d", i), fmt.Sprintf("01JQXYZ8K2M4N6P8Q0R2S4T6V%d", i), "pytest")
	}
	p, err := PlanAggregate(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Steps) != 1 || p.Steps[0].Action != AggregateWrite || p.Steps[0].Path != ".lore/skills/pytest.md" || p.Steps[0].Lessons != 5 {
		t.Fatalf("plan = %+v, want one write of .lore/skills/pytest.md", p.Steps)
	}
	if r := status(t, s); strings.Join(r.Skills, ",") != "pytest" {
		t.Errorf("status before: skills out of date %v, want [pytest]", r.Skills)
	}
	if err := ApplyAggregate(s, p); err != nil {
		t.Fatal(err)
	}
	if p, _ = PlanAggregate(s); len(p.Steps) != 1 || p.Steps[0].Action != AggregateUnchanged {
		t.Errorf("after apply: %+v, want unchanged", p.Steps)
	}
	if r := status(t, s); len(r.Skills) != 0 {
		t.Errorf("status after: skills out of date %v, want none", r.Skills)
	}
	// Below five lessons the skill goes.
	if err := os.Remove(s.Path(".lore/lessons/l5.md")); err != nil {
		t.Fatal(err)
	}
	p, _ = PlanAggregate(s)
	if len(p.Steps) != 1 || p.Steps[0].Action != AggregateRemove || p.Steps[0].Tool != "pytest" {
		t.Fatalf("with four lessons: %+v, want the skill removed", p.Steps)
	}
	if err := ApplyAggregate(s, p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Path(".lore/skills/pytest.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("skill still there: %v", err)
	}
}

func status(t *testing.T, s *gitstore.Store) *StatusReport {
	t.Helper()
	r, err := Status(s, StatusOptions{StaleDays: 90, Today: "2026-06-01"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStatusLearnings: without history the size alone makes consolidation
// due; the counts and stale items come from the items.
func TestStatusLearnings(t *testing.T) {
	s := newStore(t)
	lesson(t, s, "a", "01JQXYZ8K2M4N6P8Q0R2S4T6V1", "pytest")
	if err := os.WriteFile(s.Path(".lore/config.yaml"), []byte("consolidate:\n  sizeTrigger: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(".lore/learnings.md"), []byte("# Learnings\n\n1\n2"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := status(t, s)
	if r.Active != 1 || r.Counts["lesson"]["active"] != 1 || len(r.Drafts) != 0 {
		t.Errorf("counts: %+v", r)
	}
	l := r.Learnings
	if l == nil || l.Lines != 4 || !l.ConsolidationDue || l.SizeTrigger != 3 {
		t.Errorf("learnings: %+v, want 4 lines, due (over 3)", l)
	}
	// A config problem in another key: status reads on, says the problem
	// as one (not as a file it could not parse), and keeps its sections.
	if err := os.WriteFile(s.Path(".lore/config.yaml"), []byte("consolidate:\n  sizeTrigger: 3\ninject:\n  threshold: high\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = status(t, s)
	if r.Errors != 0 || len(r.ConfigProblems) != 1 || !strings.HasPrefix(r.ConfigProblems[0], ".lore/config.yaml:4: inject.threshold: ") ||
		r.Observations == nil || r.Learnings == nil || r.Learnings.SizeTrigger != 3 {
		t.Errorf("with a config problem: %+v", r)
	}
}

func TestSignals(t *testing.T) {
	s := newStore(t)
	var in *InputError
	if _, err := EmitSignal(s, EmitOptions{Type: "NOISE", Text: "a signal of no known type at all", Strength: 0.5, HalfLife: 3600e9}); !errors.As(err, &in) {
		t.Fatalf("an unknown type: %v, want an InputError", err)
	}
	e, err := EmitSignal(s, EmitOptions{Type: "REDIRECT", Text: "stop rewriting the shared history", Strength: 0.9, HalfLife: 3600e9, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ListSignals(s)
	if err != nil || len(l.Live) != 1 || l.Live[0].ID != e.Signal.ID || l.Live[0].Source != "test" {
		t.Fatalf("list = %+v, %v", l, err)
	}
	if p, err := PruneSignals(s); err != nil || p != (Pruned{Live: 1}) {
		t.Errorf("prune = %+v, %v; want 1 live, none pruned", p, err)
	}
}

func TestShowExtraAndJSON(t *testing.T) {
	s := newStore(t)
	doc := "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V1\nkind: lesson\ntitle: tty\nstatus: active\nowner: team-a # who\nlinks: {a: 1}\n---\n\n## Fix\nx\n"
	if err := os.WriteFile(s.Path(".lore/lessons/tty.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Show(s, "tty")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Extra) != `[{owner team-a} {links {"a":1}}]` {
		t.Errorf("extra keys: %v", r.Extra)
	}
	j, err := r.JSON()
	if err != nil || j["owner"] != "team-a" || j["path"] != ".lore/lessons/tty.md" || j["band"] == nil {
		t.Errorf("json: %v, %v", j, err)
	}
	if _, err := Show(s, "nosuch"); !errors.Is(err, ErrNotFound) {
		t.Errorf("show nosuch: %v", err)
	}
}
