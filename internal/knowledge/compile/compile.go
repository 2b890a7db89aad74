// Package compile turns a store's knowledge items and its config into the
// manifest the agent hook reads: it selects the injectable items, validates
// their triggers, renders their injection text by form, strips invisible
// unicode, caps sizes, merges the organisation and user stores' items
// (docs/design.md, Scopes and organisation stores), pre-renders the
// SessionStart block, and plans the manifest's index with match.Index.
package compile

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Revision changes whenever compile's output for the same files changes
// (rendering, planning); it is part of the source hash and the manifest,
// and a manifest of another revision is rebuilt.
const Revision uint32 = 9

// Input is what a build reads.
type Input struct {
	Items  []*markdown.Item // the project's items (paths repo-relative)
	Stores []Store          // the organisation stores the config names, then the user's store
	Config config.Config
	Skills []Skill // the skill documents of .lore/skills (lore aggregate)
	// Learnings is the learnings file (Config.Learnings), for the recent
	// learnings SessionStart shows.
	Learnings []byte
	// Snapshot is the stat of the sources, taken before they were read.
	Snapshot Snapshot
	// Cache is what earlier builds knew of the item files (nil: none);
	// Items and Stores' Items leave out the files it has unchanged.
	Cache *Cache
}

// Report says what a build compiled and what it left out, and why.
type Report struct {
	Compiled int
	Excluded []Excluded // items with errors: never compiled
	Inactive int        // not injectable by status (drafts unless inject.drafts, deprecated, ...)
	LowConf  int        // below inject.minConfidence
	Drafts   int        // project drafts awaiting review
	Shadowed int        // org or user items whose id the project (or an earlier store) also has
	Disabled int        // org or user items the config's disable switches off
	Folded   int        // lessons compiled under a skill's record
	Dead     int        // compiled, but their triggers can never reach the threshold
	AlwaysOn int        // without triggers: delivered at session start
	// Index are the index lines of the compiled items; of a part's
	// (organisation sources in a build that writes its manifest), only
	// those the session's index can show.
	Index []IndexEntry
	// Aside says why the merge left out each valid item it did not
	// compile, by path: disabled, shadowed, its status, its confidence.
	Aside map[string]string
}

// Excluded is an item left out because of errors, each naming file, line and key.
type Excluded struct {
	Path   string
	Errors []*markdown.Error
	Unsafe bool // lint rejects it for safety (it would otherwise compile)
}

// Settings is the manifest snapshot of a config.
func Settings(c config.Config) manifest.Settings {
	in := c.Inject
	return manifest.Settings{
		BudgetBytes: in.BudgetBytes, MaxItems: in.MaxItems, Threshold: in.Threshold,
		ReinjectPriority: in.ReinjectPriority, MinConfidence: in.MinConfidence, Drafts: in.Drafts,
	}
}

// Build compiles in into manifest bytes: the same files give the same bytes.
// The item cache is encoded, and saved (Cache.SaveWith), while the index and
// the manifest are built.
func Build(in Input) ([]byte, Report, error) {
	c := compileItems(in)
	in.Cache.encode()
	src, rep := c.source()
	data, err := manifest.Build(src)
	return data, rep, err
}

// Compile selects and renders the items and plans the index.
func Compile(in Input) (manifest.Source, Report) { return compileItems(in).source() }

// compileItems selects the items of every store: what the cache will
// hold is known when it returns.
func compileItems(in Input) *compiler {
	set := Settings(in.Config)
	c := &compiler{in: in, set: set, itemCap: ItemCap(set),
		byID: map[string]string{}, skillOf: map[string]int{}, h: sha256.New()}
	fmt.Fprintf(c.h, "lore manifest %d compile %d\n", manifest.Version, Revision)
	fmt.Fprintf(c.h, "%+v session %d\n", set, in.Config.Inject.SessionBudgetBytes)
	fmt.Fprintf(c.h, "learnings %s %d\n", in.Config.Learnings, len(in.Learnings))
	fmt.Fprintf(c.h, "disable %q\n", in.Config.Disable)
	c.h.Write(in.Learnings)
	c.indexSkills()
	c.add(in.Items, Store{Scope: Project})
	for _, st := range in.Stores {
		if st.Part != nil {
			c.addPart(st)
			continue
		}
		c.add(st.Items, st)
	}
	c.addSkills()
	c.rep.Compiled += len(c.items)
	return c
}

