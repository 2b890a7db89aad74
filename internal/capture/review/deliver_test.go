package review

import (
	"errors"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// TestDeliverable: the lowest named band at which an item's triggers can
// reach the threshold, for every shape of trigger; a priority already
// high enough is kept as written; no priority, or one asked for too low,
// is refused.
func TestDeliverable(t *testing.T) {
	set := compile.Settings(config.Default())
	for _, c := range []struct {
		name, priority, triggers, asked string
		want                            string // the priority afterwards, or "refused"
	}{
		{"command at low", "3", "tools: [Bash]\n  commands: ['\\bmake\\b']", "", "medium"},
		{"command at an integer medium", "6", "tools: [Bash]\n  commands: ['\\bmake\\b']", "", "6"},
		{"tools only at low", "low", "tools: [Bash]", "", "medium"},
		{"paths only at low", "low", "paths: ['docs/**']", "", "medium"},
		{"keywords only at low", "low", "keywords: [release]", "", "medium"},
		{"topics only at low", "low", "topics: [deployment]", "", "medium"},
		{"keywords and topics at low", "low", "keywords: [release]\n  topics: [deployment]", "", "medium"},
		{"unless only: no triggers", "low", "unless: ['--dry-run']", "", "low"},
		{"no triggers", "low", "", "", "low"},
		{"critical stays", "critical", "tools: [Bash]\n  commands: ['\\bmake\\b']", "", "critical"},
		{"content on a tool that adds no text", "low", "tools: [Bash]\n  content: ['print']", "", "refused"},
		{"asked too low", "low", "tools: [Bash]\n  commands: ['\\bmake\\b']", "low", "refused"},
		{"asked high enough", "high", "tools: [Bash]\n  commands: ['\\bmake\\b']", "high", "high"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fm := "id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: t\nstatus: draft\npriority: " + c.priority + "\n"
			if c.triggers != "" {
				fm += "triggers:\n  " + c.triggers + "\n"
			}
			it, err := markdown.Parse(".lore/lessons/t.md", []byte("---\n"+fm+"---\n\n## Fix\nx\n"))
			if err != nil {
				t.Fatal(err)
			}
			note, err := Deliverable(it, c.asked, set)
			if c.want == "refused" {
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), ".lore/lessons/t.md") {
					t.Errorf("err = %v, want a refusal naming the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := it.Node("priority").Value
			if got != c.want || (got != c.priority) != strings.HasPrefix(note, "priority raised from") {
				t.Errorf("priority %s, note %q; want %s", got, note, c.want)
			}
			if d := compile.DeliveryOf(it, set); d.Kind == compile.Never {
				t.Errorf("delivered never: %s", d.Reason)
			}
		})
	}
}
