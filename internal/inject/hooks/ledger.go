package hooks

import (
	"path/filepath"
	"slices"
	"time"
	"unsafe"

	"github.com/lore-agents/lore/internal/inject/ledger"
	"github.com/lore-agents/lore/internal/inject/match"
)

// The ledger (docs/design.md, Evidence of effect): every PreToolUse call
// appends an entry, matched or not, and so does every start of a context;
// an after-tool call or a prompt appends one only when it showed or
// dropped items. The entry is filled as the call decides and appended by
// keep once the answer is decided.

// callEntry is the ledger entry of a tool call: its tool and the hash of
// its input. The input's members it reads stay in tc for the added text.
func callEntry(before bool, tc *call, in *input) *ledger.Entry {
	event := ledger.Pre
	if !before {
		event = ledger.Post
	}
	return &ledger.Entry{Event: event, Tool: tc.Tool, Call: ledger.CallHash(tc.Tool, callInput(tc, in)...)}
}

// callInput is the call's input as the ledger hashes it: a shell call's
// command, an apply_patch body, else the tool input's keys and values. A
// shell call's other keys (Claude's and Gemini's description, its
// timeout) are narration the model may reword when it runs the same
// command again after a hold.
func callInput(tc *call, in *input) []string {
	switch {
	case tc.Command != "":
		return []string{tc.Command}
	case tc.patch != "":
		return []string{tc.patch}
	}
	tc.scan = &inputScan{obj: in.ToolInput}
	ms, ok := tc.scan.members()
	if !ok {
		return []string{bytesString(in.ToolInput)}
	}
	return inputParts(ms)
}

// inputParts are the members of a tool input in key order, each key
// followed by its value as sent (a string's escapes kept: one client
// escapes the same text alike): a model may write the keys of the same
// call in another order. The values are not copied: a Write's is tens of
// KiB, and the hash only reads it. An input has a few keys: they are
// sorted by insertion, in place in parts (slices.SortStableFunc made the
// hook binary 18 KB larger).
func inputParts(ms []inputMember) []string {
	parts := make([]string, 0, 2*len(ms))
	for _, m := range ms {
		parts = append(parts, m.key, bytesString(m.v))
		for i := len(parts) - 2; i > 0 && parts[i-2] > parts[i]; i -= 2 {
			parts[i-2], parts[i-1], parts[i], parts[i+1] = parts[i], parts[i+1], parts[i-2], parts[i-1]
		}
	}
	return parts
}

// bytesString is b as a string without a copy; b must not change after.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// account records in the call's entry what it denied, held and showed,
// and, where the decision was made (before the tool, at a prompt), what it
// dropped and what matched but it did not show.
func (h *handler) account(d match.Decision, s shownSet) {
	e := h.led
	if e == nil {
		return
	}
	e.Injected, e.Held, e.Denied = s.lessonIDs, s.held, s.denied
	if e.Event == ledger.Post {
		return // the call's pre entry has its drops
	}
	e.Dropped = ids(d.Dropped)
	for _, r := range d.Injected {
		if !slices.Contains(s.injected, r.ID) {
			e.Matched = append(e.Matched, r.ID)
		}
	}
}

// keep appends the call's entry to the ledger of the work tree it found
// (none found: nothing is written). A failure at a context's start goes to
// stderr and the hook log, so a broken ledger is reported once a session;
// on a tool call or a prompt it goes to the hook log only: the clients show
// a hook's stderr on every call, and the ledger never changes an answer.
func (h *handler) keep(sess *session) {
	e := h.led
	if e == nil || h.root == "" || !worthKeeping(e) {
		return
	}
	e.Time, e.Agent = time.Now(), h.agent.Name
	if sess != nil {
		e.Context = sess.key()
	}
	if err := ledger.Append(h.root, *e); err != nil {
		if e.Event == ledger.Start {
			h.logf("%v", err)
		} else {
			h.note("%v", err)
		}
	}
}

// worthKeeping: every pre and start entry; a post or prompt entry that
// names items.
func worthKeeping(e *ledger.Entry) bool {
	if e.Event == ledger.Pre || e.Event == ledger.Start {
		return true
	}
	return len(e.Injected)+len(e.Held)+len(e.Denied)+len(e.Dropped)+len(e.Matched) > 0
}

// key is the context's key in the ledger: the name of its files.
func (s session) key() string { return filepath.Base(s.self) }
