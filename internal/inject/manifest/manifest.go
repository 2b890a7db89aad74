// Package manifest is the compiled, gitignored form of a store's injectable
// items that the agent hook reads on every tool call.
//
// The format is built for a process that lives about a millisecond: Open
// maps the file and checks a fixed header and a small bucket directory;
// a lookup touches only the bucket of the called tool and the hash-table
// slots of the n-grams of the command, path or prompt; item records are
// decoded only for the candidates those grams name, and injection texts
// only for the winners. Nothing is decoded up front, and nothing here panics
// on bad bytes: every read is bounds-checked and every record carries a
// checksum. It imports only the standard library (and the .lore/ names of
// internal/lorepath).
package manifest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// LockFDEnv names the descriptor of a build lock already held for the
// process: the hook takes the lock, then starts `lore build` with it, so no
// other call can start a build in the gap between the two processes.
const LockFDEnv = "LORE_BUILD_LOCK_FD"

// Version is the format version; a manifest of another version is stale.
const Version = 9

var (
	// ErrCorrupt reports a manifest that is truncated or damaged.
	ErrCorrupt = errors.New("manifest: corrupt or truncated (run lore build)")
	// ErrVersion reports a manifest written by another format version.
	ErrVersion = errors.New("manifest: written by another lore version (run lore build)")
	// ErrPartMissing reports a part (Source.Parts) that is missing or is
	// not the one the manifest was built with. It is routine, not damage
	// (the user's cache was cleared, a sync fetched another commit): the
	// manifest is stale, and a build writes the part again.
	ErrPartMissing = errors.New("manifest: a part it reads is missing or outdated (run lore build)")
)

// Settings is the inject.* configuration snapshot taken at build time, so
// the hook never reads config.yaml.
type Settings struct {
	BudgetBytes      int
	MaxItems         int
	Threshold        float64
	ReinjectPriority int
	MinConfidence    float64
	Drafts           bool
}

// Triggers are an item's trigger lists (docs/design.md, Item format).
type Triggers struct {
	Tools, Commands, Unless, Paths, Keywords, Topics []string
	Content                                          []string // regexes over the text an edit adds
}

// Item is one compiled item. Text and Fix are not decoded by Item(i): read
// them with Text(i) and Fix(i) for the winners only.
type Item struct {
	ID         string
	Kind       string
	Title      string
	File       string // where it came from (repo-relative, or origin:path for org and user items)
	Status     string
	Priority   int // 1-10
	Confidence float64
	Deny       bool // enforce: deny on an active critical item
	Hold       bool // enforce: once on an active item: hold the first matching call of a context
	Global     bool // from the user's own store
	Org        bool // from an organisation store (its origin: File up to ':')
	Triggers   Triggers
	// Required lists, for each of Triggers.Commands, literals that every
	// match of the pattern contains (ASCII-lowercased; nil: none known):
	// the hook runs a pattern only when all of them occur in the command,
	// a test far cheaper than compiling it. Nil or one list per pattern;
	// kept in the item's head (Head, ItemOf), not read by Item.
	Required [][]string

	Text string // the rendered injection (input to Build only)
	Fix  string // the deny reason (input to Build only)
	// Sources are the indexes in Source.Files of the files the item was
	// compiled from (input to Build only).
	Sources []int

	textRef, fixRef ref
	srcOffs         []uint32 // offsets of its source entries in the files section
}

type ref struct{ off, n, crc uint32 }

// Always is the block of items without triggers, and the ids it shows and
// those its budget left out (for the hook's record).
type Always struct {
	Text              string
	Injected, Dropped []string
	// Origin names the store of each org or user item injected (id,
	// store), read back by AlwaysOn for the record; not written.
	Origin [][2]string
}

// Bucket lists the items worth scoring for one tool ("*" for tools no
// bucket names). Gated items are candidates only when one of their literals
// may occur in the call's target (command or path) or prompt; Always items
// are always candidates. Items are indexes into Source.Items.
type Bucket struct {
	Tool    string
	Always  []int
	Target  []Gate
	Keyword []Gate
	// Content gates items on literals of the text the call adds; Edits
	// marks a bucket with items that match that text, so the hook reads
	// it only then.
	Content []Gate
	Edits   bool
}

// Gate is an item with literals of which at least one occurs (ASCII
// case-insensitively) in every text the item can match. No literals, or a
// literal shorter than three bytes, makes the item always a candidate.
type Gate struct {
	Item     int
	Literals []string
}

// Source is everything Build writes.
type Source struct {
	Hash         [32]byte // of the item files and config it was built from
	Revision     uint32   // the compiler's revision: another one means rebuild
	Settings     Settings
	SessionStart string
	// AlwaysOn is the block of items without triggers, injected at
	// SessionStart (before SessionStart above) and SubagentStart.
	AlwaysOn Always
	Items    []Item
	Buckets  []Bucket
	// Parts are the manifests the hook reads beside this one: each
	// fetched organisation source's items, compiled once per commit.
	Parts []Part
	// Watch is checked on every hook call: the folders (a file added,
	// removed or replaced by rename changes a folder) and the few files
	// every answer depends on (config, learnings). Files are the item
	// files, checked at SessionStart and for the items a call would use.
	Watch, Files []Watched
}

// Part is a manifest read beside this one: the items of one
// organisation source at the commit fetched, compiled once and shared by
// every repository that names the source (docs/design.md, Scopes and
// organisation stores). Its items are ranked with this manifest's, under
// this manifest's settings; its own settings, watched files and
// session text are not read.
type Part struct {
	Path string   // the part's manifest file, absolute
	Hash [32]byte // its Source.Hash: a part with another hash is not the one this manifest was built with
	// Off are the ids of the part's items this manifest switches off,
	// sorted: disabled by the config, or shadowed by an item of the same
	// id in the project or an earlier source.
	Off []string
}

func errf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// sum32 is the checksum of every record, text and the header: the low 32
// bits of XXH64 over the parts. Not CRC-32, because hash/crc32 builds its
// tables on first use, a cost every hook call would pay; not FNV-1a, which
// takes a multiply a byte: a steady-state call at 10,000 items checks 81
// heads and their posting lists, and FNV was 8% of its instructions (65 K
// of 830 K; XXH64, 8 bytes a step, 38 K).
func sum32(parts ...[]byte) uint32 {
	if len(parts) == 1 {
		return uint32(xxhash.Sum64(parts[0]))
	}
	d := xxhash.New()
	for _, p := range parts {
		_, _ = d.Write(p) // a Digest's Write never fails
	}
	return uint32(d.Sum64())
}

// Origin is the store an item file comes from: the name before the ':' of
// an org or user item's path (acme:lessons/x.md), "" for the project's
// (docs/design.md, Scopes and organisation stores).
func Origin(file string) string {
	name, _, ok := strings.Cut(file, ":")
	if !ok || strings.ContainsAny(name, "/\\") {
		return ""
	}
	return name
}
