package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/config"
)

func TestArea(t *testing.T) {
	for fm, want := range map[string]string{
		"tags: [area:billing, tool:git]\n":                              "billing",
		"triggers:\n  paths: ['scripts/hooks/**/*.js']\n":               "scripts/hooks/",
		"triggers:\n  paths: ['./src/app/main.go']\n":                   "src/app/",
		"triggers:\n  paths: ['**/conftest.py']\ntags: [tool:pytest]\n": "pytest",
		"triggers:\n  paths: ['README.md']\n":                           "",
		"tags: [lang:go]\n":                                             "",
	} {
		it := parse(t, "x.md", "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: t\nstatus: active\n"+fm, "## Fix\nx\n")
		if got := Area(it); got != want {
			t.Errorf("%q: area %q, want %q", fm, got, want)
		}
	}
}

func TestRenderIndexBudget(t *testing.T) {
	var entries []IndexEntry
	for i := 0; i < 10; i++ {
		entries = append(entries, IndexEntry{ID: fmt.Sprintf("ID%02d", i), Kind: "lesson", Title: "title", Status: "active", Priority: i})
	}
	full := RenderIndex(entries, 1<<20)
	if full.Omitted != 0 || len(full.Shown) != 10 || strings.Contains(full.Text, "left out") {
		t.Fatalf("unbounded: %+v", full)
	}
	for _, budget := range []int{0, 50, 150, 200, 250, 400, len(full.Text) - 1, len(full.Text)} {
		idx := RenderIndex(entries, budget)
		if len(idx.Shown)+idx.Omitted != 10 {
			t.Errorf("budget %d: %d shown + %d omitted", budget, len(idx.Shown), idx.Omitted)
		}
		if idx.Omitted > 0 && !strings.Contains(idx.Text, fmt.Sprintf("(%d more left out", idx.Omitted)) {
			t.Errorf("budget %d: the text does not say what it left out: %q", budget, idx.Text)
		}
		// Whatever it shows fits (the header alone may exceed a tiny budget).
		if len(idx.Shown) > 0 && len(idx.Text) > budget {
			t.Errorf("budget %d: %d bytes", budget, len(idx.Text))
		}
		// Most important first: what is shown has the highest priorities.
		for i, e := range idx.Shown {
			if e.Priority != 9-i {
				t.Errorf("budget %d: shown[%d] priority %d", budget, i, e.Priority)
			}
		}
	}
}

// TestSessionStartIndex: the SessionStart block carries exactly the index
// `lore index` renders with the default budget.
func TestSessionStartIndex(t *testing.T) {
	in := Input{Config: config.Default()}
	for i := 0; i < 60; i++ {
		in.Items = append(in.Items, parse(t, fmt.Sprintf(".lore/lessons/l%02d.md", i),
			fmt.Sprintf("id: 01JQXYZ8K2M4N6P8Q0R2S4T%03d\nkind: lesson\ntitle: lesson number %d about something long enough\nstatus: active\ntags: [tool:t%d]\n", i, i, i%7),
			"## Fix\nx\n"))
	}
	src, rep := Compile(in)
	idx := RenderIndex(rep.Index, DefaultIndexBytes)
	if idx.Omitted == 0 || len(idx.Shown) == 0 {
		t.Fatalf("want a partly shown index: %d shown, %d omitted", len(idx.Shown), idx.Omitted)
	}
	if !strings.Contains(src.SessionStart, idx.Text) {
		t.Fatalf("SessionStart block lacks the index:\n%s\n---\n%s", src.SessionStart, idx.Text)
	}
}