// source renders the session's text and plans the index of the items
// compileItems selected.
func (c *compiler) source() (manifest.Source, Report) {
	in, set := c.in, c.set
	src := manifest.Source{
		Revision:     Revision,
		Watch:        in.Snapshot.Watch,
		Files:        in.Snapshot.Files,
		Settings:     set,
		SessionStart: c.sessionStart() + RecentLearnings(in.Config.Learnings, in.Learnings),
		AlwaysOn:     alwaysOn(c.always, in.Config.Inject.SessionBudgetBytes),
		Items:        c.items,
		Buckets:      match.Index(c.items, set),
		Parts:        c.parts,
	}
	copy(src.Hash[:], c.h.Sum(nil))
	return src, c.rep
}

// compiler is one Compile: what it has read, kept and reported.
type compiler struct {
	in      Input
	set     manifest.Settings
	itemCap int
	rep     Report
	h       hash.Hash // of everything the manifest depends on

	items []manifest.Item
	parts []manifest.Part
	// unlisted and unlistedCritical count the parts' items not in
	// rep.Index and critical: those their session lists cannot show.
	unlisted, unlistedCritical int
	critical                   []*Known
	always                     []*Known          // no triggers: delivered at session start
	byID                       map[string]string // id -> file that has it
	// shared are the ids two or more files of the store being merged
	// have, each with its first two files: none compiles (sharedIDs).
	shared  map[string][2]string
	skillOf map[string]int // lesson id -> the first skill that lists it
	members [][]*markdown.Item
}

// indexSkills notes which skill each listed lesson belongs to: lessons a
// skill document lists are compiled under the skill's record.
func (c *compiler) indexSkills() {
	for i, sk := range c.in.Skills {
		fmt.Fprintf(c.h, "skill %s %s %s %q\n", sk.Path, sk.ID, sk.Tool, sk.Lessons)
		for _, id := range sk.Lessons {
			if _, dup := c.skillOf[id]; !dup {
				c.skillOf[id] = i
			}
		}
	}
	c.members = make([][]*markdown.Item, len(c.in.Skills))
}

// add compiles the project's items, or a store's, in path order: the
// items parsed this build and the files the cache has unchanged.
func (c *compiler) add(list []*markdown.Item, st Store) {
	global := st.Scope != Project
	known := c.in.Cache.known(list, st, c.in.Snapshot, c.itemCap)
	sort.Slice(known, func(a, b int) bool { return known[a].Path < known[b].Path })
	c.shared = sharedIDs(len(known), func(i int) *Facts { return &known[i].Facts })
	c.items = slices.Grow(c.items, len(known))
	c.rep.Index = slices.Grow(c.rep.Index, len(known))
	for _, k := range known {
		fmt.Fprintf(c.h, "%s %d %d\n", k.Path, st.Scope, k.Len)
		c.h.Write(k.Digest[:])
		if !global && (k.Status == "draft" || k.Status == "proposed") {
			c.rep.Drafts++
		}
		if !c.admit(&k.Facts, st.Scope) {
			continue
		}
		c.classify(k)
		if c.fold(k, st) {
			continue
		}
		rec := k.Rec
		rec.Sources = c.in.Snapshot.sources(k.Path)
		c.items = append(c.items, rec)
		c.rep.Index = append(c.rep.Index, k.Entry)
	}
}

// sharedIDs are the ids that two or more of a store's n files (facts)
// have, each with its first two files in path order. No copy compiles:
// the one that sorts first is as likely to be a copy made as a template
// (a deny guard replaced by a draft that kept its id) as the original,
// and lint rejects each.
func sharedIDs(n int, facts func(int) *Facts) map[string][2]string {
	first := make(map[string]string, n)
	var shared map[string][2]string
	for i := range n {
		f := facts(i)
		if f.ID == "" {
			continue
		}
		p, dup := first[f.ID]
		if !dup {
			first[f.ID] = f.Path
			continue
		}
		if _, seen := shared[f.ID]; !seen {
			if shared == nil {
				shared = map[string][2]string{}
			}
			shared[f.ID] = [2]string{p, f.Path}
		}
	}
	return shared
}

