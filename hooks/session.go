package hooks

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/buger/jsonparser"
)

// recentPrompts is how many prompts the session keeps for topic matching.
const recentPrompts = 5

// session is one context's dedup state under the user's temp dir. The main
// thread and each sub-agent have their own context (and Codex sub-agents
// share the parent's session_id), so the key is (session_id, agent_id):
//
//	lore-<uid>/<sha256(session_id)[:16]>/              the main thread
//	lore-<uid>/<sha256(session_id NUL agent_id)[:16]>/ a sub-agent
//	  seen          ids injected so far, one a line (fast reads; may lag claims)
//	  claims/<id>   created with O_EXCL before an item is printed: the one
//	                truth when parallel calls race for the same item
//	  prompts       the last five user prompts, one JSON string a line
//
// Only the main thread receives the user's prompts; a sub-agent works on
// the same request, so it reads the main thread's prompts (main).
type session struct{ dir, main string }

func openSession(id, agent string) session {
	base := filepath.Join(os.TempDir(), "lore-"+strconv.Itoa(os.Getuid()))
	main := filepath.Join(base, contextKey(id))
	if agent == "" {
		return session{dir: main, main: main}
	}
	return session{dir: filepath.Join(base, contextKey(id+"\x00"+agent)), main: main}
}

func contextKey(s string) string {
	sum := sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:16]
}

func (s session) claimsDir() string { return filepath.Join(s.dir, "claims") }

// seen reads the ids injected so far; a missing file is a fresh session.
func (s session) seen() map[string]bool {
	data, err := os.ReadFile(filepath.Join(s.dir, "seen"))
	if err != nil || len(data) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, id := range strings.Split(string(data), "\n") {
		if id != "" {
			m[id] = true
		}
	}
	return m
}

// ensure creates the session's folders. SessionStart calls it, so a tool
// call (which always follows a SessionStart) pays no mkdir: on this
// machine's disks a mkdir costs more than the rest of the hook's work.
func (s session) ensure() error {
	if err := os.MkdirAll(s.claimsDir(), 0o700); err != nil {
		return fmt.Errorf("hooks: session: %w", err)
	}
	return nil
}

// claim takes id for this session; false when another call already has it.
func (s session) claim(id string) (bool, error) {
	if !validID(id) {
		return false, fmt.Errorf("hooks: claim: bad item id %q", id)
	}
	path := filepath.Join(s.claimsDir(), id)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrNotExist) { // no SessionStart came first
		if err = s.ensure(); err != nil {
			return false, err
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	}
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("hooks: claim: %w", err)
	}
	f.Close()
	return true, nil
}

// markSeen appends ids to the seen file. One write with O_APPEND per call
// keeps concurrent appends whole lines.
func (s session) markSeen(ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(s.dir, "seen"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("hooks: seen: %w", err)
	}
	_, err = f.WriteString(strings.Join(ids, "\n") + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("hooks: seen: %w", err)
	}
	return nil
}

// wipe forgets everything the session injected (SessionStart source=clear).
func (s session) wipe() error {
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("hooks: clear session: %w", err)
	}
	return nil
}

// unclaim lets the ids be injected again (after compaction or a resume the
// agent no longer remembers them): the claims go first, then the seen file is
// rewritten without them.
func (s session) unclaim(drop func(id string) bool) error {
	entries, err := os.ReadDir(s.claimsDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("hooks: compact: %w", err)
	}
	for _, e := range entries {
		if drop(e.Name()) {
			if err := os.Remove(filepath.Join(s.claimsDir(), e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("hooks: compact: %w", err)
			}
		}
	}
	var keep []string
	for id := range s.seen() {
		if !drop(id) {
			keep = append(keep, id)
		}
	}
	data := ""
	if len(keep) > 0 {
		data = strings.Join(keep, "\n") + "\n"
	}
	return writeAtomic(s.dir, "seen", []byte(data))
}

// prompts returns the main thread's stored prompts, oldest first.
func (s session) prompts() []string {
	data, err := os.ReadFile(filepath.Join(s.main, "prompts"))
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

// addPrompt stores p as the main thread's latest prompt and keeps the
// last five.
func (s session) addPrompt(p string) error {
	ps := append(s.prompts(), p)
	if len(ps) > recentPrompts {
		ps = ps[len(ps)-recentPrompts:]
	}
	var buf bytes.Buffer
	for _, q := range ps {
		buf.WriteString(jsonString(q))
		buf.WriteByte('\n')
	}
	return writeAtomic(s.main, "prompts", buf.Bytes())
}

// writeAtomic replaces a state file in dir: temp file, rename.
func writeAtomic(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("hooks: session: %w", err)
	}
	f, err := os.CreateTemp(dir, name+".tmp*")
	if err != nil {
		return fmt.Errorf("hooks: session: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("hooks: session: %w", err)
	}
	return nil
}

// validID keeps claim file names inside the claims folder.
func validID(id string) bool {
	if id == "" || len(id) > 200 || id == "." || id == ".." {
		return false
	}
	return !strings.ContainsAny(id, "/\\\x00\n")
}

// agentID is the context a call belongs to: the agent_id it carries, or,
// for an agent whose sub-agents send none (SubagentTool), the sub-agent
// that runs while the parent's call of that tool is open. The open call
// is a marker file in the main thread's folder, written at its pre-tool
// hook and removed at its post-tool hook; calls in between get the
// marker's id. (One sub-agent at a time: a second one started in parallel
// shares the first one's context.)
func (h *handler) agentID(ev Event, in *input) string {
	if in.AgentID != "" || h.agent.SubagentTool == "" {
		return in.AgentID
	}
	mark := filepath.Join(openSession(in.SessionID, "").dir, "subagent")
	if in.ToolName == h.agent.SubagentTool {
		switch ev {
		case PreToolUse:
			if err := os.MkdirAll(filepath.Dir(mark), 0o700); err == nil {
				err = os.WriteFile(mark, []byte(strconv.FormatInt(time.Now().UnixNano(), 36)), 0o600)
				if err != nil {
					h.logf("sub-agent marker: %v", err)
				}
			}
		case PostToolUse:
			os.Remove(mark)
		}
		return "" // the call itself is the parent's
	}
	if id, err := os.ReadFile(mark); err == nil && len(id) > 0 {
		return "sub-" + string(id)
	}
	return ""
}
