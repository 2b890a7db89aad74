package compile

import (
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

const reviewedFM = "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: make needs -j\nstatus: active\npriority: high\n"

// TestConflictedItemIsNotCompiled: an item with a merge conflict in its
// body is left out for safety, its delivery says why, and neither side
// reaches the SessionStart block (docs/design.md, What a reviewer cannot
// see).
func TestConflictedItemIsNotCompiled(t *testing.T) {
	it := parse(t, ".lore/lessons/make.md", reviewedFM, "## Fix\n<<<<<<< HEAD\nmake -j1\n=======\nmake -j8\n>>>>>>> b\n")
	src, rep := Compile(Input{Items: []*markdown.Item{it}, Config: config.Default()})
	if len(src.Items) != 0 || len(rep.Excluded) != 1 || !rep.Excluded[0].Unsafe || rep.Excluded[0].Errors[0].Key != "conflict" {
		t.Fatalf("compiled %v, excluded %+v", src.Items, rep.Excluded)
	}
	if strings.Contains(src.SessionStart, "make -j") {
		t.Errorf("a side of the conflict reached SessionStart:\n%s", src.SessionStart)
	}
	if d := DeliveryOf(it, manifest.Settings{Threshold: 0.7}); d.Kind != Never || !strings.Contains(d.Reason, "conflict") {
		t.Errorf("delivery %+v", d)
	}
}

// TestConflictedLearningsAreNotShown: a learnings.md with conflict markers
// adds no recent learnings; once resolved, both sides' entries show.
func TestConflictedLearningsAreNotShown(t *testing.T) {
	resolved := markdown.AppendEntry(markdown.AppendEntry(nil, "From main", "a"), "From the branch", "b")
	conflicted := strings.Replace(string(resolved), "## From main", "<<<<<<< HEAD\n## From main", 1)
	conflicted = strings.Replace(conflicted, "## From the branch", "=======\n## From the branch", 1) + ">>>>>>> b\n"
	if got := RecentLearnings("l.md", []byte(conflicted)); got != "" {
		t.Errorf("conflicted learnings shown:\n%s", got)
	}
	if got := RecentLearnings("l.md", resolved); !strings.Contains(got, "From main") || !strings.Contains(got, "From the branch") {
		t.Errorf("resolved learnings:\n%s", got)
	}
}
