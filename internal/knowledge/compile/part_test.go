package compile

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/synthetic"
)

// partStores is a project, an organisation source and a user's store
// made of realistic items (internal/synthetic), with everything the merge
// decides on: org items disabled, shadowed by the project's ids, a
// duplicate id inside the source, a draft, one with errors, items without
// triggers, and a user item the source shadows. The most important of
// the source's critical items are the ones left out, so the session's
// lists must look past them.
func partStores(t *testing.T) (proj, org, user []*markdown.Item, cfg config.Config) {
	t.Helper()
	files := synthetic.Files(400)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	parse := func(path string, data []byte) *markdown.Item {
		it, err := markdown.Parse(path, data)
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	for i, p := range paths {
		if i < 100 {
			proj = append(proj, parse(p, files[p]))
		} else {
			org = append(org, parse("acme:"+strings.TrimPrefix(p, ".lore/"), files[p]))
		}
	}
	always := "---\nid: %s\nkind: lesson\ntitle: Always %s\nstatus: active\npriority: high\n---\n## Fix\nKeep the %s rule.\n"
	proj = append(proj, parse(".lore/lessons/zz-always.md", fmt.Appendf(nil, always, "01JRQPART00000000000000AP1", "p", "p")))
	org = append(org, parse("acme:lessons/zz-always.md", fmt.Appendf(nil, always, "01JRQPART00000000000000A01", "o", "o")),
		parse("acme:lessons/zz-bad.md", fmt.Appendf(nil, strings.Replace(always, "active", "bogus", 1), "01JRQPART00000000000000B01", "bad", "bad")))

	var critical []*markdown.Item
	for _, it := range org {
		if it.Priority >= 9 {
			critical = append(critical, it)
		}
	}
	sort.Slice(critical, func(a, b int) bool { return markdown.MoreImportant(critical[a], critical[b]) })
	if len(critical) < 12 {
		t.Fatalf("the source has %d critical items, want a dozen", len(critical))
	}
	cfg = config.Default()
	cfg.Disable = []string{critical[0].ID, critical[2].ID, org[7].ID}
	proj[0].ID, proj[1].ID = critical[1].ID, critical[3].ID // shadowed by the project
	org[20].ID = org[10].ID                                 // twice in the source: the first is kept
	org[30].Status = "draft"
	user = []*markdown.Item{
		parse("user:lessons/mine.md", fmt.Appendf(nil, always, "01JRQPART00000000000000U01", "u", "u")),
		parse("user:lessons/dup.md", fmt.Appendf(nil, always, org[40].ID, "dup", "dup")),
	}
	return proj, org, user, cfg
}

// A build with the source as a part merges as a build of every file: the
// same counts, the same session text and always-on block, and the
// manifest's items plus the part's (less those it switches off) are the
// whole build's items. The part goes through its summary's encoding, as
// a later build reads it.
func TestPartMergesAsTheWholeStore(t *testing.T) {
	proj, org, user, cfg := partStores(t)
	set := Settings(cfg)
	orgStore, userStore := Store{Scope: Org, Name: "acme"}, Store{Scope: User, Name: "user", Items: user}
	whole := orgStore
	whole.Items = org
	wantSrc, want := Compile(Input{Items: proj, Stores: []Store{whole, userStore}, Config: cfg})

	known := make([]*Known, len(org))
	for i, it := range org {
		known[i] = know(it, orgStore, ItemCap(set))
	}
	p, partSrc := NewPart("/cache/acme.part", known, nil, set)
	decoded, _, err := DecodePart(EncodePart(p, manifest.Stat{Size: 7}), p.Path)
	if err != nil {
		t.Fatal(err)
	}
	withPart := orgStore
	withPart.Part = decoded
	gotSrc, got := Compile(Input{Items: proj, Stores: []Store{withPart, userStore}, Config: cfg})

	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"counts", counts(got), counts(want)}, {"aside", got.Aside, want.Aside}, {"excluded", got.Excluded, want.Excluded},
		{"session text", gotSrc.SessionStart, wantSrc.SessionStart}, {"always-on block", gotSrc.AlwaysOn, wantSrc.AlwaysOn},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: with the part\n%v\nwhole\n%v", c.what, c.got, c.want)
		}
	}
	if len(gotSrc.Parts) != 1 || gotSrc.Parts[0].Hash != partSrc.Hash || gotSrc.Parts[0].Path != p.Path {
		t.Fatalf("parts %+v", gotSrc.Parts)
	}
	off := gotSrc.Parts[0].Off
	var ids []string
	for _, it := range gotSrc.Items {
		ids = append(ids, it.ID)
	}
	for _, it := range partSrc.Items {
		if _, found := slices.BinarySearch(off, it.ID); !found {
			ids = append(ids, it.ID)
		}
	}
	var wantIDs []string
	for _, it := range wantSrc.Items {
		wantIDs = append(wantIDs, it.ID)
	}
	slices.Sort(ids)
	slices.Sort(wantIDs)
	if !slices.Equal(ids, wantIDs) {
		t.Fatalf("items: %d with the part, %d whole", len(ids), len(wantIDs))
	}
	if len(off) != 5 || !strings.Contains(wantSrc.SessionStart, "more critical items") {
		t.Fatalf("the part switches off %v; the session lists %q", off, wantSrc.SessionStart)
	}
}

