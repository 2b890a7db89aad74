package compile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

func learningsFile(learnings, decisions, words int) []byte {
	var data []byte
	body := strings.TrimSpace(strings.Repeat("w ", words))
	for i := 0; i < learnings; i++ {
		data = markdown.AppendEntry(data, fmt.Sprintf("L%03d %s", i, body), "")
	}
	for i := 0; i < decisions; i++ {
		data = markdown.AppendEntry(data, fmt.Sprintf("D%03d %s", i, body), "kind: decision")
	}
	return data
}

func TestRecentLearningsCaps(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		learnings, decisions int
		words                int
		shownL, shownD       int
	}{
		{"none", 0, 0, 1, 0, 0},
		{"under the caps", 5, 3, 1, 5, 3},
		{"exactly 20 and 30", 20, 30, 1, 20, 30},
		{"21 learnings, 31 decisions", 21, 31, 1, 20, 30},
		// 20+30 entries of 7 words: (7+1+1)*1.3*50 = 585 tokens, under 600.
		{"at the token threshold", 20, 30, 7, 20, 30},
		// 8 words: 650 tokens: the second stage, 10 and 15 (325 tokens).
		{"over the token threshold", 20, 30, 8, 10, 15},
		// 60-word entries (80 tokens each): 10 and 15 are still over; the longer
		// list loses its oldest until 7 entries (564 tokens) fit.
		{"long entries", 20, 30, 60, 3, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := RecentLearnings(".lore/learnings.md", learningsFile(tc.learnings, tc.decisions, tc.words))
			gotL, gotD := strings.Count(out, "\n- L"), strings.Count(out, "\n- D")
			if gotL != tc.shownL || gotD != tc.shownD {
				t.Fatalf("shown %d learnings, %d decisions; want %d, %d\n%s", gotL, gotD, tc.shownL, tc.shownD, out)
			}
			leftL, leftD := tc.learnings-tc.shownL, tc.decisions-tc.shownD
			note := fmt.Sprintf("(%d older learning(s) and %d older decision(s) left out", leftL, leftD)
			if (leftL+leftD > 0) != strings.Contains(out, note) {
				t.Errorf("left-out note (%s) wrong:\n%s", note, out)
			}
			if tc.shownL > 0 && !strings.Contains(out, fmt.Sprintf("- L%03d", tc.learnings-1)) {
				t.Errorf("newest learning not shown:\n%s", out)
			}
		})
	}
}

func TestRecentLearningsKinds(t *testing.T) {
	var data []byte
	data = markdown.AppendEntry(data, "Older pitfall", "kind: pitfall\nbody")
	data = markdown.AppendEntry(data, "Newer lesson\u200b", "")
	out := RecentLearnings("l.md", data)
	if !strings.Contains(out, "- Newer lesson\n- Older pitfall (pitfall)\n") || strings.Contains(out, "decisions") {
		t.Errorf("RecentLearnings:\n%q", out)
	}
	if RecentLearnings("l.md", []byte("\x00")) != "" {
		t.Error("binary file rendered")
	}
}
