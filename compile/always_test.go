package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lore-agents/lore/markdown"
)

// TestAlwaysOnBudget: the block stays within its budget, most important
// first, and its last line names the first titles left out and counts the
// rest.
func TestAlwaysOnBudget(t *testing.T) {
	var items []*markdown.Item
	for i := 0; i < 12; i++ {
		fm := fmt.Sprintf("id: 01JQXYZ8K2M4N6P8Q0R2S4T%03d\nkind: lesson\ntitle: rule %02d with a rather long title to name\nstatus: active\npriority: %d\n", i, i, 1+i%10)
		items = append(items, parse(t, fmt.Sprintf(".lore/lessons/r%02d.md", i), fm, "## Fix\n"+strings.Repeat("Do it right. ", 20)+"\n"))
	}
	got := AlwaysOn(items, 1024, MaxItemBytes)
	if len(got) > 1024 {
		t.Errorf("%d bytes over the budget", len(got))
	}
	first, second := strings.Index(got, "rule 09 "), strings.Index(got, "rule 08 ")
	if first < 0 || second < first || strings.Contains(got, "Fix: Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right.\nSource: .lore/lessons/r00.md") {
		t.Errorf("not most important first:\n%s", got)
	}
	last := got[strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1:]
	if !strings.HasPrefix(last, `(left out by inject.sessionBudgetBytes: "rule `) || !strings.Contains(last, " more; `lore list` lists them)") {
		t.Errorf("left-out line = %q", last)
	}
	if AlwaysOn(nil, 1024, MaxItemBytes) != "" {
		t.Error("a block without items")
	}
}
