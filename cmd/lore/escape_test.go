package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestNoWriteLeavesTheRepository runs every writing command, in order, in
// a copy of one repository for each placement of a symbolic link (or a
// config path) that points out of it, and after each command compares
// everything outside the repository with what was there before: no byte
// may change and no file may appear (docs/design.md, Reliability and security).
// The "none" placement is the control: there every command must succeed, so
// each is known to write. Session state (under $XDG_RUNTIME_DIR, here in the
// test's tmp folder) is outside by design and not compared.
func TestNoWriteLeavesTheRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite: every writing command for each link out of the repository; make test runs it")
	}
	lore, err := exec.LookPath("lore") // this test binary, put on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	base := escapeBase(t, lore)
	type placement struct {
		name  string
		apply func(repo, out string) error
	}
	placements := []placement{
		{"none", func(string, string) error { return nil }},
		{"cache folder linked, its logs linked to a file", func(repo, out string) error {
			return chain(
				func() error { return os.RemoveAll(filepath.Join(repo, ".lore/cache")) },
				func() error { return os.MkdirAll(filepath.Join(out, "cache"), 0o755) },
				func() error { return os.Symlink("../victim.txt", filepath.Join(out, "cache/githook.log")) },
				func() error { return os.Symlink("../victim.txt", filepath.Join(out, "cache/hook.log")) },
				func() error { return os.Symlink(filepath.Join(out, "cache"), filepath.Join(repo, ".lore/cache")) },
			)
		}},
		{"logs, manifest and lock linked in a real cache", func(repo, out string) error {
			var steps []func() error
			for _, name := range []string{"githook.log", "hook.log", "manifest", "manifest.stamp", "write.lock", "scan.lock", "scan.log"} {
				p := filepath.Join(repo, ".lore/cache", name)
				steps = append(steps, func() error { return os.RemoveAll(p) }, func() error { return os.Symlink(filepath.Join(out, "victim.txt"), p) })
			}
			return chain(steps...)
		}},
		{"local folder linked", func(repo, out string) error {
			return chain(
				func() error { return os.MkdirAll(filepath.Join(out, "local"), 0o755) },
				func() error { return os.RemoveAll(filepath.Join(repo, ".lore/local")) },
				func() error { return os.Symlink(filepath.Join(out, "local"), filepath.Join(repo, ".lore/local")) },
			)
		}},
		{"kind folders linked", func(repo, out string) error {
			var steps []func() error
			for _, kind := range []string{"lessons", "pitfalls", "decisions"} {
				in, o := filepath.Join(repo, ".lore", kind), filepath.Join(out, kind)
				steps = append(steps, func() error { return os.MkdirAll(in, 0o755) }, func() error { return os.Rename(in, o) },
					func() error { return os.Symlink(o, in) })
			}
			return chain(steps...)
		}},
		{"item linked", func(repo, out string) error {
			in, o := filepath.Join(repo, ".lore/lessons/lookahead.md"), filepath.Join(out, "lookahead.md")
			return chain(func() error { return os.Rename(in, o) }, func() error { return os.Symlink(o, in) })
		}},
		{"learnings file linked", func(repo, out string) error {
			in, o := filepath.Join(repo, ".lore/learnings.md"), filepath.Join(out, "learnings.md")
			return chain(func() error { return os.Rename(in, o) }, func() error { return os.Symlink(o, in) })
		}},
		// The target holds a .git: a walk up from the file must not take it
		// for the work tree.
		{"whole .lore linked to a repository", func(repo, out string) error {
			in, o := filepath.Join(repo, ".lore"), filepath.Join(out, "lore")
			return chain(func() error { return os.Rename(in, o) }, func() error { return os.Symlink(o, in) },
				func() error { return os.Mkdir(filepath.Join(o, ".git"), 0o755) },
				func() error { return os.Mkdir(filepath.Join(o, "cache", ".git"), 0o755) })
		}},
		{"agent settings folder linked", func(repo, out string) error {
			return chain(
				func() error { return os.MkdirAll(filepath.Join(out, "claude", "commands"), 0o755) },
				func() error {
					return os.WriteFile(filepath.Join(out, "claude", "settings.json"), []byte("{}\n"), 0o644)
				},
				func() error { return os.Symlink(filepath.Join(out, "claude"), filepath.Join(repo, ".claude")) },
			)
		}},
		// Export targets: an instruction file linked to a file outside, a
		// rule folder (and the folder above it) linked to one that holds a
		// stale rule lore exported, which an export would remove.
		{"AGENTS.md linked to a file", func(repo, out string) error {
			return os.Symlink(filepath.Join(out, "victim.txt"), filepath.Join(repo, "AGENTS.md"))
		}},
		{".cursor/rules linked to a folder", func(repo, out string) error {
			return chain(
				func() error { return os.MkdirAll(filepath.Join(out, "rules"), 0o755) },
				func() error {
					return os.WriteFile(filepath.Join(out, "rules", "lore-stale.mdc"), []byte(escapeStaleRule), 0o644)
				},
				func() error { return os.MkdirAll(filepath.Join(repo, ".cursor"), 0o755) },
				func() error { return os.Symlink(filepath.Join(out, "rules"), filepath.Join(repo, ".cursor/rules")) },
			)
		}},
		{".cursor linked to a folder", func(repo, out string) error {
			return chain(
				func() error { return os.MkdirAll(filepath.Join(out, "cursor", "rules"), 0o755) },
				func() error {
					return os.WriteFile(filepath.Join(out, "cursor", "rules", "lore-stale.mdc"), []byte(escapeStaleRule), 0o644)
				},
				func() error { return os.Symlink(filepath.Join(out, "cursor"), filepath.Join(repo, ".cursor")) },
			)
		}},
		{"config paths out of the work tree", func(repo, out string) error {
			return os.WriteFile(filepath.Join(repo, ".lore/config.yaml"), []byte(
				"learnings: ../escape/learnings.md\nconsolidate:\n  report: ../escape/report.md\n  routes:\n    - match: lint\n      target: ../escape/topic.md\n"), 0o644)
		}},
		{"config path through a linked folder", func(repo, out string) error {
			return chain(
				func() error { return os.MkdirAll(filepath.Join(out, "docs"), 0o755) },
				func() error {
					return os.Rename(filepath.Join(repo, ".lore/learnings.md"), filepath.Join(out, "docs/learnings.md"))
				},
				func() error { return os.Symlink(filepath.Join(out, "docs"), filepath.Join(repo, "docs")) },
				func() error {
					return os.WriteFile(filepath.Join(repo, ".lore/config.yaml"), []byte("learnings: docs/learnings.md\n"), 0o644)
				},
			)
		}},
	}
	steps := escapeSteps()
	escapes, runs := 0, 0
	for _, p := range placements {
		t.Run(p.name, func(t *testing.T) {
			top := t.TempDir()
			repo, out := filepath.Join(top, "repo"), filepath.Join(top, "outside")
			if err := os.CopyFS(repo, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			if err := chain(
				func() error { return os.MkdirAll(out, 0o755) },
				func() error { return os.MkdirAll(filepath.Join(top, "tmp"), 0o700) }, // the hooks' state folder
				func() error { return os.WriteFile(filepath.Join(out, "victim.txt"), []byte("keep me\n"), 0o644) },
				func() error {
					return os.WriteFile(filepath.Join(top, "session.jsonl"), []byte(escapeTranscript), 0o644)
				},
				func() error { return p.apply(repo, out) },
			); err != nil {
				t.Fatal(err)
			}
			env := escapeEnv(top)
			before := treeFiles(t, top, "repo", "tmp")
			var idle []string // control steps that changed no file of the repository
			for _, st := range steps {
				runs++
				inside := treeFiles(t, repo, ".git")
				err := st.run(lore, repo, top, env)
				if p.name == "none" {
					if err != nil {
						t.Errorf("%s: %v", st.name, err)
					}
					if diffFiles(inside, treeFiles(t, repo, ".git")) == "" {
						idle = append(idle, st.name)
					}
				}
				after := treeFiles(t, top, "repo", "tmp")
				if d := diffFiles(before, after); d != "" {
					escapes++
					t.Errorf("%s wrote outside the repository:\n%s", st.name, d)
					before = after
				}
			}
			if p.name == "none" {
				t.Logf("control: %d of %d commands wrote in the repository; no write: %q", len(steps)-len(idle), len(steps), idle)
			}
		})
	}
	t.Logf("%d commands x %d placements = %d runs: %d wrote outside the repository", len(steps), len(placements), runs, escapes)
}

