package hooks

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/lorepath"
)

// scanInBackground starts `lore scan --quiet <transcript>` detached and
// returns at once: Stop and SessionEnd never wait on a scan.
func (h *handler) scanInBackground(transcript, cwd string) {
	if transcript == "" {
		return
	}
	h.background(cwd, "scan", "--quiet", transcript)
}

// scanSessionInBackground scans the session's transcript and its
// sub-agents': Claude Code keeps them in <session>/subagents/, Gemini CLI
// in chats/<session_id>/ beside the session's chat. SubagentStop fires
// before the sub-agent's last message is in its file (measured with Claude
// Code 2.1.330), and Gemini has no SubagentStop, so the scan at the
// session's Stop and SessionEnd reads what an earlier scan could not see.
func (h *handler) scanSessionInBackground(transcript, sessionID, cwd string) {
	if transcript == "" {
		return
	}
	args := []string{"scan", "--quiet", transcript}
	for _, dir := range []string{
		filepath.Join(strings.TrimSuffix(transcript, ".jsonl"), "subagents"),
		filepath.Join(filepath.Dir(transcript), filepath.Base(sessionID)),
	} {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() && sessionID != "" {
			args = append(args, dir)
		}
	}
	h.background(cwd, args...)
}

// reconcileInBackground starts `lore reconcile --quiet` at SessionStart
// when anything was ever rendered (a render manifest exists): deleted or
// orphaned artifacts are settled before the session, without the hook
// waiting or linking the observation log's code.
func (h *handler) reconcileInBackground(cwd string) {
	if h.root == "" {
		return
	}
	for _, rel := range []string{lorepath.InLocal(lorepath.RenderManifest), lorepath.InDir(lorepath.RenderManifest), lorepath.InCache(lorepath.RenderManifest)} {
		if _, err := os.Stat(filepath.Join(h.root, filepath.FromSlash(rel))); err == nil {
			h.background(cwd, "reconcile", "--quiet")
			return
		}
	}
}

// syncEvery is how often SessionStart syncs the organisation stores.
const syncEvery = 24 * time.Hour

// syncInBackground starts `lore sync --background` at SessionStart when
// the manifest reads an organisation store (a source's HEAD is among its
// watched files) never fetched, or last tried a day ago or more (the time
// of the fetch state beside it: docs/design.md, Scopes and organisation
// stores). One stat per source, and only at SessionStart: a tool call
// never pays for it, and the hook never links the network code.
func (h *handler) syncInBackground(m *manifest.Manifest, now time.Time) {
	if m == nil || h.root == "" {
		return
	}
	heads, err := m.WatchedNamed(lorepath.SourceHead)
	if err != nil {
		return // a corrupt manifest is rebuilt; the next session syncs
	}
	for _, w := range heads {
		fi, err := os.Stat(filepath.Join(filepath.Dir(w.Abs(h.root)), lorepath.SourceState))
		if err != nil || now.Sub(fi.ModTime()) >= syncEvery {
			h.background("", "sync", "--background")
			return
		}
	}
}

// background starts the full lore binary with args, detached, in the work
// tree, and returns at once.
func (h *handler) background(cwd string, args ...string) {
	lore := findLore()
	if lore == "" {
		h.logf("lore not found next to %s or on PATH: lore %s not run", os.Args[0], args[0])
		return
	}
	dir := cwd
	if h.root != "" {
		dir = h.root
	}
	// All three standard streams go to /dev/null: a child holding the
	// agent's pipes would keep the agent waiting for the hook's output.
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		h.logf("start lore %s: %v", args[0], err)
		return
	}
	defer null.Close()
	// os.StartProcess, not os/exec: the hook binary links os/exec (and
	// context) for nothing else, start-up work every tool call would pay.
	p, err := os.StartProcess(lore, append([]string{lore}, args...), &os.ProcAttr{
		Dir: dir, Env: childEnv(), Files: []*os.File{null, null, null}, Sys: detached(),
	})
	if err != nil {
		h.logf("start lore %s: %v", args[0], err)
		return
	}
	_ = p.Release()
}

// childEnv is the environment of the lore processes the hook starts: the
// hook's own, less the GOMAXPROCS=1 its registered command line runs it
// with (agent.Command), so a scan or a build uses every core.
func childEnv() []string {
	env := os.Environ()
	return slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GOMAXPROCS=") })
}

// findLore finds the full lore binary: the running executable when it is
// lore, else next to it (lore-hook is installed beside lore), else on PATH.
func findLore() string {
	name := "lore"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if p := besideHook(name); p != "" {
		return p
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		// Like exec.LookPath, never a relative PATH entry such as ".".
		if p := filepath.Join(dir, name); filepath.IsAbs(dir) && isExecutable(p) {
			return p
		}
	}
	return ""
}

// besideHook returns the running binary when it is lore, else lore in
// its folder, else "".
func besideHook(name string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if filepath.Base(exe) == name {
		return exe
	}
	if p := filepath.Join(filepath.Dir(exe), name); isFile(p) {
		return p
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
