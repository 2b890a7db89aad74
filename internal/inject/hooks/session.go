package hooks

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/buger/jsonparser"
	"github.com/cespare/xxhash/v2"

	"github.com/lore-agents/lore/internal/filewrite"

	"github.com/lore-agents/lore/internal/sysread"
)

// recentPrompts is how many prompts the session keeps for topic matching.
const recentPrompts = 5

// session is one context's dedup state in the user's state folder
// (stateDir). The main thread and each sub-agent have their own context
// (and Codex sub-agents share the parent's session_id), so the key is
// (session_id, agent_id):
//
//	<state>/<xxhash(session_id)>.*               the main thread
//	<state>/<xxhash(session_id NUL agent_id)>.*  a sub-agent
//	  .seen      ids injected so far, one a line: an item is claimed by
//	             appending its id under an exclusive flock, so when
//	             parallel calls race for it exactly one prints it
//	  .prompts   the last five user prompts, one JSON string a line
//
// Files, not a folder per context: a session's first call, when no
// SessionStart came first, then creates one file and no folder.
//
// Only the main thread receives the user's prompts; a sub-agent works on
// the same request, so it reads the main thread's prompts (main). self and
// main are the path prefixes of the two contexts' files.
type session struct {
	self, main string
	passed     string // the state folder passed over, and why ("" when none was)
}

// stateWrite writes the session files: this user's only, and not synced
// (dedup state is worth no fsync on every call).
var stateWrite = filewrite.Options{Perm: 0o600, DirPerm: 0o700}

func openSession(id, agent string) session {
	base, passed := chooseStateDir()
	main := filepath.Join(base, contextKey(id))
	if agent == "" {
		return session{self: main, main: main, passed: passed}
	}
	return session{self: filepath.Join(base, contextKey(id+"\x00"+agent)), main: main, passed: passed}
}

// stateDir is the folder of every context's files, this user's own. A
// session's first claim creates its file there, so it lives in memory
// where the system has a place for it: XDG_RUNTIME_DIR (the per-user
// tmpfs of a desktop or SSH login on Linux), else /dev/shm (Linux
// containers and servers), else the temp dir (macOS, Windows). On this
// machine's ext4 a file's creation took 35 us to 1 ms, on tmpfs 9 us.
//
// Another local user can make /dev/shm/lore-<uid> (or the temp dir's)
// first, open to others or their own, and the user cannot remove it: used,
// it would leak the prompts or, refused, turn off every lesson. So a folder
// that is there and not the user's alone is passed over for the next
// place, the last being lore's folder in the user's cache (on disk, but
// the user's own).
func stateDir() string {
	dir, _ := chooseStateDir()
	return dir
}

// chooseStateDir is stateDir, and which folder it passed over and why.
func chooseStateDir() (dir, passed string) {
	fits := func(d string) bool {
		info, err := os.Lstat(d)
		if err != nil { // missing: made private at the first claim
			return errors.Is(err, fs.ErrNotExist) && isDir(filepath.Dir(d))
		}
		why := filewrite.NotPrivate(info)
		if why != "" && passed == "" {
			passed = d + " is " + why
		}
		return why == ""
	}
	uid := strconv.Itoa(os.Getuid())
	// XDG_RUNTIME_DIR must be absolute and there (not one a login left behind).
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) && fits(filepath.Join(d, "lore")) {
		return filepath.Join(d, "lore"), passed
	}
	if d := filepath.Join(shmDir, "lore-"+uid); runtime.GOOS == "linux" && fits(d) {
		return d, passed
	}
	if d := filepath.Join(os.TempDir(), "lore-"+uid); fits(d) {
		return d, passed
	}
	return cacheStateDir(), passed
}

// cacheStateDir is the state folder of last resort, in lore's folder of
// the user's cache, made (with its parents) here: it is not on the way of
// a call that found its folder.
func cacheStateDir() string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir() // no home: the folder is refused at the first claim
	}
	dir := filepath.Join(cache, "lore", "hook-state")
	_ = os.MkdirAll(filepath.Dir(dir), 0o700)
	return dir
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// shmDir is Linux's shared-memory tmpfs.
const shmDir = "/dev/shm"

