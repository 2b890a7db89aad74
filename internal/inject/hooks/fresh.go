package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/filewrite"
	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/lorepath"
)

// How long a call waits for a rebuild of a missing, corrupt or stale
// manifest: SessionStart briefly (it then answers without the manifest and
// says so), a tool call or prompt long enough for a fresh clone's build, so
// that its first deny guard already holds; both within the deadline. These
// are the waits under the default Deadline; another (LORE_HOOK_DEADLINE)
// stretches them alike, so that tests on a loaded machine can give a build
// all the time it takes.
const (
	startWait = 500 * time.Millisecond
	callWait  = 1500 * time.Millisecond
	// deadlineMargin is left for deciding and printing after a wait.
	deadlineMargin = 200 * time.Millisecond
)

// waitItems is the largest manifest whose stale version a tool call waits
// to see rebuilt: a one-file rebuild of 1,000 items takes about 40 ms, of
// 10,000 about 200 ms, and a build from nothing (a new lore: no item
// cache) 100 ms and 850 ms. A larger store's calls never wait; they answer
// from the manifest they have, without the items whose files changed,
// while the build runs (docs/design.md, Manifest freshness). A variable
// so that tests can make a small store large.
var waitItems = 2000

// load returns the manifest to answer from: the one on disk when no source
// changed since it was built, else a rebuilt one when the rebuild finishes
// within wait. Otherwise it logs why and returns what there is: nil, or the
// stale manifest (stale set), whose items are then checked one by one.
// every: also stat every item file, not only the folders (SessionStart).
func (h *handler) load(wait time.Duration, every bool) (m *manifest.Manifest, stale bool) {
	if h.root == "" {
		return nil, false
	}
	if linkedCache(h.root) {
		h.logf(".lore or .lore/cache is a symbolic link: ignored, no lessons; remove it")
		return nil, false
	}
	m, why := h.openChecked(every)
	if why == "" {
		return m, false
	}
	// Checked before onlyDrafts, which stats every item file: a large
	// store's call answers the same way without that sweep.
	if !every && m != nil && m.Len() > waitItems {
		h.rebuild(0, false) // started, not waited for
		h.note("manifest %s: %d items, more than a call waits to see rebuilt; answering from it, without the items whose files changed", why, m.Len())
		return m, true
	}
	if !every && m != nil && h.onlyDrafts(m) {
		h.rebuild(0, false) // started, not waited for
		h.note("manifest %s: only drafts were added; answering from it while it is rebuilt", why)
		return m, false
	}
	start := time.Now()
	// A tool call with a manifest to answer from waits only for a build
	// it starts itself; SessionStart and a call without one (a fresh
	// clone, whose deny guards must hold) wait for any.
	done, running := h.rebuild(wait, every || m == nil)
	if running {
		h.note("manifest %s: a build another call started is running; answering from it, without the items whose files changed", why)
		return m, true
	}
	if done {
		var why2 string
		if m, why2 = h.reopen(m, every); why2 == "" {
			h.news(why, "manifest %s: rebuilt in %v", why, time.Since(start).Round(time.Millisecond))
			return m, false
		}
		why = why2
	}
	took := time.Since(start).Round(time.Millisecond)
	if m == nil {
		h.news(why, "manifest %s: %s; answering without it", why, h.notRebuilt(done, took))
		return nil, false
	}
	h.news(why, "manifest %s: %s; answering from it, without the items whose files changed", why, h.notRebuilt(done, took))
	return m, true
}

// news logs what became of a manifest found missing, stale or corrupt
// (why). A missing or stale one is routine (a fresh init, an edit: the
// build runs on and a later call has it), so it goes to the hook log only;
// a corrupt one is a problem, on stderr too.
func (h *handler) news(why, format string, args ...any) {
	if strings.HasPrefix(why, "corrupt") {
		h.logf(format, args...)
		return
	}
	h.note(format, args...)
}

