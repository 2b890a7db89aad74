// Package githooks installs, removes and reports lore's git hooks: the
// scripts of .githooks (embedded in the binary) that run `lore build` after
// git changes the work tree. A hook that was there before is chained, never
// clobbered, and uninstall puts it back byte for byte; a folder that a hook
// manager owns (husky, lefthook) is left to the manager.
package githooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/filewrite"

	lore "github.com/lore-agents/lore"
)

// Names are the hooks lore installs, in the order they are reported.
var Names = []string{"post-commit", "post-merge", "post-checkout", "post-rewrite"}

// ChainSuffix names the hook that was there before lore: lore's script runs
// <hook>.lore-chained first, with the same arguments and stdin.
const ChainSuffix = ".lore-chained"

// RunDir is the folder, inside the hooks folder, where an older lore linked
// each chained hook under its own name (RunDir/<hook> ->
// ../<hook>.lore-chained) and ran it from there: the hook then saw RunDir
// as its folder, and a helper it sourced from "$(dirname "$0")" was not
// found. Today's script sources a chained shell script under the hook's
// own $0 (folder and name as git gives them) and runs another program in
// place; install and uninstall remove the old links.
const RunDir = "lore-chained"

// marker is in every version of lore's script.
const marker = "lore-githook:"

// PrivateDir is the folder under the git common dir where lore keeps its
// scripts when a hook manager owns the hooks folder.
const PrivateDir = "lore-hooks"

// scriptWrite replaces a hook script atomically (a git running the hook
// meanwhile reads the old script or the new), executable, synced.
var scriptWrite = filewrite.Options{Perm: 0o755, Sync: true}

// Script returns lore's script for one hook.
func Script(name string) []byte {
	b, err := lore.GitHooks.ReadFile(".githooks/" + name)
	if err != nil {
		panic(fmt.Sprintf("githooks: %s is not embedded: %v", name, err))
	}
	return b
}

// State is what one hook file is.
type State string

const (
	Lore     State = "lore"     // lore's script, nothing chained
	Chained  State = "chained"  // lore's script, running the previous hook first
	Outdated State = "outdated" // an older or edited lore script; install rewrites it
	Foreign  State = "foreign"  // someone else's hook; install chains it
	Missing  State = "missing"  // no hook
	Managed  State = "managed"  // the folder belongs to a hook manager; see Step
	Wired    State = "wired"    // the hook manager runs lore's script
)

// Target says where to install.
type Target struct {
	Dir     string // the folder git runs hooks from (core.hooksPath or <common dir>/hooks)
	Root    string // the work tree root: hook managers are detected there
	Private string // <common dir>/lore-hooks: lore's scripts when a manager owns Dir
}

// Hook is one hook's state.
type Hook struct {
	Name    string `json:"name"`
	State   State  `json:"state"`
	Path    string `json:"path"`              // the hook file git runs
	Chained string `json:"chained,omitempty"` // the previous hook lore runs first
	Owner   string `json:"owner,omitempty"`   // the tool that wrote a foreign or chained hook
	Step    string `json:"step,omitempty"`    // what the user does to wire lore into a manager
	Changed string `json:"changed,omitempty"` // what install/uninstall just did
}

// String is the hook's line in lore hooks: its state, what it chains and
// what install or uninstall just did.
func (h Hook) String() string {
	line := fmt.Sprintf("%-14s %s", h.Name, h.State)
	if h.Chained != "" {
		line += " (runs " + filepath.Base(h.Chained) + " first"
		if h.Owner != "" {
			line += ", from " + h.Owner
		}
		line += ")"
	} else if h.Owner != "" && h.State == Foreign {
		line += " (" + h.Owner + ")"
	}
	if h.Changed != "" {
		line += ": " + h.Changed
	}
	return line
}

// Report is the state of every hook in one folder.
type Report struct {
	Dir     string `json:"dir"`
	Manager string `json:"manager,omitempty"` // husky or lefthook when it owns Dir
	Hooks   []Hook `json:"hooks"`
}

