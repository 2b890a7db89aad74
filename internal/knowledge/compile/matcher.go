package compile

import (
	"fmt"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Matcher decides calls against a set of items exactly as the hook
// decides them for a fresh context: the same compile, manifest and
// matcher, in memory. lint's examples, lore replay and lore stats use it,
// so what they report is what the hook would do.
type Matcher struct {
	m   *manifest.Manifest
	rep Report
	v   verdicts
}

// NewMatcher compiles items under cfg. drafts: draft items are compiled
// as if active (a draft is replayed before it is promoted).
func NewMatcher(items []*markdown.Item, cfg config.Config, drafts bool) (*Matcher, error) {
	return NewStoreMatcher(Input{Items: items, Config: cfg}, drafts)
}

// NewStoreMatcher is NewMatcher for the project's items and its stores',
// merged as a build merges them.
func NewStoreMatcher(in Input, drafts bool) (*Matcher, error) {
	in.Config.Inject.Drafts = in.Config.Inject.Drafts || drafts
	data, rep, err := Build(in)
	if err != nil {
		return nil, fmt.Errorf("compile: matcher: %w", err)
	}
	m, err := manifest.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("compile: matcher: %w", err)
	}
	return &Matcher{m: m, rep: rep, v: verdictsOf(rep)}, nil
}

// Delivery is DeliveryOf for one of the matcher's items under set, from
// what its compile found: the checks, the slow part on a large store,
// are not run again.
func (mt *Matcher) Delivery(it *markdown.Item, set manifest.Settings) Delivery {
	return mt.v.delivery(it, set)
}

// Decide is the hook's decision for c in a context that was shown
// nothing yet.
func (mt *Matcher) Decide(c match.Call) (match.Decision, error) {
	return match.Decide(mt.m, c, nil)
}

// DecidePrompt is the hook's decision for a user prompt (items with
// keywords and no tools or targets) in a context shown nothing yet.
func (mt *Matcher) DecidePrompt(prompt string) (match.Decision, error) {
	return match.DecidePrompt(mt.m, prompt, nil, nil)
}

// Explain is Decide with every item scored and the unselected ones listed
// with why (lint says why an example did not fire).
func (mt *Matcher) Explain(c match.Call) (match.Decision, error) {
	return match.Explain(mt.m, c)
}

// Report is what the compile kept and left out (items with errors are
// never matched).
func (mt *Matcher) Report() Report { return mt.rep }
