package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
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
	var known []*Known
	for _, it := range items {
		known = append(known, know(it, Store{Scope: Project}, MaxItemBytes))
	}
	a := alwaysOn(known, 1024)
	got := a.Text
	if len(a.Injected)+len(a.Dropped) != len(items) || len(a.Dropped) < 4 || a.Injected[0] != "01JQXYZ8K2M4N6P8Q0R2S4T009" {
		t.Errorf("injected %v, dropped %v", a.Injected, a.Dropped)
	}
	if len(got) > 1024 {
		t.Errorf("%d bytes over the budget", len(got))
	}
	first, second := strings.Index(got, "rule 09 "), strings.Index(got, "rule 08 ")
	if first < 0 || second < first || strings.Contains(got, "Fix: Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right. Do it right.\nSource: .lore/lessons/r00.md") {
		t.Errorf("not most important first:\n%s", got)
	}
	trimmed := strings.TrimRight(got, "\n")
	last := trimmed[strings.LastIndex(trimmed, "\n")+1:]
	if !strings.HasPrefix(last, `(left out by inject.sessionBudgetBytes: "rule `) || !strings.Contains(last, " more; `lore list` lists them)") {
		t.Errorf("left-out line = %q", last)
	}
	if a := alwaysOn(nil, 1024); a.Text != "" || a.Injected != nil {
		t.Error("a block without items")
	}
}

// TestCutKeepsTheFix: a 3 KB Mistake is shortened to make room; the Fix
// and the Checklist come whole (the text an agent acts on).
func TestCutKeepsTheFix(t *testing.T) {
	base := "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: Long story\nstatus: active\n"
	mistake := strings.Repeat("The run went wrong in yet another way.\n", 80) // 3,120 bytes
	it := parse(t, "x.md", base, "## Mistake\n"+mistake+"\n## Fix\nRun make clean first.\n\n## Checklist\n- stop the daemon\n- make clean\n")
	got := Render(it, "x.md", MaxItemBytes)
	if len(got) > MaxItemBytes {
		t.Errorf("%d bytes over %d", len(got), MaxItemBytes)
	}
	if !strings.Contains(got, shortened+"\nFix: Run make clean first.\nChecklist:\n- [ ] stop the daemon\n- [ ] make clean\nSource: x.md\n") {
		t.Errorf("fix or checklist lost:\n%s", got)
	}
	pf := parse(t, "PF-0001.md", "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V9\nkind: pitfall\nref: PF-0001\ntitle: Big issue\nstatus: active\n",
		"## Issue\n"+mistake+"\n## Avoid\nPin the version.\n")
	if got := Render(pf, "PF-0001.md", 1024); len(got) > 1024 || !strings.HasSuffix(got, shortened+"\nAvoid: Pin the version.\nSource: PF-0001.md\n") {
		t.Errorf("pitfall cut (%d bytes):\n%s", len(got), got)
	}
}