// reopen opens the manifest a build just wrote in place of m (when it
// opens: fresh, or stale but newer than m) and says why it cannot be used
// as it is.
func (h *handler) reopen(m *manifest.Manifest, every bool) (*manifest.Manifest, string) {
	m2, why := h.openChecked(every)
	if m2 == nil {
		return m, why
	}
	if m != nil {
		h.release(m)
	}
	return m2, why
}

// openChecked opens the manifest and says why it cannot be used as it is:
// "" when it is fresh, else missing, corrupt or stale (the manifest is
// returned when stale). A part it names that is missing or outdated makes
// it stale, with nothing to answer from until it is rebuilt: routine (a
// cleared cache, a sync that moved on), not damage.
func (h *handler) openChecked(every bool) (*manifest.Manifest, string) {
	m, err := manifest.Open(lorepath.Abs(h.root, lorepath.Manifest))
	switch {
	case errors.Is(err, manifest.ErrPartMissing):
		return nil, fmt.Sprintf("stale (%v)", err)
	case errors.Is(err, fs.ErrNotExist):
		return nil, "missing"
	case err != nil:
		return nil, fmt.Sprintf("corrupt (%v)", err)
	}
	changed := m.Changed
	if every {
		changed = m.ChangedAny
	}
	p, err := changed(h.root)
	if err != nil {
		h.release(m)
		return nil, fmt.Sprintf("corrupt (%v)", err)
	}
	if p != "" {
		return m, fmt.Sprintf("stale (%s changed)", p)
	}
	return m, ""
}

// rebuild starts `lore build --quiet` unless a build is running, and
// reports whether the build (this one or, with join, the running one)
// finished within wait, cut to what the deadline leaves (with no time left
// it only starts the build). running: another call's build is running and
// join was false, so this call did not wait at all (docs/design.md,
// Incremental build). The child gets the build lock this call took, so
// parallel calls that find the manifest stale start one build, and the
// build outlives the hook when it takes longer than the wait.
func (h *handler) rebuild(wait time.Duration, join bool) (done, running bool) {
	wait = min(h.stretched(wait), time.Until(h.deadline)-deadlineMargin)
	lockPath := lorepath.Abs(h.root, lorepath.BuildLock)
	if fi, err := os.Lstat(lockPath); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		h.logf("rebuild: %s is a symbolic link: not followed, no rebuild; remove it", lorepath.BuildLock)
		return false, false
	}
	f, err := filewrite.Open(lockPath, os.O_RDWR, filewrite.Options{})
	if err != nil {
		h.logf("rebuild: %v", err)
		return false, false
	}
	var exited chan struct{}
	if tryLock(f) {
		exited = h.startBuild(f)
		f.Close() // the child holds the lock now
		if exited == nil {
			return false, false
		}
	} else {
		f.Close() // another call's build is running
		if !join {
			return false, true
		}
	}
	if wait <= 0 {
		return false, false
	}
	return waitBuild(lockPath, exited, wait), false
}

// stretched is a wait set for the default Deadline, under this call's.
func (h *handler) stretched(wait time.Duration) time.Duration {
	return time.Duration(float64(wait) * float64(h.span) / float64(Deadline))
}

// waitBuild waits up to wait for the build: the child this call started
// to exit (exited), or else the running build to release the lock.
func waitBuild(lockPath string, exited chan struct{}, wait time.Duration) bool {
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-exited:
			return true
		case <-timeout.C:
			return false
		case <-tick.C:
			if exited == nil && !isLocked(lockPath) {
				return true
			}
		}
	}
}

