package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	t         *testing.T
	dir, home string
	env       []string
	n         int
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("these tests need the git CLI")
	}
	home := t.TempDir()
	r := &gitRepo{t: t, dir: t.TempDir(), home: home, env: append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Lore Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Lore Test", "GIT_COMMITTER_EMAIL=test@example.com", "LORE_DISABLE=")}
	r.run("git", "init", "-q", "-b", "main")
	r.run("lore", "init", "--no-git-hooks")
	return r
}

func (r *gitRepo) run(name string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (r *gitRepo) write(rel, text string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *gitRepo) commit(msg string) {
	r.t.Helper()
	r.run("git", "add", "-A")
	r.run("git", "commit", "-q", "-m", msg)
}

// hook runs PreToolUse for a Bash command in a new session and returns
// what it injected or denied.
func (r *gitRepo) hook(command string) string {
	r.t.Helper()
	return r.hookTool("Bash", map[string]string{"command": command})
}

func (r *gitRepo) hookTool(tool string, input map[string]string) string {
	r.t.Helper()
	r.n++
	in, _ := json.Marshal(map[string]any{
		"session_id": fmt.Sprintf("fresh-%s-%d-%d", r.t.Name(), os.Getpid(), r.n), "cwd": r.dir,
		"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
	})
	cmd := exec.Command("lore", "hook", "claude", "PreToolUse")
	cmd.Dir, cmd.Env, cmd.Stdin = r.dir, r.env, strings.NewReader(string(in))
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
	r.write(frobFile, frob(v1))
	r.commit("frob")
	r.expect("frobnicate all", v1)
	r.run("git", "rm", "-q", frobFile)
	r.run("git", "commit", "-q", "--amend", "--allow-empty", "-m", "no frob after all")
	r.expect("frobnicate all", "", v1)
}

func TestFreshAfterStash(t *testing.T) {
	r := newGitRepo(t)
	r.write(frobFile, frob(v1))
	r.commit("frob")
	r.expect("frobnicate all", v1)
	r.write(frobFile, frob(v2)) // an edit in place, same size
	r.expect("frobnicate all", v2, v1)
	r.run("git", "stash", "-q")
	r.expect("frobnicate all", v1, v2)
	r.run("git", "stash", "pop", "-q")
	r.expect("frobnicate all", v2, v1)
}

func TestFreshAfterResetHard(t *testing.T) {
	r := newGitRepo(t)
	r.write(frobFile, frob(v1))
	r.commit("v1")
	r.write(frobFile, frob(v2))
	r.write(twiddleFile, twiddle(t1))
	r.commit("v2")
	r.expect("frobnicate all", v2, v1)
	r.expect("twiddle it", t1)
	r.run("git", "reset", "-q", "--hard", "HEAD~1")
	r.expect("frobnicate all", v1, v2)
	r.expect("twiddle it", "", t1)
}

func TestFreshAfterCheckoutAndMerge(t *testing.T) {
	r := newGitRepo(t)
	r.write(frobFile, frob(v1))
	r.commit("v1")
	r.run("git", "checkout", "-q", "-b", "topic")
	r.write(frobFile, frob(v2))
	r.write(twiddleFile, twiddle(t1))
	r.commit("v2")
	r.expect("frobnicate all", v2, v1)
	r.run("git", "checkout", "-q", "main")
	r.expect("frobnicate all", v1, v2)
	r.expect("twiddle it", "", t1)
	r.write("README", "main moves on\n")
	r.commit("readme")
	r.run("git", "merge", "-q", "--no-edit", "topic")
	r.expect("frobnicate all", v2, v1)
	r.expect("twiddle it", t1)
}

func TestFreshAfterRebase(t *testing.T) {
	r := newGitRepo(t)
	r.write(frobFile, frob(v1))
	r.write(twiddleFile, twiddle(t1))
	r.commit("base")
	r.run("git", "checkout", "-q", "-b", "topic")
	r.write(frobFile, frob(v2))
	r.commit("frob v2")
	r.run("git", "checkout", "-q", "main")
	r.write(twiddleFile, twiddle(t2))
	r.commit("twiddle x2")
	r.run("git", "checkout", "-q", "topic")
	r.expect("twiddle it", t1, t2)
	r.run("git", "rebase", "-q", "main")
	r.expect("twiddle it", t2, t1)
	r.expect("frobnicate all", v2, v1)
}

func TestFreshAfterEditsOutsideGit(t *testing.T) {
	r := newGitRepo(t)
	r.write(frobFile, frob(v1))
	r.commit("v1")
	r.expect("frobnicate all", v1)

	// In place, as VS Code and nano write: same inode, same size.
	p := filepath.Join(r.dir, frobFile)
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
	r.write(".lore/config.yaml", "inject:\n  threshold: 5\n")
	r.expect("frobnicate all", "", v3)
}

// lore commands that write items need no build of their own: the hook's
// freshness check sees what they wrote.
func TestFreshAfterLoreAdd(t *testing.T) {
	r := newGitRepo(t)
	r.write(frobFile, frob(v1))
	r.commit("v1")
	r.expect("frobnicate all", v1)
	r.expect("wibble now", "", "wibble")
	r.run("lore", "add", "lesson", "wibble needs care", "--tools", "Bash", "--command", `\bwibble\b`, "--fix", "WIBBLE-FIX handle with care")
	r.expect("wibble now", "WIBBLE-FIX")
	if got := r.run("lore", "build"); !strings.Contains(got, "is up to date") {
		t.Errorf("the hook left the manifest stale: %s", got)
	}
}
