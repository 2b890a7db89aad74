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
	"github.com/lore-agents/lore/internal/parallel"
)

// Revision changes whenever compile's output for the same files changes
// (rendering, planning); it is part of the source hash and the manifest,
// and a manifest of another revision is rebuilt.
const Revision uint32 = 8

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
	// Verdicts are the checks of earlier builds (nil: check every item).
	Verdicts *Verdicts
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
	Index    []IndexEntry
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
func Build(in Input) ([]byte, Report, error) {
	src, rep := Compile(in)
	data, err := manifest.Build(src)
	return data, rep, err
}

// Compile selects and renders the items and plans the index.
func Compile(in Input) (manifest.Source, Report) {
	set := Settings(in.Config)
	c := &compiler{in: in, set: set, itemCap: max(min(MaxItemBytes, set.BudgetBytes), 256),
		byID: map[string]string{}, skillOf: map[string]int{}, h: sha256.New()}
	fmt.Fprintf(c.h, "lore manifest %d compile %d\n", manifest.Version, Revision)
	fmt.Fprintf(c.h, "%+v session %d\n", set, in.Config.Inject.SessionBudgetBytes)
	fmt.Fprintf(c.h, "learnings %s %d\n", in.Config.Learnings, len(in.Learnings))
	fmt.Fprintf(c.h, "disable %q\n", in.Config.Disable)
	c.h.Write(in.Learnings)
	c.indexSkills()
	c.add(in.Items, Store{Scope: Project})
	for _, st := range in.Stores {
		c.add(st.Items, st)
	}
	c.addSkills()
	c.rep.Compiled = len(c.items)

	src := manifest.Source{
		Revision:     Revision,
		Watch:        in.Snapshot.Watch,
		Files:        in.Snapshot.Files,
		Settings:     set,
		SessionStart: sessionStart(c.critical, c.rep.Index, c.rep.Drafts) + RecentLearnings(in.Config.Learnings, in.Learnings),
		AlwaysOn:     AlwaysOn(c.always, in.Config.Inject.SessionBudgetBytes, c.itemCap),
		Items:        c.items,
		Buckets:      match.Index(c.items, set),
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

	items    []manifest.Item
	critical []*markdown.Item
	always   []*markdown.Item  // no triggers: delivered at session start
	byID     map[string]string // id -> file that has it
	skillOf  map[string]int    // lesson id -> the first skill that lists it
	members  [][]*markdown.Item
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

// add compiles the project's items, or a store's, in path order.
func (c *compiler) add(list []*markdown.Item, st Store) {
	global := st.Scope != Project
	sorted := append([]*markdown.Item(nil), list...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a].Path < sorted[b].Path })
	prep := c.prepare(sorted, st.Scope)
	for i, it := range sorted {
		p := &prep[i]
		fmt.Fprintf(c.h, "%s %d %d\n", it.Path, st.Scope, len(it.Raw()))
		c.h.Write(p.digest[:])
		if !global && (it.Status == "draft" || it.Status == "proposed") {
			c.rep.Drafts++
		}
		if !c.admit(it, p, st.Scope) {
			continue
		}
		switch t := p.rec.Triggers; {
		case match.Untriggered(t):
			c.always = append(c.always, it)
			c.rep.AlwaysOn++
		case it.Priority >= 9:
			c.critical = append(c.critical, it)
		case match.Never(t, int(it.Priority), c.set.Threshold) != "":
			c.rep.Dead++ // (a critical one reaches at least the session's list of critical items)
		}
		if si, ok := c.skillOf[it.ID]; ok && !global && foldable(it, c.set.MinConfidence) {
			c.members[si] = append(c.members[si], it)
			c.rep.Folded++
			continue
		}
		p.rec.Sources = c.in.Snapshot.sources(it.Path)
		c.items = append(c.items, p.rec)
		c.rep.Index = append(c.rep.Index, entry(it))
	}
}

// prepared is what the merge needs of one item, worked out for every item
// over all cores before it: the merge is serial (ids, order), and checking
// and rendering 10,000 items one at a time was most of a build
// (docs/design.md, Incremental build).
type prepared struct {
	digest [sha256.Size]byte // of the item's path and bytes
	errs   []*markdown.Error
	unsafe bool
	rec    manifest.Item // the item's record; rendered only when it has no errors
}

// prepare checks and renders the items, in parallel.
func (c *compiler) prepare(items []*markdown.Item, scope Scope) []prepared {
	out := make([]prepared, len(items))
	parallel.Each(len(items), func(i int) {
		it, p := items[i], &out[i]
		p.digest = digest(it)
		p.errs, p.unsafe = c.in.Verdicts.check(it, p.digest)
		if len(p.errs) == 0 {
			p.rec = item(it, scope, c.itemCap)
		}
	})
	return out
}

// digest identifies an item by its path and bytes.
func digest(it *markdown.Item) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(it.Path))
	h.Write([]byte{0})
	h.Write(it.Raw())
	return [sha256.Size]byte(h.Sum(nil))
}

// admit says an item is compiled, counting why not in the report: it is
// valid and safe, not disabled, its id is new (an org or user item a
// project one shadows), it is injectable (an org item only when active)
// and confident enough.
func (c *compiler) admit(it *markdown.Item, p *prepared, scope Scope) bool {
	global := scope != Project
	if global && slices.Contains(c.in.Config.Disable, it.ID) {
		c.rep.Disabled++
		return false
	}
	if len(p.errs) > 0 {
		c.rep.Excluded = append(c.rep.Excluded, Excluded{Path: it.Path, Errors: p.errs, Unsafe: p.unsafe})
		return false
	}
	if prev, dup := c.byID[it.ID]; dup {
		if global {
			c.rep.Shadowed++
		} else {
			c.rep.Excluded = append(c.rep.Excluded, Excluded{Path: it.Path, Errors: []*markdown.Error{{
				Path: it.Path, Line: it.KeyLine("id"), Key: "id", Msg: "duplicate id: " + prev + " has it too"}}})
		}
		return false
	}
	c.byID[it.ID] = it.Path
	if !it.Injectable(c.set.Drafts && scope != Org) {
		c.rep.Inactive++
		return false
	}
	if it.Confidence < c.set.MinConfidence-match.Tolerance {
		c.rep.LowConf++
		return false
	}
	return true
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
func sessionStart(critical []*markdown.Item, index []IndexEntry, drafts int) string {
	var b strings.Builder
	sort.Slice(critical, func(a, c int) bool { return markdown.MoreImportant(critical[a], critical[c]) })
	if len(critical) > 0 {
		b.WriteString("## Critical knowledge for this repository\n\n")
		for i, it := range critical {
			if i == maxCritical {
				fmt.Fprintf(&b, "(%d more critical items: `lore list --priority critical`)\n\n", len(critical)-maxCritical)
				break
			}
			fmt.Fprintf(&b, "### %s\n%s\n(%s)\n\n", Sanitize(it.Title), FixText(it), it.Path)
		}
	}
	if len(index) > 0 {
		b.WriteString(RenderIndex(index, DefaultIndexBytes).Text)
		b.WriteString("\n")
	}
	if drafts > 0 {
		fmt.Fprintf(&b, "%d draft item(s) await review: `lore review`.\n", drafts)
	}
	return b.String()
}