// startBuild starts the full lore binary's build with the held lock as its
// descriptor 3; the channel closes when the build exits (nil: not started).
func (h *handler) startBuild(lock *os.File) chan struct{} {
	lore := findLore()
	if lore == "" {
		h.logf("lore not found next to %s or on PATH: the manifest cannot be rebuilt", os.Args[0])
		return nil
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		h.logf("rebuild: %v", err)
		return nil
	}
	defer null.Close()
	// The build's problems (a broken config.yaml) go to the hook log.
	errs := null
	if path := logPath(h.root); path != "" {
		if f, err := filewrite.Open(path, os.O_WRONLY|os.O_APPEND, filewrite.Options{}); err == nil {
			defer f.Close()
			errs = f
		}
	}
	p, err := os.StartProcess(lore, []string{lore, "build", "--quiet"}, &os.ProcAttr{
		Dir:   h.root,
		Env:   append(childEnv(), manifest.LockFDEnv+"=3"),
		Files: []*os.File{null, null, errs, lock},
		Sys:   detached(),
	})
	if err != nil {
		h.logf("rebuild: start %s: %v", lore, err)
		return nil
	}
	exited := make(chan struct{})
	go func() {
		st, err := p.Wait()
		h.buildFailed = err != nil || !st.Success() // read only after exited closes
		close(exited)
	}()
	return exited
}

// decide runs f on the manifest and makes sure nothing it picked is stale:
// when the manifest is corrupt or an item f picked comes from a file that
// changed since the build (an edit in place, which the folder checks
// cannot see), it rebuilds and runs f again, once; items whose files still
// differ are left out. ok is false when there is nothing to answer from.
// every: stat every item file first (load), as a user prompt does.
func (h *handler) decide(every bool, f func(*manifest.Manifest) (match.Decision, error)) (match.Decision, bool) {
	m, stale := h.load(callWait, every)
	if m == nil {
		return match.Decision{}, false
	}
	if !stale {
		d, why := h.check(m, f)
		n := m.Len()
		h.release(m)
		if why == "" {
			return d, true
		}
		if m = h.rebuildFor(why, n > waitItems); m == nil {
			return match.Decision{}, false
		}
	}
	d, why := h.check(m, f)
	if why != "" && h.guardChanged(d) {
		// A deny or a hold must not be dropped for a change a running
		// build (the post-checkout hook's, another call's) is about to
		// compile: wait for that build, as a call without a manifest does.
		if done, _ := h.rebuild(callWait, true); done {
			if again, why2 := h.openChecked(false); why2 == "" {
				h.release(m)
				m = again
				h.note("manifest %s: a changed deny or hold waited for the build", why)
				d, why = h.check(m, f)
			} else if again != nil {
				h.release(again)
			}
		}
	}
	defer h.release(m)
	switch {
	case why == "":
		return d, true
	case d.Injected == nil:
		h.news(why, "manifest %s", why)
		return match.Decision{}, false
	}
	return h.withoutChanged(d), true
}

// guardChanged says whether a picked deny or hold comes from a file that
// changed since the build.
func (h *handler) guardChanged(d match.Decision) bool {
	for _, r := range d.Injected {
		if r.Deny || r.Hold {
			if p, err := r.Changed(h.root); err != nil || p != "" {
				return true
			}
		}
	}
	return false
}

// rebuildFor rebuilds the manifest a decision found corrupt or stale (why)
// and opens it again: the rebuilt one, the old one when the build did not
// finish in time, nil when there is none. large: the manifest has more
// items than a call waits for (waitItems); the build is only started.
func (h *handler) rebuildFor(why string, large bool) *manifest.Manifest {
	start := time.Now()
	wait := callWait
	if large && !strings.HasPrefix(why, "corrupt") {
		wait = 0
	}
	rebuilt, running := h.rebuild(wait, strings.HasPrefix(why, "corrupt"))
	m, again := h.openChecked(false)
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case running && m != nil:
		h.news(why, "manifest %s: a build another call started is running; answering without the items whose files changed", why)
	case m == nil:
		h.news(why, "manifest %s: %s; answering without it", why, h.notRebuilt(rebuilt, took))
	case rebuilt && again == "":
		h.news(why, "manifest %s: rebuilt in %v", why, took)
	default:
		h.news(why, "manifest %s: %s; answering without the items whose files changed", why, h.notRebuilt(rebuilt, took))
	}
	return m
}

