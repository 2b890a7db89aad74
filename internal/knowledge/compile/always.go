package compile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// alwaysHead opens the block of items without triggers.
const alwaysHead = "## Always-on rules for this repository\n\n"

// leftOutRoom is kept free for the line naming what the budget left out.
const leftOutRoom = 240

// alwaysOn renders the items without triggers (imported always-on rules,
// AGENTS.md sections, general directives) for SessionStart and
// SubagentStart within budget bytes: most important first (priority, then
// confidence, then id), each as its record's text (cut to the cap), with a
// last line naming what the budget left out. A text that does not fit is
// left out and smaller ones after it still go in.
func alwaysOn(known []*Known, budget int) manifest.Always {
	if len(known) == 0 {
		return manifest.Always{}
	}
	sorted := append([]*Known(nil), known...)
	sort.SliceStable(sorted, func(a, b int) bool { return moreImportant(sorted[a], sorted[b]) })
	texts := make([]string, len(sorted))
	total := len(alwaysHead)
	for i, k := range sorted {
		texts[i] = k.Rec.Text + "\n" // rendered and cut to the cap when it was known
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
			out = append(out, sorted[i].Entry.Title)
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
