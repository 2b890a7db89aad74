// Package ledger keeps the hook's decisions (docs/design.md, Evidence of
// effect): one JSON line per decision in .lore/local/ledger.jsonl of the
// work tree, rotated and bounded. A line holds times, names, item ids and a
// hash of the call, never a prompt or a command. It links only what the
// lean hook already links (no encoding/json: lines are written by hand and
// read with jsonparser).
package ledger

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/lore-agents/lore/internal/filewrite"
	"github.com/lore-agents/lore/internal/lorepath"
)

// The bounds: the live file rotates once it passes MaxBytes, and Kept
// rotated files stay beside it (ledger.1.jsonl the newest), so the ledger
// holds at most (Kept+1) x MaxBytes, 16 MiB, plus a line for each call
// that raced the rotation. A call that matched nothing writes ~120 bytes,
// one that showed an item ~160: at 500 tool calls a day (~65 KB) the
// ledger keeps the last 190 to 250 days (TestYearOfUse: 235 days, 15 MB,
// after a year).
const (
	MaxBytes = 4 << 20
	Kept     = 3
)

// The events of an entry.
const (
	Pre    = "pre"    // PreToolUse (Gemini's BeforeTool): every call
	Post   = "post"   // PostToolUse (AfterTool): only a call that showed lessons (Gemini)
	Prompt = "prompt" // UserPromptSubmit (BeforeAgent): only a prompt that showed items
	Start  = "start"  // SessionStart, SubagentStart, PostCompact: the context (re)starts
)

// Entry is one line of the ledger. The id lists are disjoint: an item a
// call held is under Held only, though the hook's record lists it as
// injected too.
type Entry struct {
	Time     time.Time `json:"t"`                  // UTC, to the second
	Agent    string    `json:"agent"`              // claude, codex, gemini
	Event    string    `json:"event"`              // Pre, Post, Prompt or Start
	Context  string    `json:"ctx,omitempty"`      // the hook's key of (session_id, agent_id); "" when the call had no session
	Call     string    `json:"call,omitempty"`     // CallHash of the call (pre and post only)
	Tool     string    `json:"tool,omitempty"`     // lore's normalised tool name
	Injected []string  `json:"injected,omitempty"` // shown to the model as context (lessons, or the always-on items at start)
	Held     []string  `json:"held,omitempty"`     // enforce: once, this call held (denied once)
	Denied   []string  `json:"denied,omitempty"`   // enforce: deny
	Dropped  []string  `json:"dropped,omitempty"`  // passed the threshold but cut by the budget or the item cap
	// Matched passed the threshold and the cap but this call did not show
	// them: Gemini's lessons, shown after the tool (the post entry lists
	// them), or items a parallel call of the context claimed first.
	Matched []string `json:"matched,omitempty"`
}

// CallHash is an entry's Call: the 64-bit xxhash of tool and each part of
// input, each after a NUL, in 16 hex digits. input is the call as the hook
// normalised it: a shell call's command, an apply_patch body, else the
// tool input's keys and values in key order. The same call retried hashes
// the same; any change to it, another.
func CallHash(tool string, input ...string) string {
	d := xxhash.New()
	_, _ = d.WriteString(tool)
	for _, s := range input {
		_, _ = d.WriteString("\x00")
		_, _ = d.WriteString(s)
	}
	return hex.EncodeToString(binary.BigEndian.AppendUint64(nil, d.Sum64()))
}

// Append adds e (its Time now when zero) to the ledger of the work tree
// at root: one write(2) of one line with O_APPEND, which the kernel places
// whole at the end, so parallel hook calls never interleave or tear a line
// (on a local file system). No lock and no fsync on this path: only the
// call whose line takes the file past MaxBytes rotates it, under the
// ledger's lock. A line costs 6 us back to back (BenchmarkAppend), 10 to
// 20 spaced as hook calls come: within the noise of a whole hook process.
func Append(root string, e Entry) error {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	dir := lorepath.Abs(root, lorepath.Local)
	path := file(dir, 0)
	line := e.appendJSON(make([]byte, 0, 256))
	size, err := appendLine(root, path, line)
	if err != nil {
		return fmt.Errorf("ledger: append %s: %w", path, err)
	}
	if size >= MaxBytes {
		return rotate(dir)
	}
	return nil
}

