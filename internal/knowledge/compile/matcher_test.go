package compile_test

import (
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
