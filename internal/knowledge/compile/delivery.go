package compile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// How an item reaches an agent (docs/design.md, Prevention before the
// call): nothing that enters the store is silently dead.
const (
	BeforeCall   = "before-call"   // its triggers can reach the threshold on a matching call or prompt
	SessionStart = "session-start" // no triggers: injected at SessionStart and SubagentStart
	Never        = "never"         // never reaches an agent; Delivery.Reason says why
)

// Delivery is how an item reaches an agent, with why when it never does.
type Delivery struct {
	Kind   string `json:"delivery"`
	Reason string `json:"deliveryReason,omitempty"`
}

// DeliveryOf is how a build with settings set delivers it: never when the
// build leaves it out (an error or a safety finding, its status, a
// confidence under inject.minConfidence) or its triggers can never reach
// the threshold at its priority; at session start when it has no triggers;
// else before a matching call. It is the one answer list, show, match and
// promote give.
func DeliveryOf(it *markdown.Item, set manifest.Settings) Delivery {
	if why := LeftOut(it, set); why != "" {
		return Delivery{Never, why}
	}
	return triggerDelivery(Triggers(it), int(it.Priority), set.Threshold)
}

// Deliveries is DeliveryOf for every item of in (the project's, then each
// store's), by path as loaded, with what only the whole input decides, as
// the build's merge decides it (docs/design.md, Scopes and organisation
// stores): an org or user item that the config's disable names, or whose
// id an item before it has, never reaches the agent, and neither does an
// org draft. Shadowing and disable depend only on items of the same id:
// an input of those alone answers for one item.
func Deliveries(in Input) map[string]Delivery {
	set := Settings(in.Config)
	out := map[string]Delivery{}
	byID := map[string]string{} // id -> the path of the item that has it
	add := func(items []*markdown.Item, scope Scope) {
		for _, it := range slices.SortedFunc(slices.Values(items), byPath) {
			out[it.Path] = scopedDelivery(it, scope, set, in.Config.Disable, byID)
		}
	}
	add(in.Items, Project)
	for _, st := range in.Stores {
		add(st.Items, st.Scope)
	}
	return out
}

// scopedDelivery is one step of Deliveries, in the order of admit.
func scopedDelivery(it *markdown.Item, scope Scope, set manifest.Settings, disable []string, byID map[string]string) Delivery {
	if scope != Project && slices.Contains(disable, it.ID) {
		return Delivery{Never, "this project switches it off (disable: in the config)"}
	}
	if errs, _ := check(it); len(errs) > 0 {
		return Delivery{Never, "the build leaves it out: " + errs[0].Error()}
	}
	if prev, dup := byID[it.ID]; dup {
		if scope == Project {
			return Delivery{Never, "the build leaves it out: duplicate id: " + prev + " has it too"}
		}
		return Delivery{Never, "shadowed by " + prev + ", which has the same id and comes first"}
	}
	byID[it.ID] = it.Path
	set.Drafts = set.Drafts && scope != Org // an org draft is never injected
	if why := leftOutValid(it, set); why != "" {
		return Delivery{Never, why}
	}
	return triggerDelivery(Triggers(it), int(it.Priority), set.Threshold)
}

// DeliveryIn is Deliveries for one item of in.
func DeliveryIn(in Input, it *markdown.Item) Delivery {
	same := func(items []*markdown.Item) []*markdown.Item {
		return slices.DeleteFunc(slices.Clone(items), func(o *markdown.Item) bool { return o.ID != it.ID })
	}
	in.Items = same(in.Items)
	in.Stores = slices.Clone(in.Stores)
	for i := range in.Stores {
		in.Stores[i].Items = same(in.Stores[i].Items)
	}
	return Deliveries(in)[it.Path]
}

func byPath(a, b *markdown.Item) int { return strings.Compare(a.Path, b.Path) }

// LeftOut says why a build with settings set leaves the item out ("" when
// it compiles it): its first error or safety finding (file, line, key),
// its status, or a confidence under inject.minConfidence.
func LeftOut(it *markdown.Item, set manifest.Settings) string {
	if errs, _ := check(it); len(errs) > 0 {
		return "the build leaves it out: " + errs[0].Error()
	}
	return leftOutValid(it, set)
}

// leftOutValid is LeftOut for an item known to pass the checks.
func leftOutValid(it *markdown.Item, set manifest.Settings) string {
	if !it.Injectable(set.Drafts) {
		return inactive(it)
	}
	if !confident(it.Confidence, set.MinConfidence) {
		return fmt.Sprintf("confidence %.2f is under inject.minConfidence %.2f: the build leaves it out", it.Confidence, set.MinConfidence)
	}
	return ""
}

// triggerDelivery is the delivery that triggers t give an item at
// priority p.
func triggerDelivery(t manifest.Triggers, p int, threshold float64) Delivery {
	if match.Untriggered(t) {
		return Delivery{SessionStart, ""}
	}
	if why := match.Never(t, p, threshold); why != "" {
		return Delivery{Never, "its triggers " + why}
	}
	return Delivery{BeforeCall, ""}
}

func inactive(it *markdown.Item) string {
	switch it.Status {
	case "draft":
		return "status draft: not injected until promoted (lore promote)"
	case "proposed":
		return "status proposed: not injected until accepted (status: accepted)"
	}
	return fmt.Sprintf("status %s: only active lessons and pitfalls and accepted decisions are injected", it.Status)
}

// bands are the named priorities, lowest first, as promote tries them.
var bands = []string{"low", "medium", "high", "critical"}

// LowestFiring returns the lowest named band, no lower than an item's
// priority p, at which its triggers t can reach threshold; ok is false,
// with why, when none does (content on tools that add no text). An item
// without triggers fires at any priority (at session start). Promote and
// import both raise a priority with it.
func LowestFiring(t manifest.Triggers, p int, threshold float64) (band string, ok bool, why string) {
	for _, b := range bands {
		n, _ := markdown.ParsePriority(b)
		if markdown.Priority(p).Band() == b {
			n = markdown.Priority(p) // its own band: keep its number
		} else if int(n) < p {
			continue
		}
		d := triggerDelivery(t, int(n), threshold)
		if d.Kind != Never {
			return b, true, ""
		}
		why = d.Reason
	}
	return "", false, why
}
