// Package lorepath spells the .lore/ layout in one place: the folder and
// file names every package uses, slash-separated and relative to the work
// tree root. It links only the standard library, so the lean hook binary
// uses the same names as the lore CLI.
package lorepath

import (
	"path"
	"path/filepath"
)

// Dir is the knowledge root inside a work tree.
const Dir = ".lore"

// The folders of .lore/: Cache is derived and may be deleted; Local is
// this machine's state (gitignored like the cache, but not rebuildable).
const (
	Cache  = Dir + "/cache"
	Local  = Dir + "/local"
	Skills = Dir + "/skills"
)

// The item folders, one per kind.
const (
	Lessons   = "lessons"
	Pitfalls  = "pitfalls"
	Decisions = "decisions"
)

// Committed files of .lore/.
const (
	Config    = Dir + "/config.yaml"
	Learnings = Dir + "/learnings.md" // the default; config.yaml may name another file
	Gitignore = Dir + "/.gitignore"
	Rejected  = Dir + "/rejected"     // hashes of rejected drafts, merged by union
	Events    = Dir + "/events.jsonl" // the learn log, merged by union
)

// Files of the cache.
const (
	Manifest  = Cache + "/manifest"   // what the hook reads
	BuildLock = Cache + "/build.lock" // held by every build: parallel hook calls that find the manifest stale start one build
	WriteLock = Cache + "/write.lock" // the store lock
	ScanLock  = Cache + "/scan.lock"
	Edited    = Cache + "/edited" // the hook's mark of an agent's edit under .lore/: while it exists the manifest is stale
	HookLog   = Cache + "/hook.log"
	ScanLog   = Cache + "/scan.log"
	// Calls holds the calls cache: one file of recorded tool calls per
	// transcript (docs/design.md, Evidence of effect).
	Calls = Cache + "/calls"
	// ItemCache keeps what a build knew of each item file (its check,
	// record and index line) by its stat and bytes, so a build parses and
	// checks only what changed (docs/design.md, Incremental build).
	ItemCache = Cache + "/items"
)

// Names of the files kept in Local, or (the observation log and render
// manifest with `share: true`) in Dir.
const (
	Observations   = "observations.jsonl"
	RenderManifest = "render.json"
	Signals        = "signals.jsonl"
	Bookmarks      = "scan-bookmarks.json"
	LegacyRejected = "scan-rejected" // the cache file an older lore kept rejections in
	Ledger         = "ledger.jsonl"  // the hook's decisions, rotated to ledger.1.jsonl, ...
	LedgerLock     = "ledger.lock"   // held while the ledger rotates
)

// Gitattributes is the work tree's attributes file, where lore adds the
// merge=union lines of its append-only committed files.
const Gitattributes = ".gitattributes"

// InDir, InCache and InLocal name a file in .lore/, its cache and its
// local folder.
func InDir(name string) string   { return path.Join(Dir, name) }
func InCache(name string) string { return path.Join(Cache, name) }
func InLocal(name string) string { return path.Join(Local, name) }

// Item is the path of an item file in a kind's folder.
func Item(folder, name string) string { return path.Join(Dir, folder, name) }

// Abs is rel under the work tree root, in the platform's form.
func Abs(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

// UnionLine is the .gitattributes line that makes git merge rel by keeping
// both sides' lines.
func UnionLine(rel string) string { return "/" + rel + " merge=union" }

// The files of a fetched organisation store's cache folder (docs/design.md,
// Scopes and organisation stores): SourceHead names the checkout in use
// and changes only when a fetch moves it (the manifest watches it);
// SourceState records every fetch attempt (the hook reads its time to
// sync in the background).
const (
	SourceHead  = "HEAD"
	SourceState = "state.json"
)
