package match

import (
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/parallel"
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
	// Each bucket goes over every item: over all cores (a tenth of a
	// one-file build at 10,000 items).
	out := make([]manifest.Bucket, 0, len(names))
	for name := range names {
		out = append(out, manifest.Bucket{Tool: name})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Tool < out[b].Tool })
	parallel.Each(len(out), func(k int) {
		for i, it := range items {
			place(&out[k], i, it, gates[i], edits[i], s.Threshold)
		}
	})
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
	sets, shared := literalSets(items, pats)
	gates := make([][]string, len(items))
	for i, pats := range sets {
		gates[i] = itemGate(pats, shared)
	}
	return gates
}

// literalSets returns each item's patterns' literal sets (item, pattern,
// set) and how many times each literal occurs in them, lowercased.
func literalSets(items []manifest.Item, pats func(manifest.Triggers) []string) ([][][][]string, map[string]int) {
	sets := make([][][][]string, len(items))
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
	return sets, shared
}

// itemGate returns the rarest literal set of each of an item's patterns,
// or nil when one pattern has none (the item is always a candidate).
func itemGate(pats [][][]string, shared map[string]int) []string {
	var lits []string
	for _, opts := range pats {
		if len(opts) == 0 {
			return nil
		}
		lits = append(lits, rarest(opts, shared)...)
	}
	return lits
}

// rarest returns the strongest set whose literals the fewest items share.
func rarest(opts [][]string, shared map[string]int) []string {
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
	return best
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
	tool, kind, ok := bucketFit(b.Tool, t)
	if !ok || Untriggered(t) || len(t.Content) > 0 && !Edits(b.Tool) {
		return // content items match only calls that add text; untriggered ones come at session start
	}
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
		gate(b, i, it, tool, 1, &b.Target, pathLiterals(t.Paths), thr)
	default:
		gate(b, i, it, tool, 0.5, nil, nil, thr)
	}
}

// bucketFit returns the tool score and target kind of an item with
// triggers t in the bucket; !ok when it can never be there.
func bucketFit(bucket string, t manifest.Triggers) (tool float64, kind int, ok bool) {
	switch bucket {
	case PromptBucket:
		return 0.5, targetNone, len(t.Keywords) > 0 && len(t.Tools)+len(t.Commands)+len(t.Paths)+len(t.Content) == 0
	case OtherBucket:
		return 0.5, targetNone, len(t.Tools) == 0
	}
	if len(t.Tools) == 0 {
		return 0.5, targetKind(bucket), true
	}
	return 1, targetKind(bucket), namesTool(t.Tools, bucket)
}

// pathLiterals returns the literals of every glob, or nil when one has
// none (the item is always a candidate).
func pathLiterals(globs []string) []string {
	var lits []string
	for _, g := range globs {
		l := GlobLiterals(g)
		if l == nil {
			return nil
		}
		lits = append(lits, l...)
	}
	return lits
}

// gate places the item in b: into (the Target or Content gates) when it
// has a target for the bucket's calls, nil when it has none.
func gate(b *manifest.Bucket, i int, it manifest.Item, tool, target float64, into *[]manifest.Gate, lits []string, thr float64) {
	t := it.Triggers
	kwMax, topMax := bestFit(t.Keywords), bestFit(t.Topics)
	mult := Multiplier(it.Priority)
	if ShapeOf(t).PhraseOnly() {
		gatePhrases(b, i, t, mult, thr)
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

// bestFit is the most a keyword or topic set can score: 1 when it has
// phrases, the neutral 0.5 when it has none.
func bestFit(phrases []string) float64 {
	if len(phrases) > 0 {
		return 1
	}
	return 0.5
}

// gatePhrases places an item that has only keywords and topics: a
// candidate only when a phrase is present, gated on the keywords unless
// topics alone (not in the prompt) could pass.
func gatePhrases(b *manifest.Bucket, i int, t manifest.Triggers, mult, thr float64) {
	if mult < thr-Tolerance {
		return
	}
	if len(t.Keywords) > 0 && (len(t.Topics) == 0 || 0.2*mult < thr-Tolerance) {
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
