package hooks

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/testrepo"
)

const orgLesson = `---
id: 01JRQABE0000000000000000G1
kind: lesson
title: Plan before apply
status: active
priority: high
triggers:
  tools: [Bash]
  commands: ['\bterraform\s+apply\b']
---

## Fix
Run terraform plan first.
`

// orgRepo is a repository whose manifest holds one organisation store's
// item, the store's fetch state last touched at stamp (zero: never
// fetched, no state file).
func orgRepo(t *testing.T, stamp time.Time) (root, state string) {
	t.Helper()
	return orgRepoWith(t, stamp, orgLesson)
}

// orgRepoWith is orgRepo with the org store's one lesson given.
func orgRepoWith(t *testing.T, stamp time.Time, lesson string) (root, state string) {
	t.Helper()
	r := testrepo.New(t)
	org := t.TempDir()
	if err := os.MkdirAll(filepath.Join(org, "lessons"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(org, "lessons", "plan.md"), []byte(lesson), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	head, state := filepath.Join(cache, "HEAD"), filepath.Join(cache, "state.json")
	if !stamp.IsZero() {
		if err := os.WriteFile(state, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(state, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	items, errs := compile.LoadDir(org, "acme")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	stores := []compile.Store{{Scope: compile.Org, Name: "acme", Dir: org, State: head, Stat: manifest.StatPath(head), Items: items}}
	snap := compile.TakeSnapshot(r.Dir, stores, config.Default().Learnings)
	data, rep, err := compile.Build(compile.Input{Config: config.Default(), Stores: stores, Snapshot: snap})
	if err != nil || rep.Compiled != 1 {
		t.Fatalf("build: %+v, %v", rep, err)
	}
	writeManifest(t, r.Dir, data)
	return r.Dir, state
}

func TestRecordNamesTheOrigin(t *testing.T) {
	root, _ := orgRepo(t, time.Now().Add(-time.Hour))
	ctx := context(t, hook(t, "claude", "PreToolUse", bash(root, newSession(t), "terraform apply")))
	if !strings.Contains(ctx, "Plan before apply") ||
		!strings.HasSuffix(ctx, `<!-- lore {"injected":["01JRQABE0000000000000000G1"],"dropped":[],"origin":{"01JRQABE0000000000000000G1":"acme"}} -->`) {
		t.Fatalf("injection:\n%s", ctx)
	}
	// The project's own items keep the record as it was.
	proj := repo(t, testItems)
	if ctx := context(t, hook(t, "claude", "PreToolUse", bash(proj, newSession(t), "pytest -x"))); strings.Contains(ctx, `"origin"`) {
		t.Fatalf("a project item's record names an origin:\n%s", ctx)
	}
}

// An org item without triggers comes at session start, and the record
// names its origin there too.
func TestSessionStartRecordNamesTheOrigin(t *testing.T) {
	always := strings.Replace(orgLesson, "triggers:\n  tools: [Bash]\n  commands: ['\\bterraform\\s+apply\\b']\n", "", 1)
	root, _ := orgRepoWith(t, time.Now(), always)
	ctx := context(t, hook(t, "claude", "SessionStart", map[string]any{"session_id": newSession(t), "cwd": root, "hook_event_name": "SessionStart", "source": "startup"}))
	if !strings.Contains(ctx, "Plan before apply") ||
		!strings.HasSuffix(ctx, `"origin":{"01JRQABE0000000000000000G1":"acme"}} -->`) {
		t.Fatalf("session start:\n%s", ctx)
	}
}

// SessionStart syncs the organisation stores in the background when the
// last try is a day old or there was none, and never otherwise. With no
// lore to start, the attempt is logged, which is what is checked here;
// the fake lore then shows the command it would run.
func TestSessionStartSyncsOnceADay(t *testing.T) {
	now := time.Now()
	type repoCase struct {
		name, root string
		want       bool
	}
	var cases []repoCase
	for _, tc := range []struct {
		name  string
		stamp time.Time
		want  bool
	}{
		{"fetched an hour ago", now.Add(-time.Hour), false},
		{"tried 25 hours ago", now.Add(-25 * time.Hour), true},
		{"never fetched", time.Time{}, true},
	} {
		root, _ := orgRepo(t, tc.stamp)
		cases = append(cases, repoCase{tc.name, root, tc.want})
	}
	plain := repo(t, testItems)
	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir()) // no lore: a start is logged, synchronously
	for _, tc := range cases {
		root := tc.root
		m, err := manifest.Open(filepath.Join(root, ".lore", "cache", "manifest"))
		if err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		h := &handler{root: root, stderr: &errb}
		h.syncInBackground(m, now)
		m.Close()
		if got := strings.Contains(errb.String(), "lore sync not run"); got != tc.want {
			t.Errorf("%s: started a sync %v, want %v (%q)", tc.name, got, tc.want, errb.String())
		}
	}
	// A project without sources never syncs.
	m, err := manifest.Open(filepath.Join(plain, ".lore", "cache", "manifest"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var errb bytes.Buffer
	(&handler{root: t.TempDir(), stderr: &errb}).syncInBackground(m, now.Add(1000*time.Hour))
	if errb.Len() > 0 {
		t.Errorf("a manifest without sources started a sync: %q", errb.String())
	}

	t.Setenv("PATH", path)
	root, _ := orgRepo(t, time.Time{})
	runs := fakeLore(t)
	hook(t, "claude", "SessionStart", map[string]any{"session_id": newSession(t), "cwd": root, "hook_event_name": "SessionStart", "source": "startup"})
	for i := 0; i < 200; i++ { // the detached child writes when it runs
		if data, _ := os.ReadFile(runs); strings.Contains(string(data), "sync --background") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	data, _ := os.ReadFile(runs)
	t.Fatalf("SessionStart ran %q, want lore sync --background", data)
}
