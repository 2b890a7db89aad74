package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// These tests drive the real lore binary (this test binary, on PATH as
// lore) and the real git CLI: whatever git command or editor changes
// .lore/, the next hook call answers from the current files. No git hook
// is installed, so nothing but the hook's own freshness check rebuilds.

const frobLesson = `---
id: 01JFR0B0000000000000000000
kind: lesson
title: frobnicate needs a dry run
status: active
priority: high
triggers:
  tools: [Bash]
  commands: ['\bfrobnicate\b']
---

## Mistake
Ran frobnicate for real.

## Fix
%s
`

const twiddleLesson = `---
id: 01JTW1DD1E0000000000000000
kind: lesson
title: twiddle needs a flag
status: active
priority: high
triggers:
  tools: [Bash]
  commands: ['\btwiddle\b']
---

## Mistake
Ran twiddle bare.

## Fix
%s
`

type gitRepo struct {
	*testrepo.Repo
	t    *testing.T
	home string
	env  []string // lore's: git's, an empty home, lore enabled
	n    int
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("these tests need the git CLI")
	}
	home := t.TempDir()
	r := &gitRepo{Repo: testrepo.New(t), t: t, home: home, env: append(testrepo.Env(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "LORE_DISABLE=")}
	r.lore("init", "--no-git-hooks")
	return r
}