// Status reports every hook without changing anything.
func Status(t Target) (Report, error) {
	r := Report{Dir: t.Dir, Manager: manager(t)}
	for _, name := range Names {
		h, err := status(t, r.Manager, name)
		if err != nil {
			return r, err
		}
		r.Hooks = append(r.Hooks, h)
	}
	return r, nil
}

// Install makes git run lore's script for every hook: a missing hook gets
// it, an existing one is moved to <hook>.lore-chained and run first, an
// outdated lore script is rewritten, an installed one is left alone. When a
// manager owns the folder, lore's scripts go to t.Private and each hook's
// Step says what to add to the manager's configuration.
func Install(t Target) (Report, error) {
	r, err := Status(t)
	if err != nil {
		return r, err
	}
	for i := range r.Hooks {
		h := &r.Hooks[i]
		switch h.State {
		case Managed, Wired:
			err = installPrivate(t, h)
		case Missing, Outdated:
			err = installScript(t, h)
		case Foreign:
			err = chainForeign(h)
		}
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// installPrivate writes lore's script to the private folder a manager's
// configuration runs it from, unless it is there already.
func installPrivate(t Target, h *Hook) error {
	path := filepath.Join(t.Private, h.Name)
	if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, Script(h.Name)) {
		return nil
	}
	if err := filewrite.Replace(path, Script(h.Name), scriptWrite); err != nil {
		return fmt.Errorf("githooks: %w", err)
	}
	h.Changed = "wrote lore's script to " + filepath.Join(filepath.Base(filepath.Dir(t.Private)), PrivateDir, h.Name)
	return nil
}

// installScript writes lore's script as the hook (new or outdated), linked
// to a chained hook a previous install left.
func installScript(t Target, h *Hook) error {
	if err := write(h.Path, h.Name); err != nil {
		return err
	}
	h.Changed = "installed"
	if h.State == Outdated {
		h.Changed = "updated"
	}
	h.State = Lore
	if err := unlink(t.Dir, h.Name); err != nil {
		return err
	}
	if exists(h.Path + ChainSuffix) {
		h.State, h.Chained = Chained, h.Path+ChainSuffix
	}
	return nil
}

// chainForeign moves the user's hook to <hook>.lore-chained and installs
// lore's script, which runs it first; on a failure the user's hook is put
// back rather than leave no hook at all.
func chainForeign(h *Hook) error {
	chained := h.Path + ChainSuffix
	if exists(chained) {
		return fmt.Errorf("githooks: %s: both it and %s exist (not lore's): move one away and run install again", h.Path, filepath.Base(chained))
	}
	if err := os.Rename(h.Path, chained); err != nil {
		return fmt.Errorf("githooks: chain %s: %w", h.Path, err)
	}
	if err := write(h.Path, h.Name); err != nil {
		_ = os.Rename(chained, h.Path)
		return err
	}
	h.State, h.Chained, h.Changed = Chained, chained, "installed, chaining "+filepath.Base(chained)
	return nil
}

// Uninstall removes lore's scripts and renames every chained hook back, so
// the folder is byte for byte (content and mode) what it was before Install.
// Foreign hooks are left alone; a manager's configuration is the user's to
// edit (Step says which line to remove).
func Uninstall(t Target) (Report, error) {
	r, err := Status(t)
	if err != nil {
		return r, err
	}
	for i := range r.Hooks {
		h := &r.Hooks[i]
		switch h.State {
		case Managed, Wired:
			err = uninstallPrivate(t, h)
		case Lore, Chained, Outdated:
			err = uninstallScript(t, h)
		}
		if err != nil {
			return r, err
		}
	}
	if m := r.Manager; m != "" {
		// Remove the private folder once it is empty.
		_ = os.Remove(t.Private)
	}
	return r, nil
}

// uninstallPrivate removes lore's script from the private folder and says
// which line of the manager's configuration to remove.
func uninstallPrivate(t Target, h *Hook) error {
	path := filepath.Join(t.Private, h.Name)
	if err := os.Remove(path); err == nil {
		h.Changed = "removed " + path
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("githooks: %w", err)
	}
	if h.State == Wired {
		h.Step = "remove the line that runs " + filepath.Join(PrivateDir, h.Name) + " from " + h.Owner
	}
	return nil
}

// uninstallScript removes lore's hook script and puts a chained hook back.
func uninstallScript(t Target, h *Hook) error {
	if err := os.Remove(h.Path); err != nil {
		return fmt.Errorf("githooks: %w", err)
	}
	h.State, h.Changed = Missing, "removed"
	if err := unlink(t.Dir, h.Name); err != nil {
		return err
	}
	if h.Chained != "" {
		if err := os.Rename(h.Chained, h.Path); err != nil {
			return fmt.Errorf("githooks: restore %s: %w", h.Path, err)
		}
		h.State, h.Chained, h.Changed = Foreign, "", "removed, restored the chained hook"
	}
	return nil
}

func status(t Target, mgr, name string) (Hook, error) {
	h := Hook{Name: name, Path: filepath.Join(t.Dir, name)}
	if mgr != "" {
		return managedStatus(t, mgr, h)
	}
	data, err := readHook(h.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		h.State = Missing
		return h, nil
	case err != nil:
		return h, err
	case !bytes.Contains(data, []byte(marker)):
		h.State, h.Owner = Foreign, owner(data)
		return h, nil
	case bytes.Equal(data, Script(name)):
		h.State = Lore
	default:
		h.State = Outdated
	}
	if chained := h.Path + ChainSuffix; exists(chained) {
		h.Chained = chained
		if data, err := readHook(chained); err == nil {
			h.Owner = owner(data)
		}
		if h.State == Lore {
			h.State = Chained
		}
	}
	return h, nil
}

// runLink returns the path of a hook's link in RunDir and its target text.
func runLink(dir, name string) (path, target string) {
	return filepath.Join(dir, RunDir, name), "../" + name + ChainSuffix
}

func linked(dir, name string) bool {
	path, target := runLink(dir, name)
	cur, err := os.Readlink(path)
	return err == nil && cur == target
}

// unlink removes RunDir/<name> if it is an older lore's link, and RunDir
// once empty.
func unlink(dir, name string) error {
	if linked(dir, name) {
		path, _ := runLink(dir, name)
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("githooks: %w", err)
		}
		_ = os.Remove(filepath.Join(dir, RunDir)) // fails while not empty: someone else's files stay
	}
	return nil
}