// unlinked refuses a .lore or .lore/local that is a symbolic link or not a
// folder: through a committed link the ledger would be made outside the
// repository. A missing .lore/local is made by the first append.
func unlinked(root, dir string) error {
	for _, p := range []string{lorepath.Abs(root, lorepath.Dir), dir} {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) && p == dir:
		case err != nil:
			return err
		case !fi.IsDir():
			return fmt.Errorf("%s is not a folder", p)
		}
	}
	return nil
}

// appendFile appends line to path (and its folder, made when missing)
// with os.File, and returns the file's size after it: where the system
// calls alone (appendLine) are not at hand, and for the line that makes
// the file, which checks that no link leads elsewhere.
func appendFile(root, path string, line []byte) (int64, error) {
	if err := unlinked(root, filepath.Dir(path)); err != nil {
		return 0, err
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := filewrite.Open(path, os.O_WRONLY|os.O_APPEND, filewrite.Options{})
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Write(line); err != nil { // one write: O_APPEND puts it whole at the end
		return 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), f.Close()
}

// rotate renames ledger.jsonl to ledger.1.jsonl, each ledger.N.jsonl to
// N+1, dropping the one past Kept. It runs under the ledger's lock, and
// only when the live file is still over the bound: of the calls that
// raced past it, the first rotates and the others find a fresh file. A
// call that opened the live file before the rename writes its line into
// ledger.1.jsonl: kept, not lost.
func rotate(dir string) error {
	lock, err := filewrite.Open(filepath.Join(dir, lorepath.LedgerLock), os.O_RDWR, filewrite.Options{})
	if err != nil {
		return fmt.Errorf("ledger: rotate: %w", err)
	}
	defer lock.Close() // releases the lock
	if err := filewrite.Lock(lock); err != nil {
		return fmt.Errorf("ledger: rotate: %w", err)
	}
	if fi, err := os.Lstat(file(dir, 0)); err != nil || fi.Size() < MaxBytes {
		return nil // rotated by a parallel call
	}
	for n := Kept; n > 0; n-- {
		err := filewrite.Rename(file(dir, n-1), file(dir, n), filewrite.Options{})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("ledger: rotate: %w", err)
		}
	}
	return nil
}

// file is the live ledger (n 0) or its nth rotated file in dir.
func file(dir string, n int) string {
	if n == 0 {
		return filepath.Join(dir, lorepath.Ledger)
	}
	return filepath.Join(dir, strings.TrimSuffix(lorepath.Ledger, ".jsonl")+"."+strconv.Itoa(n)+".jsonl")
}

// maxField bounds each string written: a tool name comes from the agent
// and could be anything.
const maxField = 256

// appendJSON appends e as one JSON line.
func (e Entry) appendJSON(b []byte) []byte {
	b = append(b, `{"t":"`...)
	b = e.Time.UTC().AppendFormat(b, time.RFC3339) // no fraction: to the second
	b = append(b, '"')
	b = appendField(b, "agent", e.Agent, true)
	b = appendField(b, "event", e.Event, true)
	b = appendField(b, "ctx", e.Context, false)
	b = appendField(b, "call", e.Call, false)
	b = appendField(b, "tool", e.Tool, false)
	b = appendList(b, "injected", e.Injected)
	b = appendList(b, "held", e.Held)
	b = appendList(b, "denied", e.Denied)
	b = appendList(b, "dropped", e.Dropped)
	b = appendList(b, "matched", e.Matched)
	return append(b, "}\n"...)
}

// appendField appends ,"key":"s" (nothing for an empty s unless always).
func appendField(b []byte, key, s string, always bool) []byte {
	if s == "" && !always {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, s)
}

// appendList appends ,"key":["id",...] (nothing for no ids).
func appendList(b []byte, key string, ids []string) []byte {
	if len(ids) == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':', '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, id)
	}
	return append(b, ']')
}

// appendString appends s, cut to maxField bytes, as a JSON string: quotes,
// backslashes and control bytes escaped, invalid UTF-8 replaced.
func appendString(b []byte, s string) []byte {
	if len(s) > maxField {
		s = s[:maxField]
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"