// passedOverNote is the file, in the state folder, that says which folder
// the hook passed over last: the user is told once, not on every call.
const passedOverNote = ".passed-over"

// contextKey names a context's files: the 64-bit xxhash of its key in 16
// hex digits. xxhash is the hash the manifest already links; crypto/sha256
// would link the FIPS 140 module, whose initialisation every hook call
// would pay. Nothing here needs a cryptographic hash: the ids are the
// agents' own, and 64 bits keep one user's live contexts apart.
func contextKey(s string) string {
	return hex.EncodeToString(binary.BigEndian.AppendUint64(nil, xxhash.Sum64String(s)))
}

// seen reads the ids injected so far without the lock (a call that
// reads it while another claims only scores an item claim then refuses);
// a missing file is a fresh session.
func (s session) seen() map[string]bool {
	data, err := sysread.ReadFile(s.self+".seen", -1)
	if err != nil || len(data) == 0 {
		return nil
	}
	return idSet(data)
}

// ensure creates the context's seen file (and the folder of every
// context's files). SessionStart and SubagentStart call it, so a tool call
// only appends: on this machine's disks creating a file or folder costs
// more than the rest of the hook's work.
func (s session) ensure() error {
	if err := s.private(); err != nil {
		return fmt.Errorf("hooks: session: %w", err)
	}
	if err := filewrite.Touch(s.self+".seen", stateWrite); err != nil {
		return fmt.Errorf("hooks: session: %w", err)
	}
	return nil
}

// claim takes, of ids, those this context has not been shown yet and
// returns them in order. The seen file is read and appended under an
// exclusive lock, one file for every claim: creating a file per claimed
// item cost more than the rest of a hook call.
func (s session) claim(ids []string) ([]string, error) {
	// The folder is made when missing (no SessionStart came first), and
	// checked.
	if err := s.private(); err != nil {
		return nil, fmt.Errorf("hooks: claim: %w", err)
	}
	f, err := filewrite.Open(s.self+".seen", os.O_RDWR|os.O_APPEND, stateWrite)
	if err != nil {
		return nil, fmt.Errorf("hooks: claim: %w", err)
	}
	defer f.Close() // releases the lock
	if err := filewrite.Lock(f); err != nil {
		return nil, fmt.Errorf("hooks: claim: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("hooks: claim: %w", err)
	}
	took := unseen(idSet(data), ids)
	if len(took) > 0 {
		if _, err := f.WriteString(strings.Join(took, "\n") + "\n"); err != nil {
			return nil, fmt.Errorf("hooks: claim: %w", err)
		}
	}
	return took, nil
}

// unseen is, of ids, the valid ones have lacks, each once, in order.
func unseen(have map[string]bool, ids []string) []string {
	var took []string
	for _, id := range ids {
		if validID(id) && !have[id] {
			have[id] = true
			took = append(took, id)
		}
	}
	return took
}

// idSet is the set of the ids in a seen file, sized for them at once: in
// a long session the file holds dozens, and growing the map rehashed them
// (896 K to 880 K instructions for a steady-state call at 10,000 items),
// and the ids are slices of one copy of the file, not a copy each (778 K
// to 765 K).
func idSet(data []byte) map[string]bool {
	m := make(map[string]bool, bytes.Count(data, []byte("\n"))+1)
	for s := string(data); len(s) > 0; { // one copy, the ids slices of it
		line, rest, _ := strings.Cut(s, "\n")
		if len(line) > 0 {
			m[line] = true
		}
		s = rest
	}
	return m
}

// wipe forgets everything the context injected (SessionStart
// source=clear). A main thread's stored prompts go too.
func (s session) wipe() error {
	// .subagent: a sub-agent marker a killed call left open would keep
	// sending the main thread's calls to a sub-agent's context.
	for _, p := range []string{s.self + ".seen", s.self + ".prompts", s.self + ".subagent"} {
		if err := filewrite.Remove(p, stateWrite); err != nil {
			return fmt.Errorf("hooks: clear session: %w", err)
		}
	}
	return nil
}

// unclaim lets the ids be injected again (after compaction or a resume the
// agent no longer remembers them): the seen file is rewritten under the
// claim lock without them.
func (s session) unclaim(drop func(id string) bool) error {
	f, err := filewrite.OpenExisting(s.self + ".seen")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("hooks: compact: %w", err)
	}
	defer f.Close()
	if err := filewrite.Lock(f); err != nil {
		return fmt.Errorf("hooks: compact: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("hooks: compact: %w", err)
	}
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("hooks: compact: %w", err)
	}
	if _, err := f.WriteAt(keepIDs(data, drop), 0); err != nil {
		return fmt.Errorf("hooks: compact: %w", err)
	}
	return nil
}