// counts are a report's numbers.
func counts(r Report) [9]int {
	return [9]int{r.Compiled, len(r.Excluded), r.Inactive, r.LowConf, r.Drafts, r.Shadowed, r.Disabled, r.AlwaysOn, r.Dead}
}

// A summary cut short, or of another format, is refused, never read in
// part; the stat of the manifest it names comes back as written.
func TestPartSummaryRefusesDamage(t *testing.T) {
	_, org, _, cfg := partStores(t)
	set := Settings(cfg)
	known := make([]*Known, len(org))
	for i, it := range org {
		known[i] = know(it, Store{Scope: Org, Name: "acme"}, ItemCap(set))
	}
	p, _ := NewPart("/cache/acme.part", known, []string{"acme:lessons/x.md: cannot parse"}, set)
	stat := manifest.Stat{Ino: 3, Size: 99, Mtime: 5, Ctime: 6}
	data := EncodePart(p, stat)
	got, gotStat, err := DecodePart(slices.Clone(data), p.Path)
	if err != nil || gotStat != stat || !slices.Equal(got.Skipped, p.Skipped) || len(got.items) != len(p.items) {
		t.Fatalf("round trip: %v, %+v", err, gotStat)
	}
	for _, n := range []int{0, 10, len(partMagic) + 40, len(data) / 2, len(data) - 1} {
		if _, _, err := DecodePart(slices.Clone(data[:n]), p.Path); err == nil {
			t.Errorf("a summary cut to %d bytes was read", n)
		}
	}
}

// Of items of one priority, the session lists the project's before an
// organisation's, as on equal scores: a large org store, whose older
// ids sort first, does not push the project's own out of the critical
// list or the index.
func TestSessionListsTheProjectFirst(t *testing.T) {
	doc := "---\nid: %s\nkind: lesson\ntitle: %s\nstatus: active\npriority: critical\ntriggers:\n  tools: [Bash]\n  commands: ['\\b%s\\b']\n---\n## Fix\nDo %s right.\n"
	parse := func(path, id, name string) *markdown.Item {
		it, err := markdown.Parse(path, fmt.Appendf(nil, doc, id, "Critical "+name, name, name))
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	var org []*markdown.Item
	for i := range 8 {
		org = append(org, parse(fmt.Sprintf("acme:lessons/o%d.md", i), fmt.Sprintf("01JRQABC000000000000000%03d", i), fmt.Sprintf("orgtool%d", i)))
	}
	proj := []*markdown.Item{parse(".lore/lessons/p.md", "01JRQZZZ00000000000000000P", "projtool")}
	src, _ := Compile(Input{Items: proj, Stores: []Store{{Scope: Org, Name: "acme", Items: org}}, Config: config.Default()})
	critical := src.SessionStart[:strings.Index(src.SessionStart, "(4 more critical items")]
	if !strings.Contains(critical, "### Critical projtool") {
		t.Fatalf("the project's critical item is not in the session's list:\n%s", critical)
	}
	index := src.SessionStart[strings.Index(src.SessionStart, "## Knowledge index"):]
	if p, o := strings.Index(index, "Critical projtool"), strings.Index(index, "Critical orgtool0"); p < 0 || o < 0 || p > o {
		t.Fatalf("the index lists the project's item after the org's:\n%s", index)
	}
}