func chain(steps ...func() error) error {
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

type escapeStep struct {
	name  string
	args  []string // lore's arguments; "git" or "sh" first runs that instead
	stdin string
}

func (s escapeStep) run(lore, repo, top string, env []string) error {
	name, args := lore, make([]string, 0, len(s.args))
	for _, a := range s.args {
		args = append(args, strings.ReplaceAll(a, "$TOP", top))
	}
	if args[0] == "git" || args[0] == "sh" {
		name, args = args[0], args[1:]
	}
	// A command stuck on a lock taken through a link fails, not hangs.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = repo, env, strings.NewReader(s.stdin)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, b)
	}
	return nil
}

// escapeSteps are lore's writing commands, each set up to write.
func escapeSteps() []escapeStep {
	return []escapeStep{
		{name: "init", args: []string{"init"}},
		{name: "init --agent", args: []string{"init", "--agent", "claude"}},
		{name: "add lesson", args: []string{"add", "lesson", "Run the linter first", "--fix", "Run make lint.", "--tools", "Bash", "--command", `^make\b`}},
		{name: "add pitfall", args: []string{"add", "pitfall", "Flaky network tests", "--issue", "They flake on CI.", "--avoid", "Tag them."}},
		{name: "add decision", args: []string{"add", "decision", "Use SQLite for the cache", "--context", "One file.", "--decision", "SQLite."}},
		{name: "add learning", args: []string{"add", "learning", "Cache modules", "--body", "Cache go modules in CI."}},
		{name: "learn", args: []string{"learn", "--key", "phase-9"}, stdin: "# Phase 9\n\n## Learnings\n\n- Run the integration tests before the watcher starts.\n"},
		{name: "lint --fix", args: []string{"lint", "--fix"}},
		{name: "promote", args: []string{"promote", "draft-one"}},
		{name: "reject", args: []string{"reject", "draft-two"}},
		{name: "archive", args: []string{"archive", "pytest-hangs"}},
		{name: "scan", args: []string{"scan", "$TOP/session.jsonl"}},
		{name: "consolidate", args: []string{"consolidate", "--today", "2026-01-25"}},
		{name: "observe", args: []string{"observe", "pitfall", "npm ci wipes node_modules", "--count", "2", "--at", "2026-03-01", "--details", "Use npm install in a dev shell."}},
		{name: "render", args: []string{"render"}},
		{name: "reconcile", args: []string{"reconcile"}},
		{name: "signal", args: []string{"signal", "emit", "FEEDBACK", "twenty characters or more"}},
		{name: "aggregate", args: []string{"aggregate"}},
		{name: "import", args: []string{"import", "adr"}},
		{name: "export agents", args: []string{"export", "agents"}},
		{name: "export cursor", args: []string{"export", "cursor"}},
		{name: "build", args: []string{"build", "--force"}},
		// A broken manifest makes the hook log (unless the test's own write
		// would go through a link).
		{name: "lore-hook (hook.log)", args: []string{"sh", "-c", "[ -L .lore ] || [ -L .lore/cache ] || [ -L .lore/cache/manifest ] || printf broken >.lore/cache/manifest; lore hook claude PreToolUse"},
			stdin: `{"session_id":"s-1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make"}}`},
		{name: "git add", args: []string{"git", "add", "-A"}},
		{name: "post-commit (githook.log)", args: []string{"git", "commit", "-q", "--allow-empty", "-m", "work"}},
	}
}

