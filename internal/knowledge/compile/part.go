package compile

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Part is an organisation source compiled on its own, once for each
// commit fetched (docs/design.md, Incremental build): a manifest of its
// items that the hook reads beside the project's, and a summary of what
// the project's build needs of them to merge (ids, statuses, the
// session's lists), so that no file of the source is stat'ed, read or
// parsed again. A checkout never changes: a new commit is a new folder.
type Part struct {
	Path    string   // the part's manifest file
	Hash    [32]byte // its manifest's Source.Hash
	Skipped []string // the source's files that could not be read or parsed

	items  []partItem // every item file of the source, in path order
	always []*Known   // the items without triggers, whole: the session shows them
	// critical and entries are the critical items' titles and fixes and
	// the index lines of the part's items, encoded in the order the
	// session lists them: a build decodes the few it can show.
	critical, entries string
}

// partItem is what a project's merge reads of one file of a source.
type partItem struct {
	Facts
	in     bool // the part compiled it
	class  byte // classAlways, classCritical, classDead or 0
	always int  // its index in Part.always, -1 for none
}

// How an admitted item reaches the session (compiler.classify).
const (
	classAlways   = 1 + iota // without triggers: the always-on block
	classCritical            // listed at session start
	classDead                // its triggers can never reach the threshold
)

// classOf says how an admitted item reaches the session, 0 for by its
// triggers alone.
func classOf(k *Known, threshold float64) byte {
	switch t := k.Rec.Triggers; {
	case match.Untriggered(t):
		return classAlways
	case k.Priority >= 9:
		return classCritical
	case match.Never(t, k.Priority, threshold) != "":
		return classDead // (a critical one reaches at least the session's list of critical items)
	}
	return 0
}

