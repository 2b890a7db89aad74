// Package compile turns a store's knowledge items and its config into the
// manifest the agent hook reads: it selects the injectable items, validates
// their triggers, renders their injection text by form, strips invisible
// unicode, caps sizes, merges the user's global items, pre-renders the
// SessionStart block, and plans the manifest's index with match.Index.
package compile

import (
	"crypto/sha256"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lore-agents/lore/config"
	"github.com/lore-agents/lore/lint"
	"github.com/lore-agents/lore/manifest"
	"github.com/lore-agents/lore/markdown"
	"github.com/lore-agents/lore/match"
)

// Revision changes whenever compile's output for the same files changes
// (rendering, planning); it is part of the source hash and the manifest,
// and a manifest of another revision is rebuilt.
const Revision uint32 = 5

// Input is what a build reads.
type Input struct {
	Items  []*markdown.Item // the project's items (paths repo-relative)
	Global []*markdown.Item // the user's global items (paths as shown, e.g. ~/.config/lore/...)
	Config config.Config
	Skills []Skill // the skill documents of .lore/skills (lore aggregate)
	// Learnings is the learnings file (Config.Learnings), for the recent
	// learnings SessionStart shows.
	Learnings []byte
	// Snapshot is the stat of the sources, taken before they were read.
	Snapshot Snapshot
}

// Report says what a build compiled and what it left out, and why.
type Report struct {
	Compiled int
	Excluded []Excluded // items with errors: never compiled
	Inactive int        // not injectable by status (drafts unless inject.drafts, deprecated, ...)
	LowConf  int        // below inject.minConfidence
	Drafts   int        // project drafts awaiting review
	Shadowed int        // global items whose id the project also has
	Folded   int        // lessons compiled under a skill's record
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
	var rep Report
	itemCap := min(MaxItemBytes, set.BudgetBytes)
	if itemCap < 256 {
		itemCap = 256
	}

	var items []manifest.Item
	var critical []*markdown.Item
	byID := map[string]string{} // id -> file that has it
	h := sha256.New()
	fmt.Fprintf(h, "lore manifest %d compile %d\n", manifest.Version, Revision)
	fmt.Fprintf(h, "%+v\n", set)
	fmt.Fprintf(h, "learnings %s %d\n", in.Config.Learnings, len(in.Learnings))
	h.Write(in.Learnings)

	// Lessons a skill document lists are compiled under the skill's record.
	skillOf := map[string]int{}
	for i, sk := range in.Skills {
		fmt.Fprintf(h, "skill %s %s %s %q\n", sk.Path, sk.ID, sk.Tool, sk.Lessons)
		for _, id := range sk.Lessons {
			if _, dup := skillOf[id]; !dup {
				skillOf[id] = i
			}
		}
	}
	members := make([][]*markdown.Item, len(in.Skills))

	add := func(list []*markdown.Item, global bool) {
		sorted := append([]*markdown.Item(nil), list...)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a].Path < sorted[b].Path })
		for _, it := range sorted {
			fmt.Fprintf(h, "%s %t %d\n", it.Path, global, len(it.Raw()))
			h.Write(it.Raw())
			if !global && (it.Status == "draft" || it.Status == "proposed") {
				rep.Drafts++
			}
			if errs, unsafe := check(it); len(errs) > 0 {
				rep.Excluded = append(rep.Excluded, Excluded{Path: it.Path, Errors: errs, Unsafe: unsafe})
				continue
			}
			if prev, dup := byID[it.ID]; dup {
				if global {
					rep.Shadowed++
				} else {
					rep.Excluded = append(rep.Excluded, Excluded{Path: it.Path, Errors: []*markdown.Error{{
						Path: it.Path, Line: it.KeyLine("id"), Key: "id", Msg: "duplicate id: " + prev + " has it too"}}})
				}
				continue
			}
			byID[it.ID] = it.Path
			if !it.Injectable(set.Drafts) {
				rep.Inactive++
				continue
			}
			if it.Confidence < set.MinConfidence-match.Tolerance {
				rep.LowConf++
				continue
			}
			if it.Priority >= 9 {
				critical = append(critical, it)
			}
			if si, ok := skillOf[it.ID]; ok && !global && foldable(it, set.MinConfidence) {
				members[si] = append(members[si], it)
				rep.Folded++
				continue
			}
			m := item(it, global, itemCap)
			m.Sources = in.Snapshot.sources(it.Path)
			items = append(items, m)
			rep.Index = append(rep.Index, entry(it))
		}
	}
	add(in.Items, false)
	add(in.Global, true)
	for i, sk := range in.Skills {
		if len(members[i]) > 0 {
			m, e := skillItem(sk, members[i], itemCap)
			paths := []string{sk.Path}
			for _, it := range members[i] {
				paths = append(paths, it.Path)
			}
			m.Sources = in.Snapshot.sources(paths...)
			items = append(items, m)
			rep.Index = append(rep.Index, e)
		}
	}
	rep.Compiled = len(items)

	src := manifest.Source{
		Revision:     Revision,
		Watch:        in.Snapshot.Watch,
		Files:        in.Snapshot.Files,
		Settings:     set,
		SessionStart: sessionStart(critical, rep.Index, rep.Drafts) + RecentLearnings(in.Config.Learnings, in.Learnings),
		Items:        items,
		Buckets:      match.Index(items, set),
	}
	copy(src.Hash[:], h.Sum(nil))
	return src, rep
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

func item(it *markdown.Item, global bool, itemCap int) manifest.Item {
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
	m := manifest.Item{
		ID: it.ID, Kind: it.Kind, Title: Sanitize(it.Title), File: it.Path, Status: it.Status,
		Priority: int(it.Priority), Confidence: it.Confidence, Global: global,
		Deny: it.Enforce == "deny" && it.Priority >= 9 && it.Status == "active",
		Triggers: manifest.Triggers{
			Tools: clean(t.Tools), Commands: clean(t.Commands), Unless: clean(t.Unless),
			Paths: clean(t.Paths), Content: clean(t.Content), Keywords: clean(t.Keywords), Topics: clean(t.Topics),
		},
		Text: Render(it, it.Path, itemCap),
	}
	if m.Deny {
		m.Fix = FixText(it)
	}
	if math.IsNaN(m.Confidence) {
		m.Confidence = 0
	}
	return m
}

// maxCritical caps the critical items of the SessionStart block.
const maxCritical = 5

// sessionStart renders the SessionStart block: the top critical items with
// their fix, a compact index of what is compiled, and the drafts count.
func sessionStart(critical []*markdown.Item, index []IndexEntry, drafts int) string {
	var b strings.Builder
	sort.Slice(critical, func(a, c int) bool {
		x, y := critical[a], critical[c]
		if x.Priority != y.Priority {
			return x.Priority > y.Priority
		}
		if x.Confidence != y.Confidence {
			return x.Confidence > y.Confidence
		}
		return x.ID < y.ID
	})
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
