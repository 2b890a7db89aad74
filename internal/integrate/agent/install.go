package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/filewrite"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// File is a file lore installs for an agent, relative to the work tree.
type File struct {
	Path    string
	Content string
}

// ClaudeCommands are the slash commands `lore init --agent claude` installs.
var ClaudeCommands = []File{
	{".claude/commands/lore-scan.md", `---
description: Scan this session's transcripts for lessons and list the new drafts
allowed-tools: Bash(lore scan:*), Bash(lore review:*)
---
Run ` + "`lore scan`" + ` in this repository, then ` + "`lore review`" + `.
Summarize each new draft lesson in one line (title, trigger, fix) and ask which ones to promote.
Promote the ones the user accepts with ` + "`lore promote <id>`" + ` and archive the rest with ` + "`lore archive <id>`" + `.
Tell the user what ` + "`lore promote`" + ` printed: a priority it raised so the lesson can fire, or why it refused.
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
archive (` + "`lore archive <id>`" + `) it. Tell the user what ` + "`lore promote`" + ` printed: a priority it raised so
the lesson can fire, or why it refused.
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

// GeminiCommands are the custom commands `lore init --agent gemini`
// installs (.gemini/commands/*.toml: description, prompt, {{args}}).
var GeminiCommands = []File{
	{".gemini/commands/lore-scan.toml", `description = "Scan this session's transcripts for lessons and list the new drafts"
prompt = """
Run ` + "`lore scan`" + ` in this repository, then ` + "`lore review`" + `.
Summarize each new draft lesson in one line (title, trigger, fix) and ask which ones to promote.
Promote the ones the user accepts with ` + "`lore promote <id>`" + ` and archive the rest with ` + "`lore archive <id>`" + `.
Tell the user what ` + "`lore promote`" + ` printed: a priority it raised so the lesson can fire, or why it refused.
"""
`},
	{".gemini/commands/lore-add.toml", `description = "Record a lesson (mistake and fix) in this repository's lore"
prompt = """
Turn this into one lore lesson: {{args}}

Pick a one-line title, the tool (Bash, Edit, ...), a trigger (an RE2 regex over the command, or a
path glob), the mistake and the fix. Add it with ` + "`lore add lesson`" + ` (see ` + "`lore add --help`" + `),
then run ` + "`lore lint`" + ` and ` + "`lore build`" + ` and show the user the new file.
"""
`},
	{".gemini/commands/lore-review.toml", `description = "Review draft lessons waiting in this repository's lore"
prompt = """
Run ` + "`lore review`" + `. For each draft, show its title, trigger and fix, say whether the trigger
looks too broad or too narrow, and ask the user to promote (` + "`lore promote <id>`" + `), edit or
archive (` + "`lore archive <id>`" + `) it. Tell the user what ` + "`lore promote`" + ` printed: a priority it raised so
the lesson can fire, or why it refused.
"""
`},
}

// Guards is what lore's deny guard does when its hook cannot run.
type Guards string

const (
	GuardsKeep   Guards = ""       // as registered now; open for a new registration
	GuardsOpen   Guards = "open"   // the call goes ahead
	GuardsClosed Guards = "closed" // the call is blocked (agents that offer it)
)

// Options are what an install may vary.
type Options struct {
	Guards Guards
	Extra  []File // more files to install (Claude Code's consolidation sub-agents)
}

// Step is one thing an install or uninstall did to a file (Did: created,
// updated, removed, kept; Path; Why, when there is more to say), or a note
// for the user (Did: note, trust, guards fail closed; Why: the note). The
// command line prints one line each.
type Step struct {
	Did, Path, Why string
}

// steps collects what an install or uninstall did, in order.
type steps []Step

func (l *steps) did(did, path, why string) { *l = append(*l, Step{Did: did, Path: path, Why: why}) }
func (l *steps) note(label, note string)   { *l = append(*l, Step{Did: label, Why: note}) }

// Install merges lore's hooks into the agent's hooks file (unless they are
// current), writes the missing command files, and returns what changed
// and the trust step the agent needs (what it did so far on an error).
func (a *Agent) Install(root string, o Options) ([]Step, error) {
	var log steps
	err := a.install(root, o, &log)
	return log, err
}

func (a *Agent) install(root string, o Options, log *steps) error {
	path := filepath.Join(root, filepath.FromSlash(a.Settings))
	old, err := readFile(path)
	if err != nil {
		return err
	}
	reg, err := a.Status(old)
	if err != nil {
		return err
	}
	closed := a.failClosed(reg, o.Guards, log)
	if reg.State != Current || reg.Closed != closed {
		if err := a.register(path, old, closed, log); err != nil {
			return err
		}
	}
	if closed {
		log.note("guards fail closed", a.Title+" blocks every tool call while lore-hook cannot run (needs Claude Code 2.1.295 or later)")
	}
	if err := installFiles(root, a.files(o.Extra), log); err != nil {
		return err
	}
	if a.NoCommands != "" {
		log.note("note", a.NoCommands)
	}
	if a.Trust != "" {
		log.note("trust", a.Trust)
	}
	return nil
}

// failClosed says whether the guards are to fail closed: as asked, else
// as registered.
func (a *Agent) failClosed(reg Registration, g Guards, log *steps) bool {
	switch g {
	case GuardsOpen:
		return false
	case GuardsClosed:
		if !a.CanFailClosed {
			log.note("note", a.Title+" has no way to block a call when a hook cannot run: its guards fail open")
		}
		return a.CanFailClosed
	}
	return reg.Closed
}

// register writes lore's hooks into the hooks file at path (old: its
// bytes, nil when absent).
func (a *Agent) register(path string, old []byte, closed bool, log *steps) error {
	data, err := a.Merge(old, closed)
	if err != nil {
		return err
	}
	if err := writeFile(path, data); err != nil {
		return err
	}
	verb := "updated"
	if old == nil {
		verb = "created"
	}
	log.did(verb, a.Settings, "lore hooks: "+strings.Join(a.Events(), ", "))
	return nil
}

// PathProblem says what the registered commands will run into on this
// machine's PATH, or "" when lore-hook is there. lookPath is exec.LookPath.
func PathProblem(lookPath func(string) (string, error)) string {
	if _, err := lookPath("lore-hook"); err == nil {
		return ""
	}
	if _, err := lookPath("lore"); err == nil {
		return "lore-hook is not on PATH: the hooks run the slower `lore hook` until it is (make install, or go install .../cmd/lore-hook)"
	}
	return "neither lore-hook nor lore is on PATH: the hooks answer {} (no lessons, no guards) until one is; see lore doctor"
}

func installFiles(root string, fs []File, log *steps) error {
	for _, f := range fs {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		cur, err := readFile(p)
		switch {
		case err != nil:
			return err
		case cur == nil:
		case string(cur) == f.Content:
			continue
		default:
			log.did("kept", f.Path, "it differs from lore's; remove it to get lore's")
			continue
		}
		if err := writeFile(p, []byte(f.Content)); err != nil {
			return err
		}
		log.did("created", f.Path, "")
	}
	return nil
}

// Uninstall removes exactly what Install added: lore's hook entries and
// the containers lore created for them (the file and its folder when lore
// created them and nothing else is left), and the command files whose
// content is still lore's. It returns what it did (so far, on an error).
func (a *Agent) Uninstall(root string, extra []File) ([]Step, error) {
	var log steps
	err := a.uninstall(root, extra, &log)
	return log, err
}

func (a *Agent) uninstall(root string, extra []File, log *steps) error {
	path := filepath.Join(root, filepath.FromSlash(a.Settings))
	old, err := readFile(path)
	if err != nil {
		return err
	}
	if old != nil {
		if err := a.unregister(root, path, old, log); err != nil {
			return err
		}
	}
	for _, f := range a.files(extra) {
		if err := removeFile(root, f, log); err != nil {
			return err
		}
	}
	return nil
}

// unregister removes lore's hooks from the hooks file at path, and the
// file and its folders when nothing else is left.
func (a *Agent) unregister(root, path string, old []byte, log *steps) error {
	data, err := a.Unmerge(old)
	if err != nil {
		return err
	}
	switch {
	case Empty(data):
		if err := gitstore.Remove(path); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
		log.did("removed", a.Settings, "")
		removeEmptyDirs(root, filepath.Dir(path))
	case !bytes.Equal(old, data):
		if err := writeFile(path, data); err != nil {
			return err
		}
		log.did("updated", a.Settings, "lore hooks removed")
	}
	return nil
}

// removeFile removes a command file lore installed, unless it was edited.
func removeFile(root string, f File, log *steps) error {
	p := filepath.Join(root, filepath.FromSlash(f.Path))
	cur, err := readFile(p)
	if err != nil || cur == nil {
		return nil
	}
	if string(cur) != f.Content {
		log.did("kept", f.Path, "edited since lore installed it")
		return nil
	}
	if err := gitstore.Remove(p); err != nil {
		return fmt.Errorf("agent: %w", err)
	}
	log.did("removed", f.Path, "")
	removeEmptyDirs(root, filepath.Dir(p))
	return nil
}

// ReadStatus reads the agent's hooks file under root and reports lore's
// registration in it.
func (a *Agent) ReadStatus(root string) (Registration, error) {
	data, err := readFile(filepath.Join(root, filepath.FromSlash(a.Settings)))
	if err != nil {
		return Registration{}, err
	}
	return a.Status(data)
}

// readFile returns nil, nil for a file that does not exist.
func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	if data == nil {
		data = []byte{} // an empty file is not a missing one
	}
	return data, nil
}

func (a *Agent) files(extra []File) []File {
	all := append(append([]File{}, a.Commands...), extra...)
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

// writeFile writes atomically (filewrite.Replace: temp file, fsync,
// rename), keeping an existing file's mode, and never through a link inside the work tree (a
// committed .claude -> elsewhere).
func writeFile(path string, data []byte) error {
	if err := gitstore.NoSymlink(path); err != nil {
		return err
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		// Renaming over it would cut the link, writing through it could
		// leave the repository: the user merges by hand.
		return fmt.Errorf("agent: %s is a symbolic link: lore does not write through it; add lore's entries by hand (see lore doctor)", path)
	}
	if err := filewrite.Replace(path, data, filewrite.Options{Sync: true}); err != nil {
		return fmt.Errorf("agent: %w", err)
	}
	return nil
}
