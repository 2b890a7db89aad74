package match

import (
	"fmt"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// Shape is what an item's triggers constrain, for judging whether it can
// fire at all (docs/design.md, Matching and scoring: every item can fire or
// says why not).
type Shape struct {
	Tools, Targets   bool // tools set; commands, paths or content set
	Keywords, Topics int  // number of phrases
}

// PhraseOnly reports whether an item is constrained only by keywords
// and/or topics: it is a candidate only when one of its phrases is present.
func (s Shape) PhraseOnly() bool {
	return !s.Tools && !s.Targets && s.Keywords+s.Topics > 0
}

// BestRelevance is the highest relevance the item can reach on any call.
func (s Shape) BestRelevance() float64 {
	if s.PhraseOnly() {
		return 1
	}
	c := func(set bool) float64 {
		if set {
			return 1
		}
		return 0.5
	}
	return 0.4*c(s.Tools) + 0.4*c(s.Targets) + 0.1*c(s.Keywords > 0) + 0.1*c(s.Topics > 0)
}

// Unreachable says why an item of this shape and priority can never reach
// the threshold ("" when it can).
func (s Shape) Unreachable(priority int, threshold float64) string {
	best := s.BestRelevance()
	mult := Multiplier(priority)
	if best*mult >= threshold-Tolerance {
		return ""
	}
	return fmt.Sprintf("can never fire: its best score %.2f (relevance %.2f x %.1f) is below the threshold %.2f; raise its priority or add triggers", best*mult, best, mult, threshold)
}

// ContentUnreachable says why content triggers can never match: they are
// tried only on calls that add text, and tools names no such tool ("" when
// tools is empty or names one).
func ContentUnreachable(tools, content []string) string {
	if len(content) == 0 || len(tools) == 0 {
		return ""
	}
	for _, t := range tools {
		if Edits(t) {
			return ""
		}
	}
	return fmt.Sprintf("can never fire: content is tried only on calls that add text (Edit, MultiEdit, Write, NotebookEdit) and tools %v names none; add Edit or Write to tools, or match on paths", tools)
}

// Never says why an item can never fire ("" when it can): content on tools
// that add no text, an unless that vetoes every call its commands match,
// or a best score under the threshold.
func Never(t manifest.Triggers, priority int, threshold float64) string {
	if why := ContentUnreachable(t.Tools, t.Content); why != "" {
		return why
	}
	if why := VetoedAlways(t); why != "" {
		return why
	}
	return ShapeOf(t).Unreachable(priority, threshold)
}

// Untriggered reports whether triggers name nothing a call or a prompt
// can match (unless alone only vetoes): such an item is delivered at
// session start, never before a call (docs/design.md, Prevention before
// the call).
func Untriggered(t manifest.Triggers) bool {
	s := ShapeOf(t)
	return !s.Tools && !s.Targets && s.Keywords+s.Topics == 0
}

// phraseRelevance is the relevance of a phrase-only item: the fraction of
// its phrases present, keywords weighing 0.8 and topics 0.2 when it has both.
func phraseRelevance(kwHits, kws, topHits, tops int) float64 {
	switch {
	case kws > 0 && tops > 0:
		return 0.8*float64(kwHits)/float64(kws) + 0.2*float64(topHits)/float64(tops)
	case kws > 0:
		return float64(kwHits) / float64(kws)
	default:
		return float64(topHits) / float64(tops)
	}
}

// ShapeOf is the shape of compiled triggers.
func ShapeOf(t manifest.Triggers) Shape {
	return Shape{Tools: len(t.Tools) > 0, Targets: len(t.Commands)+len(t.Paths)+len(t.Content) > 0, Keywords: len(t.Keywords), Topics: len(t.Topics)}
}
