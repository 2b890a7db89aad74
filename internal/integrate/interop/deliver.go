package interop

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// deliver says how the item spec describes will be delivered once
// promoted, in the words lore list uses (docs/design.md, Prevention before
// the call). An always-on rule, a section of AGENTS.md and the like arrive
// without triggers and are delivered at session start. An item whose
// triggers cannot reach threshold at its priority (a low lesson, tools
// without a target at medium) would be dead once promoted: its priority
// is raised to the lowest band at which they fire, as promote does, said
// in a note; when none does, the note says why it never fires.
func deliver(spec markdown.Spec, threshold float64, from string) (markdown.Spec, string, []Note) {
	t := spec.Triggers
	mt := manifest.Triggers{Tools: t.Tools, Commands: t.Commands, Unless: t.Unless, Paths: t.Paths, Content: t.Content, Keywords: t.Keywords, Topics: t.Topics}
	if match.Untriggered(mt) {
		return spec, compile.SessionStart, nil
	}
	prio := markdown.DefaultPriority
	if p, err := markdown.ParsePriority(spec.Priority); err == nil && spec.Priority != "" {
		prio = p
	}
	why := match.Never(mt, int(prio), threshold)
	if why == "" {
		return spec, compile.BeforeCall, nil
	}
	band, ok, never := compile.LowestFiring(mt, int(prio), threshold)
	if !ok {
		return spec, compile.Never, []Note{{From: from, Title: spec.Title, Msg: never}}
	}
	reason := strings.TrimSuffix(strings.TrimPrefix(why, "can never fire: "), "; raise its priority or add triggers")
	note := Note{From: from, Title: spec.Title, Msg: fmt.Sprintf("priority %s raised to %s, the lowest at which its triggers can fire (at %s %s)", prio, band, prio, reason)}
	spec.Priority = band
	return spec, compile.BeforeCall, []Note{note}
}
