package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/testrepo"
)

// The organisation source of the part: orgLesson (Plan before apply),
// a deny, and a lesson the project switches off.
var partItems = map[string]string{
	"lessons/plan.md": orgLesson,
	"pitfalls/PF-0007-namespace.md": `---
id: 01JRQABE0000000000000000G2
kind: pitfall
ref: PF-0007
title: Deleting a namespace deletes everything in it
status: active
priority: critical
enforce: deny
triggers:
  tools: [Bash]
  commands: ['\bkubectl\s+delete\s+(ns|namespace)\b']
---

## Issue
The namespace holds the team's services.

## Impact
An outage.

## Avoid
Delete the deployments you mean, by name.
`,
	"lessons/old.md": strings.NewReplacer("01JRQABE0000000000000000G1", offID, "Plan before apply", "Old terraform advice").Replace(orgLesson),
}

const offID = "01JRQABE0000000000000000G3"

// partRepo is a repository of testItems whose manifest names a part of
// partItems, switching offID off. It returns the part's path.
func partRepo(t *testing.T) (root, part string) {
	t.Helper()
	project, source := map[string][]byte{}, map[string][]byte{}
	for rel, text := range testItems {
		project[rel] = []byte(text)
	}
	for rel, text := range partItems {
		source[rel] = []byte(text)
	}
	return partStore(t, project, source, []string{offID})
}

// partStore writes the project's item files into a fresh repository and
// an organisation source's (laid out like .lore/) into a folder; it
// compiles the source's items alone into a part, as the build does a
// fetched source (no files, no session text), and the project's into a
// manifest that names the part, switching off the ids off, and watches
// the source's HEAD.
func partStore(tb testing.TB, project, source map[string][]byte, off []string) (root, part string) {
	tb.Helper()
	org, cache := tb.TempDir(), tb.TempDir()
	for rel, data := range source {
		testrepo.WriteFile(tb, filepath.Join(org, filepath.FromSlash(rel)), string(data))
	}
	items, errs := compile.LoadDir(org, "acme")
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	psrc, rep := compile.Compile(compile.Input{Config: config.Default(), Stores: []compile.Store{{Scope: compile.Org, Name: "acme", Dir: org, Items: items}}})
	if rep.Compiled != len(source) {
		tb.Fatalf("part: %d of %d compiled", rep.Compiled, len(source))
	}
	for i := range psrc.Items {
		psrc.Items[i].Sources = nil
	}
	psrc.Watch, psrc.Files, psrc.SessionStart, psrc.AlwaysOn = nil, nil, "", manifest.Always{}
	part = filepath.Join(cache, "acme-1.part")
	writeBuilt(tb, part, psrc)

	root, src, rep := compileStore(tb, project)
	if rep.Compiled != len(project) {
		tb.Fatalf("project: %d of %d compiled", rep.Compiled, len(project))
	}
	head := filepath.Join(cache, "HEAD")
	testrepo.WriteFile(tb, head, "0123456789abcdef\n")
	src.Watch = append(src.Watch, manifest.Watched{Path: head, Stat: manifest.StatPath(head)})
	src.Parts = []manifest.Part{{Path: part, Hash: psrc.Hash, Off: off}}
	writeBuilt(tb, filepath.Join(root, ".lore", "cache", "manifest"), src)
	return root, part
}

func writeBuilt(t testing.TB, path string, src manifest.Source) {
	t.Helper()
	data, err := manifest.Build(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPartItemsAreInjected: the items of a part are injected and deny as
// the manifest's own do, and re-armed after a compaction; the one the
// manifest switches off is not.
func TestPartItemsAreInjected(t *testing.T) {
	root, _ := partRepo(t)
	s := newSession(t)
	ctx := context(t, hook(t, "claude", "PreToolUse", bash(root, s, "terraform apply && pytest")))
	if !strings.Contains(ctx, "Plan before apply") || !strings.Contains(ctx, "pytest hangs") || strings.Contains(ctx, "Old terraform") ||
		!strings.Contains(ctx, `"origin":{"01JRQABE0000000000000000G1":"acme"}`) {
		t.Fatalf("injection:\n%s", ctx)
	}
	if reason := denyReason(t, hook(t, "claude", "PreToolUse", bash(root, s, "kubectl delete namespace prod"))); !strings.Contains(reason, "Deleting a namespace") {
		t.Errorf("the part's deny did not deny: %q", reason)
	}
	// High items come back after a compaction: the part's too.
	hook(t, "claude", "SessionStart", map[string]any{"session_id": s, "cwd": root, "source": "compact"})
	if ctx := context(t, hook(t, "claude", "PreToolUse", bash(root, s, "terraform apply"))); !strings.Contains(ctx, "Plan before apply") {
		t.Errorf("the part's high item was not re-injected after a compaction: %q", ctx)
	}
}

// TestMissingPartIsStale: a part gone (a cleared cache) makes the call
// rebuild, logged and not on stderr, and answer nothing while it is
// missing; back, it answers again.
func TestMissingPartIsStale(t *testing.T) {
	root, part := partRepo(t)
	data, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(part); err != nil {
		t.Fatal(err)
	}
	// A lore whose build writes nothing: the part stays missing.
	bin, runs := t.TempDir(), filepath.Join(t.TempDir(), "runs")
	script := "#!/bin/sh\necho \"$*\" >> '" + runs + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "lore"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	in, _ := json.Marshal(bash(root, newSession(t), "terraform apply && pytest"))
	var out, errb bytes.Buffer
	Main([]string{"claude", "PreToolUse"}, bytes.NewReader(in), &out, &errb)
	if out.String() != "{}\n" || errb.Len() != 0 {
		t.Errorf("stdout %q, stderr %q; want {} and nothing", out.String(), errb.String())
	}
	ran, _ := os.ReadFile(runs)
	log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	if !strings.Contains(string(ran), "build --quiet") || !strings.Contains(string(log), "manifest stale (") || !strings.Contains(string(log), part+" is missing") {
		t.Errorf("lore ran %q; hook.log:\n%s", ran, log)
	}
	// SessionStart likewise: lessons come later, nothing on stderr.
	in, _ = json.Marshal(map[string]any{"session_id": newSession(t), "cwd": root, "hook_event_name": "SessionStart", "source": "startup"})
	out.Reset()
	Main([]string{"claude", "SessionStart"}, bytes.NewReader(in), &out, &errb)
	if ctx := context(t, out.String()); !strings.Contains(ctx, "were not ready at session start") || errb.Len() != 0 {
		t.Errorf("SessionStart: %q, stderr %q", ctx, errb.String())
	}
	if err := os.WriteFile(part, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if ctx := context(t, hook(t, "claude", "PreToolUse", bash(root, newSession(t), "terraform apply"))); !strings.Contains(ctx, "Plan before apply") {
		t.Errorf("with the part back: %q", ctx)
	}
}