// readHook reads a hook file (a link is followed); a folder is an error.
func readHook(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("githooks: %w", err)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return nil, nil // a dangling link is someone's hook
		}
		return nil, err
	}
	return data, nil
}

// write writes lore's script for one hook, executable, atomically.
func write(path, name string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("githooks: %w", err)
	}
	if err := filewrite.Replace(path, Script(name), scriptWrite); err != nil {
		return fmt.Errorf("githooks: %w", err)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// owner names the tool that generated a hook script, when it says so.
func owner(data []byte) string {
	for _, o := range []struct{ sign, name string }{
		{"File generated by pre-commit", "pre-commit"},
		{"lefthook", "lefthook"},
		{"husky", "husky"},
		{"git-lfs", "git-lfs"},
		{"overcommit", "overcommit"},
	} {
		if bytes.Contains(data, []byte(o.sign)) {
			return o.name
		}
	}
	return ""
}

// lefthookConfigs are the files whose presence means lefthook manages the
// hooks (lefthook install rewrites them).
var lefthookConfigs = []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "lefthook.toml", ".lefthook.toml", "lefthook.json", ".lefthook.json"}

// Outside is the Manager of a hooks folder outside the repository, such
// as a global core.hooksPath: it serves every repository of the user, so
// lore writes nothing there (its scripts go to Target.Private, and each
// hook's Step is the line to add, which does nothing in a repository
// without them).
const Outside = "core.hooksPath outside the repository"