// PartKey names the part of the store folder dir (a checkout of one
// commit) under the settings and the binary (salt) that shape it:
// another lore, or a project with another threshold, minimum confidence
// or record size, compiles another part.
func PartKey(salt string, set manifest.Settings, dir string) string {
	h := sha256.New()
	fmt.Fprintf(h, "lore part %d %d\n%s\n%+v\n%s", manifest.Version, Revision, salt, partSettings(set), dir)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// partSettings are the settings that shape a part: the records' size cap
// (rendering), the threshold (the index leaves out what can never reach
// it; the session's count of items that never fire) and the minimum
// confidence (admission). The others act at the hook, under the
// project's manifest.
func partSettings(set manifest.Settings) manifest.Settings {
	return manifest.Settings{BudgetBytes: ItemCap(set), Threshold: set.Threshold, MinConfidence: set.MinConfidence}
}

// ReadPart reads every file of a source (over all cores) into what a part
// is compiled from, and the messages of the files that could not be read
// or parsed.
func ReadPart(files []File, st Store, itemCap int) (known []*Known, skipped []string) {
	c := LoadCache(nil, "", itemCap)
	for _, err := range c.Read(files, st) {
		skipped = append(skipped, err.Error())
	}
	return c.fresh[st.Name], skipped
}

// NewPart compiles a source's files (known) into its part, saved at
// path, and the part's manifest: the items any project would compile of
// the source before its own disable list and the ids it shadows (which
// the project's manifest switches off: manifest.Part.Off). Admission is
// the project build's own, so the part holds every item a project can
// take from it.
func NewPart(path string, known []*Known, skipped []string, set manifest.Settings) (*Part, manifest.Source) {
	set = partSettings(set)
	sort.Slice(known, func(a, b int) bool { return known[a].Path < known[b].Path })
	h := sha256.New()
	fmt.Fprintf(h, "lore part %d %d %+v\n", manifest.Version, Revision, set)
	p := &Part{Path: path, Skipped: skipped, items: make([]partItem, len(known))}
	pc := &compiler{set: set, byID: map[string]string{}} // nothing before it, nothing disabled
	pc.shared = sharedIDs(len(known), func(i int) *Facts { return &known[i].Facts })
	var items []manifest.Item
	var entries []partEntry
	var critical []int
	for i, k := range known {
		fmt.Fprintf(h, "%s %d\n", k.Path, k.Len)
		h.Write(k.Digest[:])
		it := partItem{Facts: k.Facts, always: -1}
		if it.in = pc.admit(&k.Facts, Org); it.in {
			items = append(items, k.Rec)
			entries = append(entries, partEntry{i, k.Entry})
			switch it.class = classOf(k, set.Threshold); it.class {
			case classAlways:
				it.always = len(p.always)
				p.always = append(p.always, &Known{Facts: k.Facts, Scope: Org, Entry: k.Entry, Rec: manifest.Item{Text: k.Rec.Text}})
			case classCritical:
				critical = append(critical, i)
			}
		}
		p.items[i] = it
	}
	p.critical = encodeCritical(known, critical)
	p.entries = encodeEntries(entries)
	src := manifest.Source{Revision: Revision, Settings: set, Items: items, Buckets: match.Index(items, set)}
	copy(src.Hash[:], h.Sum(nil))
	p.Hash = src.Hash
	return p, src
}

// addPart merges a compiled source: its items are counted, listed for the
// session and shadow later ones as the source's files would, but stay in
// the part's manifest, where the ones this project leaves out (disabled,
// or shadowed by an earlier item of the same id) are switched off.
func (c *compiler) addPart(st Store) {
	p := st.Part
	fmt.Fprintf(c.h, "part %s %x\n", st.Name, p.Hash)
	admitted := make([]bool, len(p.items))
	c.shared = sharedIDs(len(p.items), func(i int) *Facts { return &p.items[i].Facts })
	n := 0 // admitted
	var off []string
	for i := range p.items {
		it := &p.items[i]
		if !c.admit(&it.Facts, Org) {
			if it.in {
				off = append(off, it.ID)
			}
			continue
		}
		admitted[i] = true
		n++
		switch it.class {
		case classAlways:
			c.list(it.class, p.always[it.always])
		case classCritical:
			c.unlistedCritical++ // until criticalPart lists it
		default:
			c.list(it.class, nil)
		}
	}
	c.rep.Compiled += n
	c.criticalPart(p, admitted)
	c.indexPart(p, admitted, n)
	slices.Sort(off)
	c.parts = append(c.parts, manifest.Part{Path: p.Path, Hash: p.Hash, Off: slices.Compact(off)})
}

// indexPart lists a part's admitted items in the index: those the
// session's index can show (RenderIndex takes lines most important first
// while they fit, so a line after a budget's worth of the part's own
// cannot show), and a count of the others (of all n admitted).
func (c *compiler) indexPart(p *Part, admitted []bool, n int) {
	d := &knownDecoder{s: p.entries}
	used, listed := 0, 0
	for d.s != "" && used <= DefaultIndexBytes {
		i, e := int(d.uvarint()), d.entry()
		if d.err != nil || i >= len(admitted) {
			break
		}
		if admitted[i] {
			c.rep.Index = append(c.rep.Index, e)
			used += len(line(e))
			listed++
		}
	}
	c.unlisted += n - listed
}

// criticalPart lists a part's admitted critical items that the session
// can show: the first maxCritical, most important first (the session
// shows the most important of every store's).
func (c *compiler) criticalPart(p *Part, admitted []bool) {
	d := &knownDecoder{s: p.critical}
	for listed := 0; d.s != "" && listed < maxCritical; {
		i := int(d.uvarint())
		title, fix := d.str(), d.str()
		if d.err != nil || i >= len(admitted) {
			return
		}
		if admitted[i] {
			c.critical = append(c.critical, &Known{Facts: p.items[i].Facts, Scope: Org, Entry: IndexEntry{Title: title}, Fix: fix})
			c.unlistedCritical--
			listed++
		}
	}
}

// encodeCritical encodes the critical items (indexes into known) most
// important first, each as its index, title and fix.
func encodeCritical(known []*Known, critical []int) string {
	sort.Slice(critical, func(a, b int) bool { return moreImportant(known[critical[a]], known[critical[b]]) })
	var b []byte
	for _, i := range critical {
		b = binary.AppendUvarint(b, uint64(i))
		b = appendStr(appendStr(b, known[i].Entry.Title), known[i].Fix)
	}
	return string(b)
}

type partEntry struct {
	item  int // in Part.items
	entry IndexEntry
}

// encodeEntries encodes the index lines in the index's order.
func encodeEntries(es []partEntry) string {
	sort.Slice(es, func(a, b int) bool { return indexBefore(es[a].entry, es[b].entry) })
	var b []byte
	for _, e := range es {
		b = binary.AppendUvarint(b, uint64(e.item))
		b = appendEntry(b, e.entry)
	}
	return string(b)
}

// The summary of a part, saved beside its manifest: the manifest's hash,
// the stat its file had once written (a summary whose manifest was
// replaced or removed is not used), the files that could not be read,
// each file's facts, the items listed whole, and the index lines.
const partMagic = "LOREPART1\x00"

var errPart = errors.New("compile: part summary cut short or malformed")

// EncodePart encodes a part's summary; file is the stat of its manifest
// file as written.
func EncodePart(p *Part, file manifest.Stat) []byte {
	b := append([]byte(partMagic), p.Hash[:]...)
	b = appendStat(b, file)
	b = appendList(b, p.Skipped)
	b = binary.AppendUvarint(b, uint64(len(p.items)))
	for _, it := range p.items {
		b = appendFacts(b, it.Facts)
		b = append(b, flags(it.in), it.class)
		b = binary.AppendUvarint(b, uint64(it.always+1))
	}
	b = appendStr(b, string(encodeKnown("", p.always)))
	b = appendStr(b, p.critical)
	return appendStr(b, p.entries)
}

// DecodePart reads the summary of the part whose manifest is at path, and
// returns it with the stat its manifest file had when it was written.
// The part's strings slice data, which the caller must not change.
func DecodePart(data []byte, path string) (*Part, manifest.Stat, error) {
	d := &knownDecoder{s: bytesString(data)}
	if d.take(uint64(len(partMagic))) != partMagic {
		return nil, manifest.Stat{}, errPart
	}
	p := &Part{Path: path}
	copy(p.Hash[:], d.take(uint64(len(p.Hash))))
	st := d.stat()
	p.Skipped = d.list()
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		return nil, manifest.Stat{}, errPart
	}
	p.items = make([]partItem, n)
	for i := range p.items {
		it := &p.items[i]
		it.Facts = d.facts()
		it.in, it.class = d.byte()&1 != 0, d.byte()
		it.always = int(d.uvarint()) - 1
	}
	always, err := decodeKnown(d.str(), "")
	p.critical, p.entries = d.str(), d.str()
	if d.err != nil || err != nil || d.s != "" {
		return nil, manifest.Stat{}, errPart
	}
	for _, it := range p.items {
		if it.always >= len(always) || (it.class == classAlways && it.always < 0) {
			return nil, manifest.Stat{}, errPart
		}
	}
	p.always = always
	return p, st, nil
}