// classify lists an admitted item for the session (without triggers, or
// critical) and counts it when it can never fire.
func (c *compiler) classify(k *Known) { c.list(classOf(k, c.set.Threshold), k) }

// list lists an admitted item of the class for the session, or counts it.
func (c *compiler) list(class byte, k *Known) {
	switch class {
	case classAlways:
		c.always = append(c.always, k)
		c.rep.AlwaysOn++
	case classCritical:
		c.critical = append(c.critical, k)
	case classDead:
		c.rep.Dead++
	}
}

// fold puts a project lesson a skill document lists under the skill's
// record, and says whether it did. A lesson the cache had is read again
// for it (skills are few); one that cannot be is compiled on its own.
func (c *compiler) fold(k *Known, st Store) bool {
	si, ok := c.skillOf[k.ID]
	if !ok || st.Scope != Project || !k.Foldable || !confident(k.Confidence, c.set.MinConfidence) {
		return false
	}
	it := k.item
	if it == nil {
		var err error
		if it, err = ReadItem(c.in.Snapshot.abs(k.Path), k.Path); err != nil {
			return false
		}
	}
	c.members[si] = append(c.members[si], it)
	c.rep.Folded++
	return true
}

// admit says an item is compiled, counting why not in the report: it is
// valid and safe, not disabled, its id is new (an org or user item a
// project one shadows), it is injectable (an org item only when active)
// and confident enough.
func (c *compiler) admit(k *Facts, scope Scope) bool {
	global := scope != Project
	if global && slices.Contains(c.in.Config.Disable, k.ID) {
		c.rep.Disabled++
		c.aside(k, "this project switches it off (disable: in the config)")
		return false
	}
	if len(k.Errs) > 0 {
		c.rep.Excluded = append(c.rep.Excluded, Excluded{Path: k.Path, Errors: k.Errs, Unsafe: k.Unsafe})
		return false
	}
	if pair, ok := c.shared[k.ID]; ok {
		other := pair[0]
		if other == k.Path {
			other = pair[1]
		}
		c.rep.Excluded = append(c.rep.Excluded, Excluded{Path: k.Path, Errors: []*markdown.Error{{
			Path: k.Path, Line: k.IDLine, Key: "id", Msg: "duplicate id: " + other + " has it too, so neither is compiled (give one of them a new id)"}}})
		return false
	}
	if prev, dup := c.byID[k.ID]; dup {
		if global {
			c.rep.Shadowed++
			c.aside(k, "shadowed by "+prev+", which has the same id and comes first")
		} else {
			c.rep.Excluded = append(c.rep.Excluded, Excluded{Path: k.Path, Errors: []*markdown.Error{{
				Path: k.Path, Line: k.IDLine, Key: "id", Msg: "duplicate id: " + prev + " has it too"}}})
		}
		return false
	}
	c.byID[k.ID] = k.Path
	if !markdown.InjectableStatus(k.Status, c.set.Drafts && scope != Org) {
		c.rep.Inactive++
		c.aside(k, inactive(k.Status, scope))
		return false
	}
	if !confident(k.Confidence, c.set.MinConfidence) {
		c.rep.LowConf++
		c.aside(k, lowConfidence(k.Confidence, c.set.MinConfidence))
		return false
	}
	return true
}

func (c *compiler) aside(k *Facts, why string) {
	if c.rep.Aside == nil {
		c.rep.Aside = map[string]string{}
	}
	c.rep.Aside[k.Path] = why
}

