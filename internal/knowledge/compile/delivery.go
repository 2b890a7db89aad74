package compile

import (
	"fmt"
	"slices"

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
// else before a matching call. It is the answer for a new item on its own
// (lore add; review and promote ask LeftOut); Deliveries answers for the
// items of every scope (list, show, match, stats).
func DeliveryOf(it *markdown.Item, set manifest.Settings) Delivery {
	if why := LeftOut(it, set); why != "" {
		return Delivery{Never, why}
	}
	return triggerDelivery(Triggers(it), int(it.Priority), set.Threshold)
}

// Deliveries is how a build of in delivers each of its items (the
// project's, then each store's), by path as loaded. The build's merge
// decides it, so what only the whole input decides is said too (docs/
// design.md, Scopes and organisation stores): an org or user item that the
// config's disable names, or whose id an item before it has, never
// reaches the agent, and neither does an org draft. Shadowing and disable
// depend only on items of the same id: an input of those alone answers
// for one item (DeliveryIn).
func Deliveries(in Input) map[string]Delivery {
	in.Cache = nil
	_, rep := Compile(in)
	v := verdictsOf(rep)
	set := Settings(in.Config)
	out := map[string]Delivery{}
	for _, it := range in.AllItems() {
		out[it.Path] = v.delivery(it, set)
	}
	return out
}

// AllItems is the project's items, then each store's, in order.
func (in Input) AllItems() []*markdown.Item {
	out := slices.Clone(in.Items)
	for _, st := range in.Stores {
		out = append(out, st.Items...)
	}
	return out
}

// verdicts is what a compile decided of the items it left out, by path.
type verdicts struct {
	excluded map[string]*markdown.Error // the first error of an item with errors
	aside    map[string]string          // why the merge left out a valid item
}

func verdictsOf(rep Report) verdicts {
	v := verdicts{excluded: map[string]*markdown.Error{}, aside: rep.Aside}
	for _, x := range rep.Excluded {
		if len(x.Errors) > 0 {
			v.excluded[x.Path] = x.Errors[0]
		}
	}
	return v
}

// delivery is DeliveryOf for an item of the compile under set, from what
// the compile found: the checks, the slow part on a large store, are not
// run again.
func (v verdicts) delivery(it *markdown.Item, set manifest.Settings) Delivery {
	if e := v.excluded[it.Path]; e != nil {
		return Delivery{Never, "the build leaves it out: " + e.Error()}
	}
	if why := v.aside[it.Path]; why != "" {
		return Delivery{Never, why}
	}
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

// Rejected is the first error (file, line, key) for which every build
// leaves the item out: a validation error or one of lint's safety
// findings. nil when it has none.
func Rejected(it *markdown.Item) error {
	if errs, _ := check(it); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// LeftOut says why a build with settings set leaves the item out ("" when
// it compiles it): its first error or safety finding (file, line, key),
// its status, or a confidence under inject.minConfidence.
func LeftOut(it *markdown.Item, set manifest.Settings) string {
	if err := Rejected(it); err != nil {
		return "the build leaves it out: " + err.Error()
	}
	return leftOutValid(it, set)
}

// leftOutValid is LeftOut for an item known to pass the checks.
func leftOutValid(it *markdown.Item, set manifest.Settings) string {
	if !it.Injectable(set.Drafts) {
		return inactive(it.Status, scopeOf(it.Path))
	}
	if !confident(it.Confidence, set.MinConfidence) {
		return lowConfidence(it.Confidence, set.MinConfidence)
	}
	return ""
}

func lowConfidence(conf, minConf float64) string {
	return fmt.Sprintf("confidence %.2f is under inject.minConfidence %.2f: the build leaves it out", conf, minConf)
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

// inactive says why an item of the scope is not injected for its status:
// an organisation's item is promoted in its own store, not here.
func inactive(status string, scope Scope) string {
	switch {
	case scope == Org:
		return fmt.Sprintf("status %s: an organisation's item acts only once active (a decision: accepted) in its own store", status)
	case status == "draft":
		return "status draft: not injected until promoted (lore promote)"
	case status == "proposed":
		return "status proposed: not injected until accepted (status: accepted)"
	}
	return fmt.Sprintf("status %s: only active lessons and pitfalls and accepted decisions are injected", status)
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