// escapeBase builds the repository every placement copies: lore's git
// hooks, a lesson lint --fix rewrites, and learnings old enough (in git
// active days) for consolidate to move.
func escapeBase(t *testing.T, lore string) string {
	t.Helper()
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	env := append(escapeEnv(top), "LORE_DISABLE=1")
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, env
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, b)
		}
	}
	commit := func(day int) {
		date := fmt.Sprintf("GIT_AUTHOR_DATE=2026-01-%02dT12:00:00Z", day)
		env = append(env, date, "GIT_COMMITTER_"+strings.TrimPrefix(date, "GIT_AUTHOR_"))
		run("git", "add", "-A")
		run("git", "commit", "-q", "--allow-empty", "-m", "work")
		env = env[:len(env)-2]
	}
	if err := chain(
		func() error { return os.MkdirAll(repo, 0o755) },
		func() error { return os.MkdirAll(filepath.Join(top, "home"), 0o755) },
	); err != nil {
		t.Fatal(err)
	}
	run("git", "init", "-q", "-b", "main")
	run(lore, "init")
	for name, data := range map[string]string{
		"lookahead.md":    escapeLookahead,
		"draft-one.md":    escapeLesson("01JQXYZ8K2M4N6P8Q0R2S4T6V1", "Draft one", "draft"),
		"draft-two.md":    escapeLesson("01JQXYZ8K2M4N6P8Q0R2S4T6V2", "Draft two", "draft"),
		"pytest-hangs.md": escapeLesson("01JQXYZ8K2M4N6P8Q0R2S4T6V3", "pytest hangs", "active"),
	} {
		if err := os.WriteFile(filepath.Join(repo, ".lore/lessons", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(repo, "doc/adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"0001-record-architecture-decisions.md": escapeADR(1, "Record architecture decisions"),
		"0002-keep-the-cache-in-files.md": escapeADR(2, "Keep the cache in files")} {
		if err := os.WriteFile(filepath.Join(repo, "doc/adr", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, title := range []string{"Lint before commit", "Flaky network tests", "Deploy docs"} {
		run(lore, "add", "learning", title, "--body", title+": seen in this repository's CI runs.")
	}
	for day := 1; day <= 20; day++ {
		commit(day)
	}
	run(lore, "build")
	return repo
}

const escapeLookahead = `---
id: 01JQXYZ8K2M4N6P8Q0R2S4T6V8
kind: lesson
title: pytest hangs without a TTY
status: active
priority: high
triggers:
  tools: [Bash]
  commands: ['\bpytest\b(?!.*(--no-header|TERM=dumb))']
---

## Fix
Use ` + "`TERM=dumb pytest`" + `.
`

func escapeLesson(id, title, status string) string {
	return "---\nid: " + id + "\nkind: lesson\ntitle: " + title + "\nstatus: " + status + "\ntriggers:\n  tools: [Bash]\n  commands: ['^make\\b']\n---\n\n## Fix\nRun make lint first.\n"
}

func escapeADR(n int, title string) string {
	return fmt.Sprintf("# %d. %s\n\nDate: 2026-01-05\n\n## Status\n\nAccepted\n\n## Context\n\nWhy %d.\n\n## Decision\n\n%s.\n", n, title, n, title)
}

// escapeStaleRule is a rule an earlier export wrote for an item that is
// gone: an export removes it, unless it sits through a link.
const escapeStaleRule = "---\ndescription: \"Stale\"\nalwaysApply: true\n---\n# Stale\n<!-- lore:item 01JQXYZ8K2M4N6P8Q0R2S4T6Z9 -->\n"

const escapeTranscript = `{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"text","text":"Noting it:\n\n#lesson\ntool: Bash\ntrigger: pytest -v tests/\nmistake: pytest hangs without a TTY in the agent shell\nfix: run python -m pytest\n#/lesson"}]}}
`

func escapeEnv(top string) []string {
	home := filepath.Join(top, "home")
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"TMPDIR=" + filepath.Join(top, "tmp"), "XDG_RUNTIME_DIR=" + filepath.Join(top, "tmp"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Lore Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Lore Test", "GIT_COMMITTER_EMAIL=test@example.com",
		"LORE_GITHOOK_SYNC=1", "TZ=UTC", "EDITOR=false",
	}
}

// treeFiles maps every path under top, except the skipped top-level
// names, to its content (a link to its target, a folder to "/").
func treeFiles(t *testing.T, top string, skip ...string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, p)
		switch {
		case slices.Contains(skip, rel):
			return filepath.SkipDir
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			files[rel] = "-> " + target
			return err
		case d.IsDir():
			files[rel] = "/"
		default:
			data, err := os.ReadFile(p)
			files[rel] = string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func diffFiles(before, after map[string]string) string {
	var b bytes.Buffer
	var keys []string
	for k := range after {
		keys = append(keys, k)
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		old, had := before[k]
		now, has := after[k]
		switch {
		case !had:
			fmt.Fprintf(&b, "  new %s\n", k)
		case !has:
			fmt.Fprintf(&b, "  removed %s\n", k)
		case old != now:
			fmt.Fprintf(&b, "  changed %s: %q -> %q\n", k, firstN(old), firstN(now))
		}
	}
	return b.String()
}

func firstN(s string) string { return s[:min(len(s), 60)] }
