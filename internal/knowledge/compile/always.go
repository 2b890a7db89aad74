package compile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// alwaysHead opens the block of items without triggers.
const alwaysHead = "## Always-on rules for this repository\n\n"

// leftOutRoom is kept free for the line naming what the budget left out.
const leftOutRoom = 240

// AlwaysOn renders the items without triggers (imported always-on rules,
// AGENTS.md sections, general directives) for SessionStart and
// SubagentStart within budget bytes: most important first (priority, then
// confidence, then id), each as its injection text cut to itemCap, with a
// last line naming what the budget left out. A text that does not fit is
// left out and smaller ones after it still go in.
func AlwaysOn(items []*markdown.Item, budget, itemCap int) manifest.Always {
	if len(items) == 0 {
		return manifest.Always{}
	}
	sorted := append([]*markdown.Item(nil), items...)
	sort.SliceStable(sorted, func(a, b int) bool { return markdown.MoreImportant(sorted[a], sorted[b]) })
	texts := make([]string, len(sorted))
	total := len(alwaysHead)
	for i, it := range sorted {
		texts[i] = Render(it, it.Path, itemCap) + "\n"
		total += len(texts[i])
	}
	room := budget
	if total > budget {
		room -= leftOutRoom // something is left out: say what
	}
	var b strings.Builder
	b.WriteString(alwaysHead)
	var a manifest.Always
	var out []string
	for i, t := range texts {
		if b.Len()+len(t) > room {
			out = append(out, Sanitize(sorted[i].Title))
			a.Dropped = append(a.Dropped, sorted[i].ID)
			continue
		}
		b.WriteString(t)
		a.Injected = append(a.Injected, sorted[i].ID)
	}
	if len(out) > 0 {
		b.WriteString(leftOutLine(out) + "\n")
	}
	a.Text = b.String()
	return a
}

// leftOutLine names what inject.sessionBudgetBytes left out: the first
// titles, then a count, within leftOutRoom.
func leftOutLine(titles []string) string {
	const most = 3
	var named []string
	for i, t := range titles {
		if i == most {
			break
		}
		if len(t) > 36 {
			t = capLine(t, 36)
		}
		named = append(named, fmt.Sprintf("%q", t))
	}
	more := ""
	if n := len(titles) - len(named); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("(left out by inject.sessionBudgetBytes: %s%s; `lore list` lists them)\n", strings.Join(named, ", "), more)
}