// notRebuilt says why a call that waited took took has no rebuilt
// manifest: the build it started and saw end (done) failed, its error
// in the hook log just above, or it did not end in time.
func (h *handler) notRebuilt(done bool, took time.Duration) string {
	if done && h.buildFailed {
		return "the build failed (its error is above)"
	}
	return fmt.Sprintf("not rebuilt within %v", took)
}

// check runs f and says why its decision cannot be used as it is: the
// manifest is corrupt (no decision), or a picked item's file changed.
func (h *handler) check(m *manifest.Manifest, f func(*manifest.Manifest) (match.Decision, error)) (match.Decision, string) {
	d, err := f(m)
	if err != nil {
		return match.Decision{}, fmt.Sprintf("corrupt (%v)", err)
	}
	return d, h.changedItems(d)
}

// changedItems says which file of a picked item changed since the build.
func (h *handler) changedItems(d match.Decision) string {
	for _, r := range d.Injected {
		p, err := r.Changed(h.root)
		if err != nil {
			return fmt.Sprintf("corrupt (%v)", err)
		}
		if p != "" {
			return fmt.Sprintf("stale (%s changed)", p)
		}
	}
	return ""
}

// withoutChanged leaves out the picked items whose files changed since the
// build, logging each; they are never injected from their old text.
func (h *handler) withoutChanged(d match.Decision) match.Decision {
	kept := d.Injected[:0:0]
	for _, r := range d.Injected {
		if p, err := r.Changed(h.root); err != nil || p != "" {
			h.note("left out %s: %s changed since the manifest was built", r.ID, p)
			continue
		}
		kept = append(kept, r)
	}
	d.Injected = kept
	return d
}

// startBlock is the manifest's SessionStart block or, with no manifest or
// a stale or damaged one, a note that says lessons come later (never the
// old block, which may show lessons that no longer exist).
// It also returns the ids of the items without triggers it shows and
// of those their budget left out, for the record.
func (h *handler) startBlock(m *manifest.Manifest, stale bool) (string, manifest.Always) {
	const later = "lore: this repository's lessons were not ready at session start (being rebuilt; see " + lorepath.HookLog + "); they apply from the next tool calls."
	if h.root == "" {
		return "", manifest.Always{}
	}
	if m == nil || stale {
		return later, manifest.Always{}
	}
	block, err := m.SessionStart()
	if err != nil {
		h.logf("%v", err)
		return later, manifest.Always{}
	}
	a, err := m.AlwaysOn()
	if err != nil {
		h.logf("%v", err)
	}
	return strings.TrimSpace(block), a
}

// mayEditStore reports whether a call may write a file under .lore/ but
// its cache: a shell command that names the folder, or a tool other than
// a reader given such a path.
func (h *handler) mayEditStore(tc call, cwd string) bool {
	if tc.Tool == "Bash" && strings.Contains(tc.Command, lorepath.Dir+"/") {
		return true
	}
	if tc.Tool == "Read" || tc.Tool == "Glob" || tc.Tool == "Grep" {
		return false
	}
	for _, p := range tc.Paths {
		if inStore(match.RelPath(h.root, cwd, p)) {
			return true
		}
	}
	return false
}

// inStore reports whether a repo-relative path is under .lore/ but not its
// cache.
func inStore(rel string) bool {
	return strings.HasPrefix(rel, lorepath.Dir+"/") && !strings.HasPrefix(rel, lorepath.Cache+"/")
}

// markIfEditing creates the edit mark before a call that may write a file
// under .lore/ (an Edit or Write of one, or a shell command that names the
// folder): an editor's write in place changes no folder, so without the
// mark a lesson the agent edits would count only from the next session.
func (h *handler) markIfEditing(tc call, cwd string) {
	if h.root == "" || !h.mayEditStore(tc, cwd) {
		return
	}
	if err := filewrite.Touch(lorepath.Abs(h.root, lorepath.Edited), filewrite.Options{}); err != nil {
		h.logf("mark the edit: %v", err)
	}
}
