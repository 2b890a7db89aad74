package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/lore-agents/lore/gitstore"
)

// File is a file lore installs for an agent, relative to the work tree.
type File struct {
	Path    string
	Content string
}

// SettingsPath is Claude Code's project settings file.
const SettingsPath = ".claude/settings.json"

// ClaudeCommands are the slash commands `lore init --agent claude` installs.
var ClaudeCommands = []File{
	{".claude/commands/lore-scan.md", `---
description: Scan this session's transcripts for lessons and list the new drafts
allowed-tools: Bash(lore scan:*), Bash(lore review:*)
---
Run ` + "`lore scan`" + ` in this repository, then ` + "`lore review`" + `.
Summarize each new draft lesson in one line (title, trigger, fix) and ask which ones to promote.
Promote the ones the user accepts with ` + "`lore promote <id>`" + ` and archive the rest with ` + "`lore archive <id>`" + `.
`},
	{".claude/commands/lore-add.md", `---
description: Record a lesson (mistake and fix) in this repository's lore
argument-hint: <what went wrong and what fixed it>
allowed-tools: Bash(lore add:*), Bash(lore lint:*), Bash(lore build:*)
---
Turn this into one lore lesson: $ARGUMENTS

Pick a one-line title, the tool (Bash, Edit, ...), a trigger (an RE2 regex over the command, or a
path glob), the mistake and the fix. Add it with ` + "`lore add lesson`" + ` (see ` + "`lore add --help`" + `),
then run ` + "`lore lint`" + ` and ` + "`lore build`" + ` and show the user the new file.
`},
	{".claude/commands/lore-review.md", `---
description: Review draft lessons waiting in this repository's lore
allowed-tools: Bash(lore review:*), Bash(lore show:*), Bash(lore promote:*), Bash(lore archive:*)
---
Run ` + "`lore review`" + `. For each draft, show its title, trigger and fix, say whether the trigger
looks too broad or too narrow, and ask the user to promote (` + "`lore promote <id>`" + `), edit or
archive (` + "`lore archive <id>`" + `) it.
`},
	{".claude/commands/lore-handoff.md", `---
description: Handoff step - consolidate this repository's learnings.md when it is due
allowed-tools: Bash(lore handoff:*), Bash(lore ages:*), Bash(cat tmp/consolidation-report.md), Bash(cat tmp/consolidation-task.md)
---
Run ` + "`lore handoff`" + ` as the last step of a handoff. It never fails.
- If it prints ` + "`Consolidation skipped: <reason>`" + `, report the reason in one line and stop.
- If it consolidated, summarize ` + "`tmp/consolidation-report.md`" + ` (what moved where, what was dropped or
  escalated and why) and remind the user to commit ` + "`.lore/`" + `: that commit anchors the next staleness count.
- To consolidate by meaning instead, run ` + "`lore handoff --agent`" + ` and give ` + "`tmp/consolidation-task.md`" + `
  to the ` + "`lore-remember-task`" + ` sub-agent; if a target document is over the file limit, give it to
  ` + "`lore-memory-refactor`" + `.
`},
}

// InstallClaude merges lore's hooks into .claude/settings.json and writes
// the slash commands and extra files (e.g. consolidation sub-agents) that
// are missing. A file that exists with other content is the user's: it is
// kept and reported. command(event) is the hook command line.
func InstallClaude(root string, command func(event string) string, extra []File, w io.Writer) error {
	path := filepath.Join(root, filepath.FromSlash(SettingsPath))
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("agent: %w", err)
	}
	data, err := MergeClaude(old, command)
	if err != nil {
		return err
	}
	if !bytes.Equal(old, data) {
		if err := writeFile(path, data); err != nil {
			return err
		}
		fmt.Fprintf(w, "updated %s (lore hooks: %d events)\n", SettingsPath, len(ClaudeEvents))
	}
	for _, f := range files(extra) {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		cur, err := os.ReadFile(p)
		switch {
		case err == nil && string(cur) == f.Content:
			continue
		case err == nil:
			fmt.Fprintf(w, "kept %s (it differs from lore's; remove it to get lore's)\n", f.Path)
			continue
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("agent: %w", err)
		}
		if err := writeFile(p, []byte(f.Content)); err != nil {
			return err
		}
		fmt.Fprintf(w, "created %s\n", f.Path)
	}
	return nil
}

// UninstallClaude removes exactly what InstallClaude added: lore's hook
// entries (the file goes when nothing else is left in it) and the files
// whose content is still lore's.
func UninstallClaude(root string, extra []File, w io.Writer) error {
	path := filepath.Join(root, filepath.FromSlash(SettingsPath))
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("agent: %w", err)
	default:
		data, empty, err := UnmergeClaude(old)
		if err != nil {
			return err
		}
		switch {
		case empty:
			if err := gitstore.Remove(path); err != nil {
				return fmt.Errorf("agent: %w", err)
			}
			fmt.Fprintf(w, "removed %s\n", SettingsPath)
		case !bytes.Equal(old, data):
			if err := writeFile(path, data); err != nil {
				return err
			}
			fmt.Fprintf(w, "updated %s (lore hooks removed)\n", SettingsPath)
		}
	}
	for _, f := range files(extra) {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		cur, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if string(cur) != f.Content {
			fmt.Fprintf(w, "kept %s (edited since lore installed it)\n", f.Path)
			continue
		}
		if err := gitstore.Remove(p); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
		fmt.Fprintf(w, "removed %s\n", f.Path)
		removeEmptyDirs(root, filepath.Dir(p))
	}
	return nil
}

func files(extra []File) []File {
	all := append(append([]File{}, ClaudeCommands...), extra...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	return all
}

// removeEmptyDirs removes dir and its parents up to (not including) root
// while they are empty: the folders lore created for its files.
func removeEmptyDirs(root, dir string) {
	root = filepath.Clean(root)
	for dir != root && len(dir) > len(root) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// writeFile writes atomically: temp file, fsync, rename; never through a
// link inside the work tree (a committed .claude -> elsewhere).
func writeFile(path string, data []byte) error {
	if err := gitstore.NoSymlink(path); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("agent: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("agent: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("agent: write %s: %w", path, err)
	}
	return nil
}

// HookCommand returns the command line for an event: the lean lore-hook
// when it sits next to lore (by name when that folder is on PATH, so a
// committed settings.json works for teammates; else by absolute path),
// otherwise `lore hook`.
func HookCommand(loreExe string, lookPath func(string) (string, error)) func(event string) string {
	dir := filepath.Dir(loreExe)
	hookExe := filepath.Join(dir, "lore-hook")
	if filepath.Ext(loreExe) == ".exe" {
		hookExe += ".exe"
	}
	onPath := func(name, want string) bool {
		p, err := lookPath(name)
		if err != nil {
			return false
		}
		a, err1 := filepath.EvalSymlinks(p)
		b, err2 := filepath.EvalSymlinks(want)
		return err1 == nil && err2 == nil && a == b
	}
	var prefix string
	switch {
	case isFile(hookExe) && onPath("lore-hook", hookExe):
		prefix = "lore-hook claude "
	case isFile(hookExe):
		prefix = quote(hookExe) + " claude "
	case onPath("lore", loreExe) || loreExe == "":
		prefix = "lore hook claude "
	default:
		prefix = quote(loreExe) + " hook claude "
	}
	return func(event string) string { return prefix + event }
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// quote wraps a path with spaces for the shell Claude Code runs hooks in.
func quote(p string) string {
	for _, r := range p {
		if r == ' ' || r == '\'' || r == '"' {
			return `"` + p + `"`
		}
	}
	return p
}
