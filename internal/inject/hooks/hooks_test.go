package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/protocol"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/testrepo"
)

func TestMain(m *testing.M) {
	os.Exit(testrepo.Hermetic(func() int {
		// The calls here run in this process, where the watchdog's exit at
		// the deadline would end every test: a deadline far over any call
		// keeps a loaded machine from turning an answer into that exit. The
		// tests of the deadline set their own. (A build then gets 45 s, not
		// 1.5 s.) Hermetic keeps an installed lore off PATH: a hook that
		// finds its manifest missing or damaged would run it to rebuild.
		os.Setenv("LORE_HOOK_DEADLINE", "1m")
		return m.Run()
	}))
}

// Items of the test store: a pytest lesson (high), a force-push pitfall
// that denies (critical), a conftest path lesson (medium), a prompt-only
// release lesson (high) and a generated-docs lesson for reads, searches
// and listings (medium).
var testItems = map[string]string{
	".lore/lessons/pytest.md": `---
id: 01JPYTEST0000000000000000A
kind: lesson
title: pytest hangs without a TTY
status: active
priority: high
triggers:
  tools: [Bash]
  commands: ['\bpytest\b']
  unless: ['--no-header']
---

## Mistake
Bare pytest hangs in an agent shell.

## Fix
Use ` + "`python -m pytest --no-header -rN -p no:faulthandler`" + `.
`,
	".lore/pitfalls/PF-0001-force-push.md": `---
id: 01JFRCE000000000000000000B
kind: pitfall
ref: PF-0001
title: Force push rewrites shared history
status: active
priority: critical
enforce: deny
triggers:
  tools: [Bash]
  commands: ['git\s+push\s+.*--force\b']
---

## Issue
A force push drops teammates' commits.

## Impact
Lost work.

## Avoid
Use git push --force-with-lease.
`,
	".lore/lessons/conftest.md": `---
id: 01JCNFTEST000000000000000C
kind: lesson
title: conftest fixtures are shared by every test below
status: active
priority: medium
triggers:
  tools: [Edit, Write]
  paths: ['**/conftest.py']
---

## Mistake
Editing a conftest.py fixture changes every test under it.

## Fix
Run the whole folder's tests after editing it.
`,
	".lore/lessons/release.md": `---
id: 01JRECSE0000000000000000ZD
kind: lesson
title: Bump the version in two places
status: active
priority: high
triggers:
  keywords: ['release']
---

## Mistake
The release forgot internal/version.go.

## Fix
Bump VERSION and internal/version.go together.
`,
	".lore/lessons/generated-docs.md": `---
id: 01JGENDXCS00000000000000ZE
kind: lesson
title: docs/generated is rebuilt by make docs
status: active
priority: medium
triggers:
  tools: [Read, Grep, Glob]
  paths: ['docs/generated/**']
---

## Mistake
Edits under docs/generated were lost at the next make docs.

## Fix
Edit the templates in docs/src and run make docs.
`,
}

// repo writes the test store into a fresh repository and builds its
// manifest with the stat of its sources, as lore build does.
func repo(t testing.TB, items map[string]string) string {
	t.Helper()
	files := map[string][]byte{}
	for rel, text := range items {
		files[rel] = []byte(text)
	}
	root, rep := buildStore(t, files)
	if len(rep.Excluded) > 0 {
		t.Fatalf("excluded: %+v", rep.Excluded[0].Errors)
	}
	return root
}

// buildStore writes the item files into a fresh repository and compiles
// their manifest there.
func buildStore(t testing.TB, files map[string][]byte) (string, compile.Report) {
	t.Helper()
	root, src, rep := compileStore(t, files)
	data, err := manifest.Build(src)
	if err != nil {
		t.Fatal(err)
	}
	writeManifest(t, root, data)
	return root, rep
}

// compileStore writes the item files into a fresh repository and compiles
// them, with the stat of their sources.
func compileStore(t testing.TB, files map[string][]byte) (string, manifest.Source, compile.Report) {
	t.Helper()
	r := testrepo.New(t)
	var parsed []*markdown.Item
	for rel, data := range files {
		r.Write(rel, string(data))
		it, err := markdown.Parse(rel, data)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, it)
	}
	snap := compile.TakeSnapshot(r.Dir, nil, config.Default().Learnings)
	src, rep := compile.Compile(compile.Input{Items: parsed, Config: config.Default(), Snapshot: snap})
	return r.Dir, src, rep
}