func appendFacts(b []byte, f Facts) []byte {
	b = appendStr(appendStr(appendStr(b, f.Path), f.ID), f.Status)
	b = binary.AppendVarint(b, int64(f.Priority))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f.Confidence))
	b = binary.AppendUvarint(b, uint64(f.IDLine))
	b = binary.AppendUvarint(b, uint64(len(f.Errs)))
	for _, e := range f.Errs {
		b = appendStr(b, e.Path)
		b = binary.AppendUvarint(b, uint64(e.Line))
		b = appendStr(appendStr(b, e.Key), e.Msg)
	}
	return append(b, flags(f.Unsafe))
}

func (d *knownDecoder) facts() Facts {
	f := Facts{Path: d.str(), ID: d.str(), Status: d.str(), Priority: int(d.varint())}
	f.Confidence = math.Float64frombits(d.u64())
	f.IDLine = int(d.uvarint())
	if n := d.uvarint(); n > 0 && n <= uint64(len(d.s)) {
		f.Errs = make([]*markdown.Error, n)
		for i := range f.Errs {
			f.Errs[i] = &markdown.Error{Path: d.str(), Line: int(d.uvarint()), Key: d.str(), Msg: d.str()}
		}
	} else if n > 0 {
		d.fail()
	}
	f.Unsafe = d.byte()&1 != 0
	return f
}

func appendEntry(b []byte, e IndexEntry) []byte {
	for _, s := range []string{e.ID, e.Kind, e.Title, e.Status, e.Area, e.File} {
		b = appendStr(b, s)
	}
	return binary.AppendVarint(b, int64(e.Priority))
}

func (d *knownDecoder) entry() IndexEntry {
	return IndexEntry{ID: d.str(), Kind: d.str(), Title: d.str(), Status: d.str(), Area: d.str(), File: d.str(), Priority: int(d.varint())}
}
