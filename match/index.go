package match

import (
	"sort"
	"strings"

	"github.com/lore-agents/lore/manifest"
)

// Index plans the manifest's buckets for items (build time): for every
// known tool, every tool an item names, the other tools ("*") and prompts
// (PromptBucket), the items that can reach the threshold there, each either
// always a candidate or gated by literals of its command/path targets or,
// when it cannot pass without them, of its keywords. Decide over the
// buckets selects exactly what scoring every item would.
func Index(items []manifest.Item, s manifest.Settings) []manifest.Bucket {
	names := map[string]bool{OtherBucket: true, PromptBucket: true}
	for _, t := range KnownTools {
		names[t] = true
	}
	for _, it := range items {
		for _, t := range it.Triggers.Tools {
			names[Tool(t)] = true
		}
	}
	gates := literalGates(items, func(t manifest.Triggers) []string { return t.Commands })
	edits := literalGates(items, func(t manifest.Triggers) []string { return t.Content })
	var out []manifest.Bucket
	for name := range names {
		b := manifest.Bucket{Tool: name}
		for i, it := range items {
			place(&b, i, it, gates[i], edits[i], s.Threshold)
		}
		out = append(out, b)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Tool < out[b].Tool })
	return out
}

// literalGates returns, for each item, the literals that gate its command
// (or content) patterns (nil: none, always a candidate). Of a pattern's literal sets it
// takes the one the fewest items share (of those longer than a gram, when
// it has any): in a real store dozens of items
// name pytest, and the program name would let them all through on every
// pytest call, where a flag (--cov) or path (tests/integration) lets
// through only the few it concerns.
func literalGates(items []manifest.Item, pats func(manifest.Triggers) []string) [][]string {
	sets := make([][][][]string, len(items)) // item, pattern, set
	shared := map[string]int{}
	for i, it := range items {
		for _, c := range pats(it.Triggers) {
			opts := RegexLiteralSets(c)
			sets[i] = append(sets[i], opts)
			for _, o := range opts {
				for _, l := range o {
					shared[strings.ToLower(l)]++
				}
			}
		}
	}
	gates := make([][]string, len(items))
	for i, pats := range sets {
		var lits []string
		for _, opts := range pats {
			if len(opts) == 0 {
				lits = nil // a pattern without literals: always a candidate
				break
			}
			best, cost := opts[0], -1
			for _, o := range strongest(opts) {
				n := 0
				for _, l := range o {
					n += shared[strings.ToLower(l)]
				}
				if cost < 0 || n < cost || n == cost && better(o, best) {
					best, cost = o, n
				}
			}
			lits = append(lits, best...)
		}
		gates[i] = lits
	}
	return gates
}

// strongest keeps the sets whose literals are all longer than a gram when
// there are any: a three-byte literal such as "api" is rare in a store's
// patterns and common in commands.
func strongest(opts [][]string) [][]string {
	var out [][]string
	for _, o := range opts {
		if minLen(o) > minLiteral {
			out = append(out, o)
		}
	}
	if out == nil {
		return opts
	}
	return out
}

// place adds item i to bucket b if it can reach the threshold there.
func place(b *manifest.Bucket, i int, it manifest.Item, cmdLits, editLits []string, thr float64) {
	t := it.Triggers
	tool, kind := 0.5, targetKind(b.Tool)
	switch b.Tool {
	case PromptBucket:
		if len(t.Keywords) == 0 || len(t.Tools)+len(t.Commands)+len(t.Paths)+len(t.Content) > 0 {
			return
		}
		kind = targetNone
	case OtherBucket:
		if len(t.Tools) > 0 {
			return
		}
		kind = targetNone
	default:
		if len(t.Tools) > 0 {
			named := false
			for _, x := range t.Tools {
				named = named || Tool(x) == b.Tool
			}
			if !named {
				return
			}
			tool = 1
		}
	}
	if len(t.Content) > 0 && !Edits(b.Tool) {
		return // content items match only calls that add text
	}
	var targets []string
	edits := len(t.Content) > 0
	switch {
	case kind == targetShell && len(t.Commands) > 0:
		gate(b, i, it, tool, 1, &b.Target, cmdLits, thr)
	case edits && editLits != nil:
		// Content must match whatever the paths say: its literals are the
		// sharper gate (mock.patch, not test_).
		b.Edits = true
		gate(b, i, it, tool, 1, &b.Content, editLits, thr)
	case kind == targetFile && len(t.Paths) > 0 || edits:
		b.Edits = b.Edits || edits
		for _, g := range t.Paths {
			lits := GlobLiterals(g)
			if lits == nil {
				targets = nil
				break
			}
			targets = append(targets, lits...)
		}
		gate(b, i, it, tool, 1, &b.Target, targets, thr)
	default:
		gate(b, i, it, tool, 0.5, nil, nil, thr)
	}
}

// gate places the item in b: into (the Target or Content gates) when it
// has a target for the bucket's calls, nil when it has none.
func gate(b *manifest.Bucket, i int, it manifest.Item, tool, target float64, into *[]manifest.Gate, lits []string, thr float64) {
	t := it.Triggers
	kwMax, topMax := 0.5, 0.5
	if len(t.Keywords) > 0 {
		kwMax = 1
	}
	if len(t.Topics) > 0 {
		topMax = 1
	}
	mult := Multiplier(it.Priority)
	if ShapeOf(t).PhraseOnly() {
		// A candidate only when a phrase is present: gate on the keywords
		// unless topics alone (not in the prompt) could pass.
		if mult < thr-Tolerance {
			return
		}
		if len(t.Keywords) > 0 && (len(t.Topics) == 0 || 0.2*mult < thr-Tolerance) {
			b.Keyword = append(b.Keyword, manifest.Gate{Item: i, Literals: keywordLiterals(t.Keywords)})
			return
		}
		b.Always = append(b.Always, i)
		return
	}
	if (0.4*tool+0.4*target+0.1*kwMax+0.1*topMax)*mult < thr-Tolerance {
		return // can never pass here
	}
	if into != nil {
		// A gate with no literals (a pattern without one) is always a candidate.
		*into = append(*into, manifest.Gate{Item: i, Literals: lits})
		return
	}
	if len(t.Keywords) > 0 && (0.4*tool+0.4*target+0.1*topMax)*mult < thr-Tolerance {
		b.Keyword = append(b.Keyword, manifest.Gate{Item: i, Literals: keywordLiterals(t.Keywords)})
		return
	}
	b.Always = append(b.Always, i)
}

func keywordLiterals(kws []string) []string {
	var out []string
	for _, k := range kws {
		out = append(out, phraseLiteral(k))
	}
	return out
}
