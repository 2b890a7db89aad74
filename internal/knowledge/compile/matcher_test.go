package compile_test

import (
	"fmt"
	"testing"

	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

func TestMatcherDecidesAsTheHook(t *testing.T) {
	src := "---\nid: 01JCZ0000000000000000PYTST\nkind: lesson\ntitle: pytest hangs without -x\nstatus: draft\npriority: high\ntriggers:\n  tools: [Bash]\n  commands: ['^pytest\\b']\n---\n## Mistake\nRan pytest.\n\n## Fix\nRun pytest -x.\n"
	it, err := markdown.Parse(".lore/lessons/pytest-hangs.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if errs := markdown.Validate(it); len(errs) > 0 {
		t.Fatal(errs)
	}
	items := []*markdown.Item{it}
	for _, drafts := range []bool{false, true} {
		mt, err := compile.NewMatcher(items, config.Default(), drafts)
		if err != nil {
			t.Fatal(err)
		}
		d, err := mt.Decide(match.Call{Tool: "Bash", Command: "pytest tests"})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(d.Injected) == 1 && d.Injected[0].ID == "01JCZ0000000000000000PYTST"; got != drafts {
			t.Errorf("drafts=%v: injected %v", drafts, d.Injected)
		}
		if d, _ := mt.Decide(match.Call{Tool: "Bash", Command: "go test ./..."}); len(d.Injected) != 0 {
			t.Errorf("drafts=%v: an unrelated call got %v", drafts, d.Injected)
		}
	}
}

// The matcher's delivery is DeliveryOf's, without checking again: for a
// valid item, a draft, one the build leaves out, and one without triggers.
func TestMatcherDeliveryIsDeliveryOf(t *testing.T) {
	base := "---\nid: %s\nkind: lesson\ntitle: T %s\nstatus: %s\npriority: high\n%s---\n## Mistake\nRan it.\n\n## Fix\nRun it right.\n"
	trig := "triggers:\n  tools: [Bash]\n  commands: ['^make']\n"
	srcs := []string{
		fmt.Sprintf(base, "01JCZ000000000000000000001", "a", "active", trig),
		fmt.Sprintf(base, "01JCZ000000000000000000002", "b", "draft", trig),
		fmt.Sprintf(base, "01JCZ000000000000000000003", "c", "active", "triggers:\n  tools: [Bash]\n  commands: ['(']\n"),
		fmt.Sprintf(base, "01JCZ000000000000000000004", "d", "active", ""),
	}
	var items []*markdown.Item
	for i, src := range srcs {
		it, err := markdown.Parse(fmt.Sprintf(".lore/lessons/%d.md", i), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	cfg := config.Default()
	mt, err := compile.NewMatcher(items, cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	set := compile.Settings(cfg)
	kinds := map[string]bool{}
	for _, it := range items {
		got, want := mt.Delivery(it, set), compile.DeliveryOf(it, set)
		if got != want {
			t.Errorf("%s: matcher %+v, DeliveryOf %+v", it.Path, got, want)
		}
		kinds[got.Kind] = true
	}
	if len(kinds) != 3 {
		t.Errorf("the cases cover %v, want every delivery", kinds)
	}
}
