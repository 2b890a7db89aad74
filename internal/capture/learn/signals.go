package learn

import (
	"fmt"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/inject/signals"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Signals are the signals a capture emits (docs/design.md, Phase learnings and
// signals): always a FEEDBACK summary (strength 0.5, half-life 6 h), and a
// REDIRECT naming the pitfalls when there are any (0.9, 24 h). They remind
// the next sessions of the phase for a while, then decay away.
func Signals(key string, kept []Learning, now time.Time) []signals.Signal {
	if len(kept) == 0 {
		return nil
	}
	var all, pitfalls []string
	for _, l := range kept {
		all = append(all, Title(l.Text))
		if l.Kind == markdown.KindPitfall {
			pitfalls = append(pitfalls, Title(l.Text))
		}
	}
	mk := func(typ, text string, strength float64, hl time.Duration) signals.Signal {
		return signals.Normalize(signals.Signal{
			// One id per key and type: a capture run again replaces its signal.
			ID: fmt.Sprintf("learn-%s-%s", key, strings.ToLower(typ)), Type: typ,
			Text: capText(text, signals.MaxText), Strength: strength, HalfLife: hl, Created: now, Source: "learn:" + key,
		})
	}
	out := []signals.Signal{mk(signals.Feedback,
		fmt.Sprintf("%s: %d learning(s) captured: %s", key, len(all), strings.Join(all, "; ")), 0.5, 6*time.Hour)}
	if len(pitfalls) > 0 {
		out = append(out, mk(signals.Redirect, fmt.Sprintf("%s: avoid: %s", key, strings.Join(pitfalls, "; ")), 0.9, 24*time.Hour))
	}
	return out
}

// capText cuts s to n characters at a word boundary.
func capText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ;,:") + "…"
}