// lore runs the lore binary in the repository.
func (r *gitRepo) lore(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("lore", args...)
	cmd.Dir, cmd.Env = r.Dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("lore %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// hook runs PreToolUse for a Bash command in a new session and returns
// what it injected or denied.
func (r *gitRepo) hook(command string) string {
	r.t.Helper()
	return r.hookTool("Bash", map[string]string{"command": command})
}

func (r *gitRepo) hookTool(tool string, input map[string]string) string {
	r.t.Helper()
	return r.event("PreToolUse", map[string]any{"tool_name": tool, "tool_input": input})
}

// prompt runs UserPromptSubmit in a new session and returns its answer.
func (r *gitRepo) prompt(text string) string {
	r.t.Helper()
	return r.event("UserPromptSubmit", map[string]any{"prompt": text})
}

// event runs the Claude Code hook of event with the fields of one call, in
// a new session, and returns its answer.
func (r *gitRepo) event(event string, fields map[string]any) string {
	r.t.Helper()
	r.n++
	fields["session_id"] = fmt.Sprintf("fresh-%s-%d-%d", r.t.Name(), os.Getpid(), r.n)
	fields["cwd"], fields["hook_event_name"] = r.Dir, event
	in, _ := json.Marshal(fields)
	cmd := exec.Command("lore", "hook", "claude", event)
	cmd.Dir, cmd.Env, cmd.Stdin = r.Dir, r.env, strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("hook: %v", err)
	}
	return string(out)
}

// expect checks that the call injects want (the fix of the current file)
// and none of the stale fixes.
func (r *gitRepo) expect(command, want string, stale ...string) {
	r.t.Helper()
	out := r.hook(command)
	if want != "" && !strings.Contains(out, want) {
		r.t.Errorf("%s: want %q in %s", command, want, out)
	}
	for _, s := range stale {
		if strings.Contains(out, s) {
			r.t.Errorf("%s: stale injection %q in %s", command, s, out)
		}
	}
}

// The fixes are all the same length, so an edit in place keeps the size.
const (
	v1 = "FIX-V1 run frobnicate --dry-run first."
	v2 = "FIX-V2 run frobnicate --dry-run first."
	v3 = "FIX-V3 run frobnicate --dry-run first."
	t1 = "TWIDDLE-X1 pass --gently."
	t2 = "TWIDDLE-X2 pass --gently."
)

func frob(fix string) string    { return fmt.Sprintf(frobLesson, fix) }
func twiddle(fix string) string { return fmt.Sprintf(twiddleLesson, fix) }

const frobFile, twiddleFile = ".lore/lessons/frob.md", ".lore/lessons/twiddle.md"

func TestFreshAfterAmend(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Commit("", "frob")
	r.expect("frobnicate all", v1)
	r.Git("rm", "-q", frobFile)
	r.Git("commit", "-q", "--amend", "--allow-empty", "-m", "no frob after all")
	r.expect("frobnicate all", "", v1)
}

// A lesson a person edits in place between turns (an editor that writes
// in place changes no folder) counts from the next prompt, even when
// only its new triggers match the call.
func TestFreshAfterInPlaceEditAtThePrompt(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Commit("", "frob")
	r.expect("frobnicate all", v1)
	r.Write(frobFile, strings.Replace(frob(v2), `'\bfrobnicate\b'`, `'\bfrob(nicate|ulate)\b'`, 1)) // os.WriteFile: same inode
	r.prompt("the deploy failed again, go on")
	r.expect("frobulate all", v2, v1)
}

func TestFreshAfterStash(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Commit("", "frob")
	r.expect("frobnicate all", v1)
	r.Write(frobFile, frob(v2)) // an edit in place, same size
	r.expect("frobnicate all", v2, v1)
	r.Git("stash", "-q")
	r.expect("frobnicate all", v1, v2)
	r.Git("stash", "pop", "-q")
	r.expect("frobnicate all", v2, v1)
}

func TestFreshAfterResetHard(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Commit("", "v1")
	r.Write(frobFile, frob(v2))
	r.Write(twiddleFile, twiddle(t1))
	r.Commit("", "v2")
	r.expect("frobnicate all", v2, v1)
	r.expect("twiddle it", t1)
	r.Git("reset", "-q", "--hard", "HEAD~1")
	r.expect("frobnicate all", v1, v2)
	r.expect("twiddle it", "", t1)
}

func TestFreshAfterCheckoutAndMerge(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Commit("", "v1")
	r.Git("checkout", "-q", "-b", "topic")
	r.Write(frobFile, frob(v2))
	r.Write(twiddleFile, twiddle(t1))
	r.Commit("", "v2")
	r.expect("frobnicate all", v2, v1)
	r.Git("checkout", "-q", "main")
	r.expect("frobnicate all", v1, v2)
	r.expect("twiddle it", "", t1)
	r.Write("README", "main moves on\n")
	r.Commit("", "readme")
	r.Git("merge", "-q", "--no-edit", "topic")
	r.expect("frobnicate all", v2, v1)
	r.expect("twiddle it", t1)
}

func TestFreshAfterRebase(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Write(twiddleFile, twiddle(t1))
	r.Commit("", "base")
	r.Git("checkout", "-q", "-b", "topic")
	r.Write(frobFile, frob(v2))
	r.Commit("", "frob v2")
	r.Git("checkout", "-q", "main")
	r.Write(twiddleFile, twiddle(t2))
	r.Commit("", "twiddle x2")
	r.Git("checkout", "-q", "topic")
	r.expect("twiddle it", t1, t2)
	r.Git("rebase", "-q", "main")
	r.expect("twiddle it", t2, t1)
	r.expect("frobnicate all", v2, v1)
}

func TestFreshAfterEditsOutsideGit(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Commit("", "v1")
	r.expect("frobnicate all", v1)

	// In place, as VS Code and nano write: same inode, same size.
	p := filepath.Join(r.Dir, frobFile)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(frob(v2))
	f.Close()
	r.expect("frobnicate all", v2, v1)

	// By rename, as vim, emacs and JetBrains write.
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(frob(v3)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	r.expect("frobnicate all", v3, v1, v2)

	// The agent edits a lesson in place so that it matches a new command:
	// the hook marked the Edit call, so the next call sees the change.
	r.expect("frizzlate all", "", v3)
	r.hookTool("Edit", map[string]string{"file_path": p, "old_string": "frobnicate", "new_string": "frizzlate"})
	f, err = os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Replace(frob(v3), `\bfrobnicate\b`, `\bfrizzlate\b`, 1))
	f.Close()
	r.expect("frizzlate all", v3)

	// The user's global store counts like the project's.
	r.expect("twiddle it", "", t1)
	g := filepath.Join(r.home, ".config", "lore", "lessons", "twiddle.md")
	if err := os.MkdirAll(filepath.Dir(g), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(g, []byte(twiddle(t1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r.expect("twiddle it", t1)
	if err := os.Remove(g); err != nil {
		t.Fatal(err)
	}
	r.expect("twiddle it", "", t1)

	// The config counts too: a higher threshold drops the lesson.
	r.Write(".lore/config.yaml", "inject:\n  threshold: 5\n")
	r.expect("frobnicate all", "", v3)
}

// lore commands that write items need no build of their own: the hook's
// freshness check sees what they wrote.
func TestFreshAfterLoreAdd(t *testing.T) {
	r := newGitRepo(t)
	r.Write(frobFile, frob(v1))
	r.Commit("", "v1")
	r.expect("frobnicate all", v1)
	r.expect("wibble now", "", "wibble")
	r.lore("add", "lesson", "wibble needs care", "--tools", "Bash", "--command", `\bwibble\b`, "--fix", "WIBBLE-FIX handle with care")
	r.expect("wibble now", "WIBBLE-FIX")
	if got := r.lore("build"); !strings.Contains(got, "is up to date") {
		t.Errorf("the hook left the manifest stale: %s", got)
	}
}
