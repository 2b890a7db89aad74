package interop

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/manifest"
	"github.com/lore-agents/lore/markdown"
	"github.com/lore-agents/lore/match"
)

// How an imported item will reach an agent once promoted (docs/design.md,
// Prevention before the call), in the words lore list uses.
const (
	beforeCall   = "before-call"   // triggers that can reach the threshold
	sessionStart = "session-start" // no triggers: injected at session start
	never        = "never"         // triggers that cannot fire at any priority
)

// bands are the named priorities above low, as an import raises one.
var bands = []string{"medium", "high", "critical"}

// deliver says how the item spec describes will be delivered once
// promoted. An always-on rule, a section of AGENTS.md and the like arrive
// without triggers and are delivered at session start. An item whose
// triggers cannot reach threshold at its priority (a low lesson, tools
// without a target at medium) would be dead once promoted: its priority
// is raised to the lowest band at which they fire, said in a note; when
// none does, the note says why it never fires.
func deliver(spec markdown.Spec, threshold float64, from string) (markdown.Spec, string, []Note) {
	t := spec.Triggers
	if len(t.Tools)+len(t.Commands)+len(t.Paths)+len(t.Content)+len(t.Keywords)+len(t.Topics) == 0 {
		return spec, sessionStart, nil
	}
	mt := manifest.Triggers{Tools: t.Tools, Commands: t.Commands, Unless: t.Unless, Paths: t.Paths, Content: t.Content, Keywords: t.Keywords, Topics: t.Topics}
	prio := markdown.DefaultPriority
	if p, err := markdown.ParsePriority(spec.Priority); err == nil && spec.Priority != "" {
		prio = p
	}
	why := match.Never(mt, int(prio), threshold)
	if why == "" {
		return spec, beforeCall, nil
	}
	for _, b := range bands {
		n, _ := markdown.ParsePriority(b)
		if n > prio && match.Never(mt, int(n), threshold) == "" {
			reason := strings.TrimSuffix(strings.TrimPrefix(why, "can never fire: "), "; raise its priority or add triggers")
			note := Note{From: from, Title: spec.Title, Msg: fmt.Sprintf("priority %s raised to %s, the lowest at which its triggers can fire (at %s %s)", prio, b, prio, reason)}
			spec.Priority = b
			return spec, beforeCall, []Note{note}
		}
	}
	return spec, never, []Note{{From: from, Title: spec.Title, Msg: "its triggers " + why}}
}