// addSkills compiles each skill that has lessons folded into it.
func (c *compiler) addSkills() {
	for i, sk := range c.in.Skills {
		if len(c.members[i]) == 0 {
			continue
		}
		m, e := skillItem(sk, c.members[i], c.itemCap)
		paths := []string{sk.Path}
		for _, it := range c.members[i] {
			paths = append(paths, it.Path)
		}
		m.Sources = c.in.Snapshot.sources(paths...)
		c.items = append(c.items, m)
		c.rep.Index = append(c.rep.Index, e)
	}
}

// check returns an item's validation errors, and whether it is left out
// for lint's safety findings (hidden unicode, a secret, a download piped
// into a shell, a deny without a specific target): those must not reach
// an agent.
func check(it *markdown.Item) (errs []*markdown.Error, unsafe bool) {
	errs = markdown.Validate(it)
	for _, f := range lint.Safety(it) {
		errs = append(errs, &markdown.Error{Path: f.Path, Line: f.Line, Key: f.Key, Msg: f.Msg})
		unsafe = true
	}
	return errs, unsafe
}

func item(it *markdown.Item, scope Scope, itemCap int) manifest.Item {
	m := manifest.Item{
		ID: it.ID, Kind: it.Kind, Title: Sanitize(lint.Unmarked(it.Title)), File: it.Path, Status: it.Status,
		Priority: int(it.Priority), Confidence: it.Confidence, Global: scope == User, Org: scope == Org,
		Deny:     it.Enforce == markdown.EnforceDeny && it.Priority >= 9 && it.Status == "active",
		Hold:     holds(it),
		Triggers: Triggers(it),
		Text:     Render(it, it.Path, itemCap),
	}
	for _, c := range m.Triggers.Commands {
		m.Required = append(m.Required, match.RequiredLiterals(c))
	}
	if m.Deny {
		m.Fix = FixText(it)
	}
	if math.IsNaN(m.Confidence) {
		m.Confidence = 0
	}
	return m
}

// confident says a confidence is not under inject.minConfidence (within
// the matcher's tolerance): the build compiles only such items, and a
// skill folds only such lessons.
func confident(conf, minConf float64) bool { return !(conf < minConf-match.Tolerance) }

// holds reports whether an item holds the first matching call of a
// context (enforce: once): only once it is in force, active or accepted, a
// draft injected for review only informs.
func holds(it *markdown.Item) bool {
	return it.Enforce == markdown.EnforceOnce && (it.Status == "active" || it.Status == "accepted")
}

// Triggers are an item's triggers as the hook reads them: blank entries
// dropped.
func Triggers(it *markdown.Item) manifest.Triggers {
	t := it.Triggers
	clean := func(l []string) []string {
		var out []string
		for _, s := range l {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return manifest.Triggers{
		Tools: clean(t.Tools), Commands: clean(t.Commands), Unless: clean(t.Unless),
		Paths: clean(t.Paths), Content: clean(t.Content), Keywords: clean(t.Keywords), Topics: clean(t.Topics),
	}
}

// maxCritical caps the critical items of the SessionStart block.
const maxCritical = 5

// sessionStart renders the SessionStart block: the top critical items with
// their fix, a compact index of what is compiled, and the drafts count.
func (c *compiler) sessionStart() string {
	var b strings.Builder
	critical, index := c.critical, c.rep.Index
	sort.Slice(critical, func(a, b int) bool { return moreImportant(critical[a], critical[b]) })
	if len(critical) > 0 {
		b.WriteString("## Critical knowledge for this repository\n\n")
		for i, k := range critical {
			if i == maxCritical {
				break
			}
			fmt.Fprintf(&b, "### %s\n%s\n(%s)\n\n", k.Entry.Title, k.Fix, k.Path)
		}
		if more := len(critical) + c.unlistedCritical - maxCritical; more > 0 {
			fmt.Fprintf(&b, "(%d more critical items: `lore list --priority critical`)\n\n", more)
		}
	}
	if len(index) > 0 {
		b.WriteString(renderIndex(index, len(index)+c.unlisted, DefaultIndexBytes).Text)
		b.WriteString("\n")
	}
	if c.rep.Drafts > 0 {
		fmt.Fprintf(&b, "%d draft item(s) await review: `lore review`.\n", c.rep.Drafts)
	}
	return b.String()
}