// manager names what owns t.Dir: Outside; husky (core.hooksPath is
// .husky/_ in v9, .husky before) or lefthook (a lefthook config at the
// root, or its scripts in the folder). Such a folder is regenerated by the
// manager, so lore does not write into it.
func manager(t Target) string {
	if outside(t) {
		return Outside
	}
	if huskyDir(t.Dir) != "" {
		return "husky"
	}
	for _, f := range lefthookConfigs {
		if exists(filepath.Join(t.Root, f)) {
			return "lefthook"
		}
	}
	for _, name := range Names {
		if data, err := os.ReadFile(filepath.Join(t.Dir, name)); err == nil && owner(data) == "lefthook" {
			return "lefthook"
		}
	}
	return ""
}

// outside reports whether t.Dir is neither in the work tree nor in the
// git common dir (the parent of t.Private), as given or with links resolved.
func outside(t Target) bool {
	common := filepath.Dir(t.Private)
	for _, resolve := range []func(string) string{filepath.Clean, resolved} {
		dir := resolve(t.Dir)
		if within(dir, resolve(t.Root)) || within(dir, resolve(common)) {
			return false
		}
	}
	return true
}

// resolved is path with its links resolved, or path when it cannot be.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	r, err := filepath.Rel(dir, path)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// huskyDir returns the folder of husky's user hook files (.husky) when dir
// is husky's: .husky/_ (v9) or .husky with _/husky.sh (v4-v8).
func huskyDir(dir string) string {
	switch {
	case filepath.Base(dir) == "_" && filepath.Base(filepath.Dir(dir)) == ".husky":
		return filepath.Dir(dir)
	case filepath.Base(dir) == ".husky" && exists(filepath.Join(dir, "_", "husky.sh")):
		return dir
	}
	return ""
}

// runLine is what a manager's hook runs: lore's script from the common dir,
// with the hook's arguments.
func runLine(name, args string) string {
	return `sh "$(git rev-parse --git-common-dir)/` + PrivateDir + "/" + name + `" ` + args
}

// guardedRunLine is runLine for a folder that serves every repository:
// where lore's script is missing it does nothing.
func guardedRunLine(name string) string {
	return `f="$(git rev-parse --git-common-dir)/` + PrivateDir + "/" + name + `"; [ ! -f "$f" ] || sh "$f" "$@"`
}

func managedStatus(t Target, mgr string, h Hook) (Hook, error) {
	h.State = Managed
	var file string
	switch mgr {
	case Outside:
		file = filepath.Join(t.Dir, h.Name)
		h.Step = fmt.Sprintf("add this line to %s: %s", file, guardedRunLine(h.Name))
	case "husky":
		file = filepath.Join(huskyDir(t.Dir), h.Name)
		h.Step = fmt.Sprintf("add this line to %s: %s", rel(t.Root, file), runLine(h.Name, `"$@"`))
	case "lefthook":
		file = filepath.Join(t.Root, "lefthook.yml")
		for _, f := range lefthookConfigs {
			if exists(filepath.Join(t.Root, f)) {
				file = filepath.Join(t.Root, f)
				break
			}
		}
		h.Step = fmt.Sprintf("add to %s:  %s: { commands: { lore: { run: '%s' } } }  then run lefthook install", rel(t.Root, file), h.Name, runLine(h.Name, "{0}"))
	}
	h.Owner = rel(t.Root, file)
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return h, fmt.Errorf("githooks: %w", err)
	}
	if wiresLore(mgr, data, h.Name) {
		h.State, h.Step = Wired, ""
		if !exists(filepath.Join(t.Private, h.Name)) {
			h.Step = "run lore hooks install: " + filepath.Join(PrivateDir, h.Name) + " is missing"
		}
	}
	return h, nil
}

// wiresLore reports whether a manager's file runs lore's script for name.
func wiresLore(mgr string, data []byte, name string) bool {
	ref := []byte(PrivateDir + "/" + name)
	if mgr != "lefthook" {
		return bytes.Contains(data, ref)
	}
	// lefthook: the reference must sit under this hook's top-level key.
	section := false
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '#' {
			section = strings.HasPrefix(line, name+":")
		}
		if section && strings.Contains(line, string(ref)) {
			return true
		}
	}
	return false
}

// rel shortens path to root-relative when it is under root.
func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}
