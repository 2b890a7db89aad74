package evidence

import (
	"fmt"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// verdict is the first verdict that applies to an item, with why in
// words a person pruning the store can check.
func verdict(in Input, it *markdown.Item, s ItemStats, lf ledgerFacts, cs callSets, active time.Time, known bool) (string, string) {
	if why := in.Stale[it.ID]; why != "" {
		return Stale, why
	}
	if v, why := neverFired(in, s, active, known, observedSince(lf, cs)); v != "" {
		return v, why
	}
	if v, why := noisy(in, s, lf); v != "" {
		return v, why
	}
	return effect(in, s)
}

// observedSince is when the records of the period begin: the oldest
// ledger entry or dated transcript call; zero with neither.
func observedSince(lf ledgerFacts, cs callSets) time.Time {
	switch {
	case lf.first.IsZero():
		return cs.first
	case cs.first.IsZero() || lf.first.Before(cs.first):
		return lf.first
	}
	return cs.first
}

// neverFired: nothing matched the item, neither a hook call in the
// ledger nor a transcript call, over neverFiredDays or more of it being
// active and watched (a ledger begun yesterday says nothing of a month).
func neverFired(in Input, s ItemStats, active time.Time, known bool, observed time.Time) (string, string) {
	if !known || observed.IsZero() {
		return "", ""
	}
	from := active
	if observed.After(from) {
		from = observed
	}
	days := int(in.Now.Sub(from).Hours() / 24)
	if days < neverFiredDays {
		return "", ""
	}
	if s.Fired != nil && *s.Fired > 0 || s.After != nil && s.After.Calls > 0 {
		return "", ""
	}
	return NeverFired, fmt.Sprintf("active and watched for %d days; no hook call and no transcript call matched it", days)
}

// noisy: it fired in more than a quarter of the contexts the ledger saw
// (once it saw enough contexts for a quarter to be minCalls), or its
// holds were repeated more often than changed. An item without triggers
// is delivered in every context by design (its remedy is triggers, not
// narrower ones): how often it fires says nothing of it.
func noisy(in Input, s ItemStats, lf ledgerFacts) (string, string) {
	if s.Held != nil && s.Held.Repeated > s.Held.Changed {
		return Noisy, fmt.Sprintf("held %s: the agent ran the same call again %s, changed it %s", times(s.Held.Total), times(s.Held.Repeated), times(s.Held.Changed))
	}
	seen := len(lf.contexts)
	if s.Contexts == nil || seen < 4*in.Config.Stats.MinCalls || s.Delivery == compile.SessionStart {
		return "", ""
	}
	if *s.Contexts*4 > seen {
		return Noisy, fmt.Sprintf("fired in %d of the %d contexts the ledger saw", *s.Contexts, seen)
	}
	return "", ""
}

// effect compares failures per matching call before and after the item
// became active, or what the calls after its holds did.
func effect(in Input, s ItemStats) (string, string) {
	if s.Held != nil && s.Held.Changed > s.Held.Repeated {
		return Effective, fmt.Sprintf("held %s: the agent changed the call %s, repeated it %s", times(s.Held.Total), times(s.Held.Changed), times(s.Held.Repeated))
	}
	min := in.Config.Stats.MinCalls
	switch {
	case s.Before != nil && s.After == nil:
		return Unmeasured, fmt.Sprintf("not active (status %s): %d matching calls so far, none after", s.Status, s.Before.Calls)
	case s.Before == nil:
		return Unmeasured, "when it became active is unknown, so no before and after"
	}
	if s.Before.Calls < min || s.After.Calls < min {
		return Unmeasured, fmt.Sprintf("%d matching calls before it became active and %d after; a verdict needs %d on each side (stats.minCalls)",
			s.Before.Calls, s.After.Calls, min)
	}
	before, after := s.Before.rate(), s.After.rate()
	if before > 0 && after <= before/2 {
		return Effective, fmt.Sprintf("failures per matching call fell from %s to %s", pct(before), pct(after))
	}
	return NoEffect, fmt.Sprintf("failures per matching call went from %s to %s (a fall by half is effective)", pct(before), pct(after))
}

func pct(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }

// times is "once", "twice" or "N times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