// keepIDs is the seen file without the ids drop names.
func keepIDs(data []byte, drop func(id string) bool) []byte {
	var keep strings.Builder
	for _, id := range strings.Split(string(data), "\n") {
		if id != "" && !drop(id) {
			keep.WriteString(id + "\n")
		}
	}
	return []byte(keep.String())
}

// prompts returns the main thread's stored prompts, oldest first.
func (s session) prompts() []string {
	data, err := sysread.ReadFile(s.main+".prompts", -1)
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		if p, err := jsonparser.GetString(line); len(line) > 0 && err == nil {
			out = append(out, p)
		}
	}
	return out
}

// private makes the state folder if it is missing and refuses one that is
// not this user's alone: the prompts written there are the user's words.
// (Only writes check: a call that writes nothing pays no system call for
// it.)
func (s session) private() error {
	return filewrite.PrivateDir(filepath.Dir(s.self))
}

// addPrompt stores p as the main thread's latest prompt and keeps the
// last five.
func (s session) addPrompt(p string) error {
	ps := append(s.prompts(), p)
	if len(ps) > recentPrompts {
		ps = ps[len(ps)-recentPrompts:]
	}
	if err := s.private(); err != nil {
		return fmt.Errorf("hooks: session: %w", err)
	}
	var buf bytes.Buffer
	for _, q := range ps {
		buf.WriteString(jsonString(q))
		buf.WriteByte('\n')
	}
	if err := filewrite.Replace(s.main+".prompts", buf.Bytes(), stateWrite); err != nil {
		return fmt.Errorf("hooks: session: %w", err)
	}
	return nil
}

// validID keeps the seen file one id a line.
func validID(id string) bool {
	if id == "" || len(id) > 200 || id == "." || id == ".." {
		return false
	}
	return !strings.ContainsAny(id, "/\\\x00\n")
}

// agentID is the context a call belongs to: the agent_id it carries, or,
// for an agent whose sub-agents send none (SubagentTool), the sub-agent
// that runs while the parent's call of that tool is open. The open call
// is a marker file beside the main thread's files, written at its pre-tool
// hook and removed at its post-tool hook; calls in between get the
// marker's id. (One sub-agent at a time: a second one started in parallel
// shares the first one's context.)
func (h *handler) agentID(ev Event, in *input) string {
	if in.AgentID != "" || h.agent.SubagentTool == "" {
		return in.AgentID
	}
	mark := openSession(in.SessionID, "").main + ".subagent"
	if in.ToolName == h.agent.SubagentTool {
		h.markSubagent(ev, mark)
		return "" // the call itself is the parent's
	}
	if ev != PreToolUse && ev != PostToolUse {
		return "" // prompts and session events are the main thread's
	}
	return openSubagent(mark)
}

// openSubagent is the context of the sub-agent whose call the marker says
// is open ("" for none).
func openSubagent(mark string) string {
	if id, err := sysread.ReadFile(mark, -1); err == nil && len(id) > 0 {
		return "sub-" + string(id)
	}
	return ""
}

// markSubagent opens the sub-agent marker at the pre-tool hook of the
// sub-agent tool's call (a fresh id) and removes it at the post-tool hook.
func (h *handler) markSubagent(ev Event, mark string) {
	switch ev {
	case PreToolUse:
		id := strconv.FormatInt(time.Now().UnixNano(), 36)
		if err := filewrite.PrivateDir(filepath.Dir(mark)); err != nil { // as every state write
			h.logf("sub-agent marker: %v", err)
			return
		}
		if err := filewrite.Replace(mark, []byte(id), stateWrite); err != nil {
			h.logf("sub-agent marker: %v", err)
		}
	case PostToolUse:
		_ = filewrite.Remove(mark, stateWrite) // a marker left behind is cleared by the next clear
	}
}