func writeManifest(t testing.TB, root string, data []byte) {
	t.Helper()
	p := filepath.Join(root, ".lore", "cache", "manifest")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var sessionN atomic.Int64 // parallel calls make sessions

// newSession returns a session id no other test uses.
func newSession(t testing.TB) string {
	id := fmt.Sprintf("test-%s-%d-%d", t.Name(), os.Getpid(), sessionN.Add(1))
	t.Cleanup(func() { openSession(id, "").wipe() })
	return id
}

// hook runs Main and returns stdout, checking it is JSON and exit 0.
func hook(t testing.TB, agent, event string, stdin any) string {
	t.Helper()
	data, ok := stdin.([]byte)
	if !ok {
		var err error
		if data, err = json.Marshal(stdin); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := Main([]string{agent, event}, bytes.NewReader(data), &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, out.String())
	}
	return out.String()
}

// context extracts hookSpecificOutput.additionalContext.
func context(t testing.TB, out string) string {
	t.Helper()
	var v struct {
		H struct {
			Name    string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v.H.Context
}

var recordRE = regexp.MustCompile(`<!-- lore (\{.*\}) -->$`)

// hookRecord is the record that ends an injection.
type hookRecord struct{ Injected, Dropped, Held []string }

// parseRecord parses the record that must end an injection.
func parseRecord(t testing.TB, ctx string) hookRecord {
	t.Helper()
	m := recordRE.FindStringSubmatch(ctx)
	if m == nil {
		t.Fatalf("no trailing record in %q", ctx)
	}
	var r hookRecord
	if err := json.Unmarshal([]byte(m[1]), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// trailing parses the record that must end an injection.
func trailing(t testing.TB, ctx string) (injected, dropped []string) {
	t.Helper()
	r := parseRecord(t, ctx)
	return r.Injected, r.Dropped
}

func bash(root, session, command string) map[string]any {
	return map[string]any{"session_id": session, "cwd": root, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_1"}
}

func TestPreToolUseInjectsOnceAndRecords(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	out := hook(t, "claude", "PreToolUse", bash(root, s, "cd app && pytest -x"))
	ctx := context(t, out)
	if !strings.Contains(ctx, "pytest hangs without a TTY") || !strings.Contains(ctx, "--no-header -rN") {
		t.Fatalf("lesson missing:\n%s", ctx)
	}
	if !strings.Contains(ctx, ".lore/lessons/pytest.md") {
		t.Errorf("source file missing:\n%s", ctx)
	}
	if inj, _ := trailing(t, ctx); len(inj) != 1 || inj[0] != "01JPYTEST0000000000000000A" {
		t.Errorf("injected = %v", inj)
	}
	if !strings.Contains(out, `"hookEventName":"PreToolUse"`) || strings.Contains(out, "permissionDecision") {
		t.Errorf("output = %s", out)
	}
	if again := hook(t, "claude", "PreToolUse", bash(root, s, "pytest -v")); again != "{}\n" {
		t.Errorf("second call in the session = %s, want {}", again)
	}
	// The fix already applied: unless vetoes.
	if out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), "pytest --no-header")); out != "{}\n" {
		t.Errorf("unless did not veto: %s", out)
	}
}

func TestDenyIsNeverDeduplicated(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	for i := 0; i < 2; i++ {
		out := hook(t, "claude", "PreToolUse", bash(root, s, "git push origin main --force"))
		var v struct {
			H struct {
				Decision, Reason string
			} `json:"hookSpecificOutput"`
		}
		json.Unmarshal([]byte(strings.NewReplacer(`"permissionDecision"`, `"Decision"`, `"permissionDecisionReason"`, `"Reason"`).Replace(out)), &v)
		if v.H.Decision != "deny" || !strings.Contains(v.H.Reason, "--force-with-lease") || !strings.Contains(v.H.Reason, "PF-0001-force-push.md") {
			t.Fatalf("call %d: %s", i, out)
		}
		if inj, _ := trailing(t, v.H.Reason); len(inj) != 1 || inj[0] != "01JFRCE000000000000000000B" {
			t.Errorf("injected = %v", inj)
		}
	}
}

func TestPathsAreRepoRelative(t *testing.T) {
	root := repo(t, testItems)
	in := map[string]any{"session_id": newSession(t), "cwd": filepath.Join(root, "pkg"), "tool_name": "MultiEdit",
		"tool_input": map[string]any{"file_path": filepath.Join(root, "pkg", "conftest.py")}}
	if ctx := context(t, hook(t, "claude", "PreToolUse", in)); !strings.Contains(ctx, "conftest fixtures") {
		t.Errorf("MultiEdit of pkg/conftest.py: %q", ctx)
	}
	in["tool_input"] = map[string]any{"file_path": "/elsewhere/conftest.py"}
	in["session_id"] = newSession(t)
	if out := hook(t, "claude", "PreToolUse", in); out != "{}\n" {
		t.Errorf("a path outside the repository matched: %s", out)
	}
}

func TestUserPromptStoresAndInjects(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	in := map[string]any{"session_id": s, "cwd": root, "prompt": "Cut the release please"}
	ctx := context(t, hook(t, "claude", "UserPromptSubmit", in))
	if !strings.Contains(ctx, "Bump the version") {
		t.Fatalf("prompt lesson missing: %q", ctx)
	}
	if _, _ = trailing(t, ctx); len(openSession(s, "").prompts()) != 1 {
		t.Errorf("prompt not stored")
	}
	for i := 0; i < 7; i++ {
		hook(t, "claude", "UserPromptSubmit", map[string]any{"session_id": s, "cwd": root, "prompt": fmt.Sprint("p", i)})
	}
	if ps := openSession(s, "").prompts(); len(ps) != 5 || ps[4] != "p6" {
		t.Errorf("prompts = %q, want the last five", ps)
	}
}

func TestSessionStartClearAndCompact(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	hook(t, "claude", "PreToolUse", bash(root, s, "pytest"))
	edit := map[string]any{"session_id": s, "cwd": root, "tool_name": "Edit", "tool_input": map[string]any{"file_path": "conftest.py"}}
	if ctx := context(t, hook(t, "claude", "PreToolUse", edit)); ctx == "" {
		t.Fatal("conftest lesson not injected")
	}
	start := func(source string) string {
		return context(t, hook(t, "claude", "SessionStart", map[string]any{"session_id": s, "cwd": root, "source": source}))
	}
	ctx := start("compact")
	if !strings.HasPrefix(ctx, protocol.Text) || !strings.Contains(ctx, "Force push rewrites shared history") {
		t.Errorf("SessionStart lacks the protocol or the critical item:\n%s", ctx)
	}
	trailing(t, ctx)
	// high (7) >= reinjectPriority (7) comes back; medium stays claimed.
	if ctx := context(t, hook(t, "claude", "PreToolUse", bash(root, s, "pytest"))); !strings.Contains(ctx, "pytest hangs") {
		t.Errorf("high-priority lesson not re-injected after compaction")
	}
	if out := hook(t, "claude", "PreToolUse", edit); out != "{}\n" {
		t.Errorf("medium lesson re-injected after compaction: %s", out)
	}
	start("clear")
	if ctx := context(t, hook(t, "claude", "PreToolUse", edit)); !strings.Contains(ctx, "conftest") {
		t.Errorf("clear did not wipe the session's dedup")
	}
}

func TestFailuresPrintEmptyObject(t *testing.T) {
	root := repo(t, testItems)
	cases := map[string]func(){
		"corrupt manifest": func() { writeManifest(t, root, []byte("LORE garbage")) },
		"truncated manifest": func() {
			data, _ := os.ReadFile(filepath.Join(root, ".lore/cache/manifest"))
			writeManifest(t, root, data[:len(data)/2])
		},
		"missing manifest": func() { os.Remove(filepath.Join(root, ".lore/cache/manifest")) },
	}
	for name, breakIt := range cases {
		t.Run(name, func(t *testing.T) {
			r := repo(t, testItems)
			root = r
			breakIt()
			if out := hook(t, "claude", "PreToolUse", bash(root, newSession(t), "pytest")); out != "{}\n" {
				t.Errorf("got %s", out)
			}
		})
	}
	for name, stdin := range map[string][]byte{"invalid": []byte("{not json"), "empty": nil, "array": []byte("[1]")} {
		if out := hook(t, "claude", "PreToolUse", stdin); out != "{}\n" {
			t.Errorf("%s stdin: %s", name, out)
		}
	}
	var out bytes.Buffer
	for _, args := range [][]string{nil, {"claude"}, {"nope", "PreToolUse"}, {"claude", "Nope"}} {
		out.Reset()
		if Main(args, strings.NewReader("{}"), &out, &bytes.Buffer{}) != 0 || out.String() != "{}\n" {
			t.Errorf("args %q: %q", args, out.String())
		}
	}
}

// Without a lore binary to rebuild it (none next to the test binary, none
// on PATH), a corrupt manifest means {} and a log that says why.
func TestCorruptManifestWithoutLoreIsLogged(t *testing.T) {
	root := repo(t, testItems)
	writeManifest(t, root, []byte("LORE garbage"))
	t.Setenv("PATH", t.TempDir())
	var out, errb bytes.Buffer
	in, _ := json.Marshal(bash(root, newSession(t), "pytest"))
	Main([]string{"claude", "PreToolUse"}, bytes.NewReader(in), &out, &errb)
	log, err := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	for _, want := range []string{"lore not found", "manifest corrupt", "not rebuilt within"} {
		if err != nil || !strings.Contains(string(log), want) || !strings.Contains(errb.String(), want) {
			t.Errorf("want %q: hook.log = %q (%v), stderr = %q", want, log, err, errb.String())
		}
	}
	if out.String() != "{}\n" {
		t.Errorf("stdout = %q", out.String())
	}
}

func TestDisableAndDeadline(t *testing.T) {
	root := repo(t, testItems)
	in := bash(root, newSession(t), "pytest")
	t.Setenv("LORE_DISABLE", "1")
	if out := hook(t, "claude", "PreToolUse", in); out != "{}\n" {
		t.Errorf("LORE_DISABLE=1: %s", out)
	}
	t.Setenv("LORE_DISABLE", "")
	// A call stuck reading stdin: the watchdog answers {} at the deadline
	// and ends the process (here: releases the reader instead).
	t.Setenv("LORE_HOOK_DEADLINE", "20ms")
	release := make(chan struct{})
	aborted := make(chan int, 1)
	abort = func(code int) { aborted <- code; close(release) }
	defer func() { abort = os.Exit }()
	var out bytes.Buffer
	if code := Main([]string{"claude", "PreToolUse"}, stuckReader{release}, &out, io.Discard); code != 0 {
		t.Errorf("Main returned %d", code)
	}
	if out.String() != "{}\n" {
		t.Errorf("at the deadline: %q, want exactly one {}", out.String())
	}
	if code := <-aborted; code != 0 {
		t.Errorf("the watchdog exits with %d, want 0", code)
	}
}

// stuckReader blocks until released, like stdin that never closes.
type stuckReader struct{ release chan struct{} }

func (r stuckReader) Read([]byte) (int, error) {
	<-r.release
	return 0, io.EOF
}

// parallel makes n calls at once and returns their outputs.
func parallel(n int, call func() string) []string {
	var wg sync.WaitGroup
	outs := make([]string, n)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = call()
		}()
	}
	wg.Wait()
	return outs
}

// TestParallelClaims races sub-agents of one session for the same item:
// exactly one prints it.
func TestParallelClaims(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	const n = 16
	outs := parallel(n, func() string { return hook(t, "claude", "PreToolUse", bash(root, s, "pytest -x")) })
	got := 0
	for _, o := range outs {
		if strings.Contains(o, "pytest hangs") {
			got++
		}
	}
	if got != 1 {
		t.Errorf("%d of %d parallel calls injected the lesson, want 1", got, n)
	}
}

// TestCodexInjectsBeforeTheCall: Codex 0.169 takes additionalContext at
// PreToolUse, so the lesson comes before the call and not again after it.
func TestCodexInjectsBeforeTheCall(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	in := map[string]any{"session_id": s, "cwd": root, "tool_name": "Bash", "tool_input": map[string]any{"command": "pytest -q"}}
	if ctx := context(t, hook(t, "codex", "PreToolUse", in)); !strings.Contains(ctx, "pytest hangs") {
		t.Errorf("codex PreToolUse: %q", ctx)
	}
	if out := hook(t, "codex", "PostToolUse", in); out != "{}\n" {
		t.Errorf("codex PostToolUse repeated the lesson: %s", out)
	}
	in["tool_input"] = map[string]any{"command": "git push --force"}
	if out := hook(t, "codex", "PreToolUse", in); !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("codex deny: %s", out)
	}
	patch := "*** Begin Patch\n*** Update File: tests/conftest.py\n@@\n-a\n+b\n*** End Patch\n"
	in = map[string]any{"session_id": s, "cwd": root, "tool_name": "apply_patch", "tool_input": map[string]any{"command": patch}}
	if ctx := context(t, hook(t, "codex", "PreToolUse", in)); !strings.Contains(ctx, "conftest fixtures") {
		t.Errorf("apply_patch paths: %q", ctx)
	}
}

