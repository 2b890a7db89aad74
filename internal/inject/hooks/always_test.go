package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/testrepo"
)

// alwaysItem is an item without triggers (an imported always-on rule).
func alwaysItem(n int, priority, title, fix string) string {
	return fmt.Sprintf("---\nid: 01JA1WAYS00000000000000%03d\nkind: lesson\ntitle: %s\nstatus: active\npriority: %s\n---\n\n## Mistake\nIt was forgotten.\n\n## Fix\n%s\n", n, title, priority, fix)
}

// alwaysStore is a repository whose manifest holds testItems and items
// without triggers of every priority, compiled with a session budget of
// 1024 bytes: the long one is left out, and named; the smaller ones after
// it still fit.
func alwaysStore(t *testing.T) string {
	t.Helper()
	files := map[string]string{
		".lore/lessons/a-low.md":      alwaysItem(1, "low", "Prefer small commits", "One change per commit."),
		".lore/lessons/b-critical.md": alwaysItem(2, "critical", "Never commit secrets", "Keep secrets in the vault."),
		".lore/lessons/c-medium.md":   alwaysItem(3, "medium", "Write tests first", "Add a failing test, then fix."),
		".lore/lessons/d-high.md":     alwaysItem(4, "high", "Use the Makefile targets", "Run make test, not go test by hand."),
		".lore/lessons/e-medium.md":   alwaysItem(5, "medium", "Long reference rule", strings.Repeat("Read the long rule. ", 60)),
	}
	for k, v := range testItems {
		files[k] = v
	}
	r := testrepo.New(t)
	var parsed []*markdown.Item
	for rel, data := range files {
		r.Write(rel, data)
		it, err := markdown.Parse(rel, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, it)
	}
	cfg := config.Default()
	cfg.Inject.SessionBudgetBytes = 1024
	r.Write(".lore/config.yaml", "inject:\n  sessionBudgetBytes: 1024\n")
	snap := compile.TakeSnapshot(r.Dir, nil, cfg.Learnings)
	data, rep, err := compile.Build(compile.Input{Items: parsed, Config: cfg, Snapshot: snap})
	if err != nil || len(rep.Excluded) > 0 {
		t.Fatalf("build: %v %+v", err, rep.Excluded)
	}
	writeManifest(t, r.Dir, data)
	return r.Dir
}

// replay runs a recorded contract's stdin against root.
func replay(t *testing.T, agent, event, file, root, session string) string {
	t.Helper()
	return hook(t, agent, event, payload(t, "testdata/contracts/"+file+".json", root, session))
}

// payload reads a recorded stdin, its $ROOT made root and its session_id
// session.
func payload(t *testing.T, path, root, session string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(bytes.ReplaceAll(data, []byte("$ROOT"), []byte(root)), &in); err != nil {
		t.Fatal(err)
	}
	in["session_id"] = session
	return in
}

// TestAlwaysOnAtSessionAndSubagentStart: items without triggers come at
// SessionStart in each agent's shape, most important first within
// inject.sessionBudgetBytes, with a line naming what was left out, and
// again at SubagentStart (a sub-agent's context is its own); never before
// a tool call.
func TestAlwaysOnAtSessionAndSubagentStart(t *testing.T) {
	root := alwaysStore(t)
	for _, c := range []struct{ agent, event, file string }{
		{"claude", "SessionStart", "claude-SessionStart-startup"},
		{"codex", "SessionStart", "codex-SessionStart-compact"},
		{"gemini", "SessionStart", "gemini-SessionStart-startup"},
		{"claude", "SubagentStart", "claude-SubagentStart"},
		{"codex", "SubagentStart", "codex-SubagentStart"},
	} {
		t.Run(c.file, func(t *testing.T) {
			out := replay(t, c.agent, c.event, c.file, root, newSession(t))
			if !strings.Contains(out, `"hookEventName":"`+c.event+`"`) {
				t.Fatalf("not the %s shape: %s", c.event, out)
			}
			ctx := context(t, out)
			secrets := strings.Index(ctx, "### Lesson: Never commit secrets\n")
			makefile := strings.Index(ctx, "### Lesson: Use the Makefile targets\n")
			if secrets < 0 || makefile < secrets || !strings.Contains(ctx, "Fix: Keep secrets in the vault.") {
				t.Errorf("critical, then high, with their fix:\n%s", ctx)
			}
			small := strings.Index(ctx, "### Lesson: Prefer small commits\n")
			if small < makefile {
				t.Errorf("the low item after the high one:\n%s", ctx)
			}
			left := `(left out by inject.sessionBudgetBytes: "Long reference rule"; ` + "`lore list`" + ` lists them)`
			if !strings.Contains(ctx, left) || strings.Contains(ctx, "Read the long rule") {
				t.Errorf("left-out line missing or a left-out text shown:\n%s", ctx)
			}
			if c.agent == "gemini" {
				return // its SessionStart context carries no record
			}
			inj, dropped := trailing(t, ctx)
			if strings.Join(inj, " ") != "01JA1WAYS00000000000000002 01JA1WAYS00000000000000004 01JA1WAYS00000000000000003 01JA1WAYS00000000000000001" ||
				strings.Join(dropped, " ") != "01JA1WAYS00000000000000005" {
				t.Errorf("record: injected %v, dropped %v", inj, dropped)
			}
			if block := ctx[strings.Index(ctx, "## Always-on rules"):]; c.event == "SubagentStart" && strings.Contains(block, "Knowledge index") {
				t.Errorf("a sub-agent gets the always-on block, not the index:\n%s", ctx)
			}
		})
	}
	// Before a call: only items with triggers.
	out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), "pytest -x"))
	if inj, _ := trailing(t, context(t, out)); len(inj) != 1 || inj[0] != "01JPYTEST0000000000000000A" {
		t.Errorf("injected before the call: %v", inj)
	}
}
