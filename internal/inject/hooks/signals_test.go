package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/inject/signals"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
)

// TestSessionStartSignalsAndLearnings: live signals are read and decayed at
// SessionStart (REDIRECT first, dead ones left out), and the recent
// learnings pre-rendered by the build follow the knowledge index.
func TestSessionStartSignalsAndLearnings(t *testing.T) {
	root := repo(t, nil)
	var learnings []byte
	for i := 1; i <= 25; i++ {
		learnings = markdown.AppendEntry(learnings, "learning number "+string(rune('A'+i)), "")
	}
	learnings = markdown.AppendEntry(learnings, "Use sqlite for the cache", "kind: decision")
	in := compile.Input{Config: config.Default(), Learnings: learnings}
	data, _, err := compile.Build(in)
	if err != nil {
		t.Fatal(err)
	}
	writeManifest(t, root, data)

	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	t.Setenv("LORE_NOW", t0.Add(6*time.Hour).Format(time.RFC3339))
	sigs := []signals.Signal{
		{ID: "1", Type: signals.Feedback, Text: "the auth phase went well; keep the small commits", Strength: 0.5, HalfLife: 6 * time.Hour, Created: t0},
		{ID: "2", Type: signals.Redirect, Text: "stop editing generated files under gen/", Strength: 0.9, HalfLife: 24 * time.Hour, Created: t0},
		{ID: "3", Type: signals.Feedback, Text: "an old signal that has decayed by now", Strength: 0.09, HalfLife: 6 * time.Hour, Created: t0},
	}
	p := filepath.Join(root, filepath.FromSlash(lorepath.InLocal(lorepath.Signals)))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte("broken line\n"), signals.Marshal(sigs)...), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context(t, hook(t, "claude", "SessionStart", map[string]any{"session_id": newSession(t), "cwd": root, "source": "startup"}))
	r, f := strings.Index(ctx, "- REDIRECT 0.76: stop editing generated files"), strings.Index(ctx, "- FEEDBACK 0.25: the auth phase went well")
	if r < 0 || f < 0 || r > f || strings.Contains(ctx, "decayed by now") {
		t.Errorf("signals missing, misordered or dead ones shown:\n%s", ctx)
	}
	if !strings.Contains(ctx, "## Recent learnings") || !strings.Contains(ctx, "- learning number Z\n") ||
		strings.Contains(ctx, "- learning number E\n") || !strings.Contains(ctx, "- Use sqlite for the cache\n") ||
		!strings.Contains(ctx, "(5 older learning(s) and 0 older decision(s) left out") {
		t.Errorf("recent learnings not capped as expected:\n%s", ctx)
	}
	if strings.Index(ctx, "## Live signals") > strings.Index(ctx, "## Recent learnings") {
		t.Errorf("signals should come before the pre-rendered block:\n%s", ctx)
	}
	trailing(t, ctx)

	// No signal file: nothing about signals, nothing logged as an error.
	os.Remove(p)
	if ctx := context(t, hook(t, "claude", "SessionStart", map[string]any{"cwd": root})); strings.Contains(ctx, "Live signals") {
		t.Errorf("signals without a log:\n%s", ctx)
	}
}