// denyReason extracts the reason of a deny in either shape.
func denyReason(t *testing.T, out string) string {
	t.Helper()
	var v struct {
		Decision, Reason string
		H                struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Decision == "deny" {
		return v.Reason
	}
	if v.H.Decision == "deny" {
		return v.H.Reason
	}
	return ""
}

// TestDenyNamesTheOtherLessons: a denied call runs no after-tool hook, so
// the lessons that matched it ride in the deny reason, once per context,
// in every agent.
func TestDenyNamesTheOtherLessons(t *testing.T) {
	root := repo(t, testItems)
	for _, c := range [][2]string{{"claude", "PreToolUse"}, {"codex", "PreToolUse"}, {"gemini", "BeforeTool"}} {
		s := newSession(t)
		in := map[string]any{"session_id": s, "cwd": root, "tool_name": "Bash",
			"tool_input": map[string]any{"command": "pytest -x && git push --force origin main"}}
		if c[0] == "gemini" {
			in["tool_name"] = "run_shell_command"
		}
		reason := denyReason(t, hook(t, c[0], c[1], in))
		if !strings.Contains(reason, "Blocked by lore: Force push") || !strings.Contains(reason, "pytest hangs") {
			t.Errorf("%s: deny reason lacks the deny or the other lesson:\n%s", c[0], reason)
		}
		again := denyReason(t, hook(t, c[0], c[1], in))
		if !strings.Contains(again, "Force push") || strings.Contains(again, "pytest hangs") {
			t.Errorf("%s: second deny = %q, want the deny without the lesson already shown", c[0], again)
		}
	}
}

// TestSubagentsHaveTheirOwnContext: the main thread and each sub-agent
// (Codex: same session_id, another agent_id) each get an item once, a
// sub-agent reads the main thread's prompts, and PostCompact in a
// sub-agent re-arms only that sub-agent's high items.
func TestSubagentsHaveTheirOwnContext(t *testing.T) {
	root := repo(t, testItems)
	for _, agent := range []string{"claude", "codex"} {
		s := newSession(t)
		for _, a := range []string{"sub-1", "sub-2"} {
			t.Cleanup(func() { openSession(s, a).wipe() })
		}
		call := func(agentID string) string {
			in := bash(root, s, "pytest -x")
			if agentID != "" {
				in["agent_id"], in["agent_type"] = agentID, "worker"
			}
			return hook(t, agent, "PreToolUse", in)
		}
		hook(t, agent, "UserPromptSubmit", map[string]any{"session_id": s, "cwd": root, "prompt": "fix the flaky tests"})
		for _, who := range []string{"", "sub-1", "sub-2"} {
			if !strings.Contains(call(who), "pytest hangs") {
				t.Errorf("%s: context %q did not get the lesson", agent, who)
			}
			if out := call(who); out != "{}\n" {
				t.Errorf("%s: context %q got the lesson twice: %s", agent, who, out)
			}
		}
		if ps := openSession(s, "sub-1").prompts(); len(ps) != 1 || ps[0] != "fix the flaky tests" {
			t.Errorf("%s: a sub-agent reads prompts %q, want the main thread's", agent, ps)
		}
		hook(t, agent, "PostCompact", map[string]any{"session_id": s, "cwd": root, "agent_id": "sub-1", "trigger": "auto"})
		if !strings.Contains(call("sub-1"), "pytest hangs") {
			t.Errorf("%s: PostCompact in sub-1 did not re-arm its high lesson", agent)
		}
		if out := call(""); out != "{}\n" {
			t.Errorf("%s: PostCompact in sub-1 re-armed the main thread: %s", agent, out)
		}
	}
}

// TestResumeReinjects: on SessionStart(resume) the lesson is gone from
// the model's context (Claude Code 2.1.197 restores no hook context), so
// high items are re-armed as after a compaction; medium ones stay claimed.
func TestResumeReinjects(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	edit := map[string]any{"session_id": s, "cwd": root, "tool_name": "Edit", "tool_input": map[string]any{"file_path": "conftest.py"}}
	hook(t, "claude", "PreToolUse", bash(root, s, "pytest"))
	hook(t, "claude", "PreToolUse", edit)
	hook(t, "claude", "SessionStart", map[string]any{"session_id": s, "cwd": root, "source": "resume"})
	if ctx := context(t, hook(t, "claude", "PreToolUse", bash(root, s, "pytest"))); !strings.Contains(ctx, "pytest hangs") {
		t.Errorf("high lesson not re-injected after resume")
	}
	if out := hook(t, "claude", "PreToolUse", edit); out != "{}\n" {
		t.Errorf("medium lesson re-injected after resume: %s", out)
	}
}

// TestQuietEvents: events lore has nothing to say at answer {} without
// logging "unknown event" (Codex marks other answers Failed).
func TestQuietEvents(t *testing.T) {
	root := repo(t, testItems)
	for _, c := range [][2]string{{"codex", "PermissionRequest"}, {"codex", "Interrupt"}, {"codex", "PostCompact"},
		{"codex", "SubagentStop"}, {"claude", "PostCompact"}, {"claude", "SubagentStop"}, {"claude", "PermissionRequest"}} {
		var out, errb bytes.Buffer
		in, _ := json.Marshal(map[string]any{"session_id": newSession(t), "cwd": root, "hook_event_name": c[1]})
		Main(c[:], bytes.NewReader(in), &out, &errb)
		if out.String() != "{}\n" || errb.Len() > 0 {
			t.Errorf("%s %s: stdout %q, stderr %q", c[0], c[1], out.String(), errb.String())
		}
	}
}

// TestSubagentStopScansTheSubagentTranscript: SubagentStop starts the
// background scan of agent_transcript_path (not the parent's transcript).
func TestSubagentStopScansTheSubagentTranscript(t *testing.T) {
	root := repo(t, testItems)
	ran := stubLore(t)
	for _, agent := range []string{"claude", "codex"} {
		data := ran(func() {
			hook(t, agent, "SubagentStop", map[string]any{"session_id": newSession(t), "cwd": root, "agent_id": "a1",
				"transcript_path": "/p/parent.jsonl", "agent_transcript_path": "/p/parent/subagents/agent-a1.jsonl"})
		})
		if want := "scan --quiet /p/parent/subagents/agent-a1.jsonl\n"; data != want {
			t.Errorf("%s: lore ran with %q, want %q", agent, data, want)
		}
	}
}

// TestStopScansTheSubagentsToo: Stop scans the session's transcript and
// its subagents/ folder, where SubagentStop's scan may have come too early
// for the sub-agent's last message; without the folder, only the transcript.
func TestStopScansTheSubagentsToo(t *testing.T) {
	root := repo(t, testItems)
	ran := stubLore(t)
	dir := t.TempDir()
	transcript := filepath.Join(dir, "s1.jsonl")
	sub := filepath.Join(dir, "s1", "subagents")
	for _, withSub := range []bool{false, true} {
		if withSub {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		data := ran(func() {
			hook(t, "claude", "Stop", map[string]any{"session_id": newSession(t), "cwd": root, "transcript_path": transcript})
		})
		want := "scan --quiet " + transcript + "\n"
		if withSub {
			want = "scan --quiet " + transcript + " " + sub + "\n"
		}
		if data != want {
			t.Errorf("subagents folder %v: lore ran with %q, want %q", withSub, data, want)
		}
	}
}

func TestGeminiNames(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	in := map[string]any{"session_id": s, "cwd": root, "tool_name": "run_shell_command", "tool_input": map[string]any{"command": "git push -f origin x --force"}}
	out := hook(t, "gemini", "BeforeTool", in)
	if !strings.Contains(out, `"decision":"deny"`) || !strings.Contains(out, `"reason":"Blocked by lore`) {
		t.Errorf("gemini deny: %s", out)
	}
	in = map[string]any{"session_id": s, "cwd": root, "tool_name": "replace", "tool_input": map[string]any{"file_path": filepath.Join(root, "conftest.py")}}
	if out := hook(t, "gemini", "BeforeTool", in); out != "{}\n" {
		t.Errorf("gemini BeforeTool injected: %s", out)
	}
	out = hook(t, "gemini", "AfterTool", in)
	if !strings.Contains(context(t, out), "conftest fixtures") || !strings.Contains(out, `"hookEventName":"AfterTool"`) {
		t.Errorf("gemini AfterTool: %s", out)
	}
}

// TestMainExitingAnswersLikeMain: the lean binary's entry point (which
// leaves the manifest mapped for the exit) prints what Main prints.
func TestMainExitingAnswersLikeMain(t *testing.T) {
	root := repo(t, testItems)
	in := func() *bytes.Reader {
		data, err := json.Marshal(bash(root, newSession(t), "pytest"))
		if err != nil {
			t.Fatal(err)
		}
		return bytes.NewReader(data)
	}
	var a, b bytes.Buffer
	Main([]string{"claude", "PreToolUse"}, in(), &a, io.Discard)
	MainExiting([]string{"claude", "PreToolUse"}, in(), &b, io.Discard)
	if a.String() != b.String() || !strings.Contains(a.String(), "additionalContext") {
		t.Fatalf("Main:\n%s\nMainExiting:\n%s", a.String(), b.String())
	}
}

// TestGeminiTools: Gemini CLI 0.61's tools in lore's vocabulary, with
// the paths their inputs name.
func TestGeminiTools(t *testing.T) {
	g := AgentNamed("gemini")
	cases := []struct {
		tool, input string
		want        call
	}{
		{"grep_search", `{"pattern":"TODO","dir_path":"docs/generated"}`, call{Tool: "Grep", Paths: []string{"docs/generated"}}},
		{"search_file_content", `{"pattern":"TODO","path":"src"}`, call{Tool: "Grep", Paths: []string{"src"}}},
		{"glob", `{"pattern":"**/*.md","dir_path":"docs"}`, call{Tool: "Glob", Paths: []string{"docs"}}},
		{"list_directory", `{"dir_path":"/r/docs/generated"}`, call{Tool: "Glob", Paths: []string{"/r/docs/generated"}}},
		{"read_many_files", `{"include":["a.md","docs/**/*.md"],"exclude":["x"]}`, call{Tool: "Read", Paths: []string{"a.md", "docs/**/*.md"}}},
		{"read_file", `{"file_path":"/r/a.go"}`, call{Tool: "Read", Paths: []string{"/r/a.go"}}},
		{"run_shell_command", `{"command":"make docs","description":"x"}`, call{Tool: "Bash", Command: "make docs"}},
	}
	for _, c := range cases {
		got := g.toolCall(&input{ToolName: c.tool, ToolInput: []byte(c.input)})
		if got.Tool != c.want.Tool || got.Command != c.want.Command || fmt.Sprint(got.Paths) != fmt.Sprint(c.want.Paths) {
			t.Errorf("%s %s = %+v, want %+v", c.tool, c.input, got, c.want)
		}
	}
	root := repo(t, testItems)
	for _, tool := range []string{"grep_search", "list_directory", "glob"} {
		in := map[string]any{"session_id": newSession(t), "cwd": root, "tool_name": tool,
			"tool_input": map[string]any{"pattern": "*", "dir_path": filepath.Join(root, "docs", "generated", "api")}}
		if ctx := context(t, hook(t, "gemini", "AfterTool", in)); !strings.Contains(ctx, "docs/generated is rebuilt") {
			t.Errorf("%s under docs/generated: %q", tool, ctx)
		}
	}
}

// TestGeminiRecordInLog: Gemini shows the model `&lt;!-- lore ...`, so its
// record goes to the hook log (not stderr) and not into the model's text.
func TestGeminiRecordInLog(t *testing.T) {
	root := repo(t, testItems)
	in := map[string]any{"session_id": newSession(t), "cwd": root, "tool_name": "replace",
		"tool_input": map[string]any{"file_path": filepath.Join(root, "conftest.py")}}
	data, _ := json.Marshal(in)
	var out, errb bytes.Buffer
	Main([]string{"gemini", "AfterTool"}, bytes.NewReader(data), &out, &errb)
	if ctx := context(t, out.String()); !strings.Contains(ctx, "conftest fixtures") || strings.Contains(ctx, "<!--") {
		t.Errorf("gemini context: %q", ctx)
	}
	log, _ := os.ReadFile(filepath.Join(root, ".lore/cache/hook.log"))
	if !strings.Contains(string(log), `gemini AfterTool: <!-- lore {"injected":["01JCNFTEST000000000000000C"],"dropped":[]} -->`) {
		t.Errorf("hook.log = %q", log)
	}
	if errb.Len() > 0 {
		t.Errorf("stderr = %q", errb.String())
	}
}

// TestGeminiSubagentContext: Gemini's sub-agents send the parent's
// session_id and no agent_id; the calls between invoke_agent's BeforeTool
// and AfterTool are the sub-agent's own context, which gets a lesson the
// main thread already had, once; after AfterTool the main thread's dedup
// holds again.
func TestGeminiSubagentContext(t *testing.T) {
	root := repo(t, testItems)
	s := newSession(t)
	edit := map[string]any{"session_id": s, "cwd": root, "tool_name": "replace", "tool_input": map[string]any{"file_path": filepath.Join(root, "conftest.py")}}
	agent := map[string]any{"session_id": s, "cwd": root, "tool_name": "invoke_agent", "tool_input": map[string]any{"agent_name": "generalist", "prompt": "x"}}
	injected := func() bool {
		t.Helper()
		hook(t, "gemini", "BeforeTool", edit)
		return strings.Contains(hook(t, "gemini", "AfterTool", edit), "conftest fixtures")
	}
	if !injected() {
		t.Fatal("main thread: no lesson at its first matching call")
	}
	if injected() {
		t.Error("main thread: the lesson came twice")
	}
	hook(t, "gemini", "BeforeTool", agent)
	if !injected() {
		t.Error("sub-agent: no lesson in its own context")
	}
	if injected() {
		t.Error("sub-agent: the lesson came twice")
	}
	hook(t, "gemini", "AfterTool", agent)
	if injected() {
		t.Error("main thread after the sub-agent: the lesson came again")
	}
	hook(t, "gemini", "BeforeTool", agent)
	if !injected() {
		t.Error("a second sub-agent: no lesson in its own context")
	}
	// Its AfterTool never came (a killed call): clear forgets the marker.
	mark := openSession(s, "").main + ".subagent"
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("no marker while the sub-agent runs: %v", err)
	}
	hook(t, "gemini", "SessionStart", map[string]any{"session_id": s, "cwd": root, "source": "clear"})
	if _, err := os.Stat(mark); !os.IsNotExist(err) {
		t.Errorf("the sub-agent marker survived clear: %v", err)
	}
}

// stubLore puts a lore on PATH (and nothing else: shell built-ins only)
// that records its arguments; the returned function runs call and waits
// for the background lore it starts, returning its arguments.
func stubLore(t *testing.T) func(call func()) string {
	bin := t.TempDir()
	got := filepath.Join(bin, "args")
	script := "#!/bin/sh\necho \"$@\" > " + got + "\n"
	if err := os.WriteFile(filepath.Join(bin, "lore"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	return func(call func()) string {
		os.Remove(got)
		call()
		data := waitFile(got, func(data []byte) bool { return bytes.HasSuffix(data, []byte("\n")) })
		return string(data)
	}
}

// waitFile waits, up to 20 s, for the file at p to hold what done accepts,
// for work the hook leaves running in the background (not a timing
// assertion: the bound only stops a test that would wait forever). It
// returns what the file held last.
func waitFile(p string, done func([]byte) bool) []byte {
	var data []byte
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if data, _ = os.ReadFile(p); done(data) {
			break
		}
	}
	return data
}
