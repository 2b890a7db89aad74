package manifest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Layout (little endian; every offset is from the start of the file):
//
//	header   headerSize bytes, see the h* constants
//	watch    the watched sources (see fresh.go), next to the header: every
//	         hook call reads them, and a page fault costs microseconds
//	dir      per bucket: uvarint name length, name, alwaysOff, alwaysN, alwaysCRC, tableOff, tableSlots, flags (u32)
//	parts    the parts read beside this manifest (Source.Parts; empty when
//	         none): uvarint count, then per part its path (uvarint length,
//	         bytes), its hash (32 bytes) and its switched-off ids, sorted:
//	         uvarint count n, n+1 u32 offsets of their ends (the first 0),
//	         the ids end to end (see idSet); checksummed by hPartsCRC.
//	         Next to the directory: every call that opens the manifest
//	         reads it
//	postings always lists (u32 item indexes), pooled literals (uvarint length,
//	         bytes, crc u32) and gram posting lists ({item, literal offset} u32
//	         pairs, then a crc u32; literal offsets relative to this section,
//	         whose start is hPostBase)
//	tables   per bucket, tableSlots slots of {key, postOff, postN, crc u32}, open addressing
//	itemTab  nItems u32 record offsets; records are ordered by id
//	records  {len u32, crc u32, payload}; the payload starts with the record's
//	         own index, so a damaged itemTab entry cannot swap items unnoticed
//	headTab  nItems u32 head offsets
//	heads    {len u32, crc u32, payload} as records: index, flags, id and
//	         the required literals of each command pattern. Dense, so a call
//	         that skips candidates it showed already, or whose literals are
//	         missing, reads their heads from a few pages instead of a page
//	         fault per record across the file
//	texts    injection texts and fixes, referenced by (off, len, crc) from records
//	session  the always-on block, a NUL byte, the rest of the SessionStart block
//	files    the item files' stat entries (see fresh.go)
//
// Every byte the hook can act on is under a checksum that it checks before
// acting: header and directory at Open, each slot it probes, each posting
// list, literal, always list, record, text and source entry it reads.
const (
	magic      = "LOREMAN\x00"
	headerSize = 164

	hVersion    = 8
	hFileSize   = 16
	hHash       = 24
	hBudget     = 56
	hMaxItems   = 60
	hReinject   = 64
	hDrafts     = 68
	hThreshold  = 72
	hMinConf    = 80
	hNItems     = 88
	hNBuckets   = 92
	hDirOff     = 96
	hDirLen     = 100
	hItemTab    = 104
	hSessionOff = 108
	hSessionLen = 112
	hSessionCRC = 116
	hHeaderCRC  = 120
	hPostBase   = 124
	hRevision   = 128
	hWatchOff   = 132
	hWatchLen   = 136
	hFilesOff   = 140
	hFilesLen   = 144
	hHeadTab    = 148
	hPartsOff   = 152
	hPartsLen   = 156
	hPartsCRC   = 160

	slotSize = 16
	gramLen  = 3
	kindTgt  = 1
	kindKw   = 2
	kindEdit = 3 // grams of the text an edit adds

	dirEntrySize = 24
	flagEdits    = 1 // the bucket has items with content triggers
)

// Build encodes a manifest. The bytes depend only on src: the same items
// and settings give the same bytes.
func Build(src Source) ([]byte, error) {
	b := &builder{src: src, lits: map[string]uint32{}}
	if err := b.sortItems(); err != nil {
		return nil, err
	}
	// The buckets and the records fill sections of their own, so they are
	// written side by side: the buckets were a quarter of the manifest's
	// time at 10,000 items.
	var wg sync.WaitGroup
	var bucketsErr error
	wg.Go(func() { bucketsErr = b.buckets() })
	watch, files, fileOffs := encodeFresh(src)
	recordsErr := b.records(fileOffs)
	wg.Wait()
	if err := cmp.Or(bucketsErr, recordsErr); err != nil {
		return nil, err
	}
	parts, err := encodeParts(src.Parts)
	if err != nil {
		return nil, err
	}
	d := b.directory()
	lay := b.layout(len(watch), len(d), len(parts), len(files))
	if lay.total > math.MaxUint32 {
		return nil, fmt.Errorf("manifest: %d bytes is too large", lay.total)
	}
	b.fixDirectory(d, lay)
	tb := b.fixTables(lay)
	rb := b.fixRecords(lay)
	hb := b.heads.Bytes()

	out := b.header(lay, len(d), len(watch), len(files))
	binary.LittleEndian.PutUint32(out[hPartsLen:], uint32(len(parts)))
	binary.LittleEndian.PutUint32(out[hPartsCRC:], sum32(parts))
	out = append(out, watch...)
	out = append(out, d...)
	binary.LittleEndian.PutUint32(out[hHeaderCRC:], headerCRC(out[:headerSize], d))
	out = append(out, parts...)
	out = append(out, b.post.Bytes()...)
	out = append(out, tb...)
	for _, o := range b.recOffs {
		out = binary.LittleEndian.AppendUint32(out, uint32(lay.recs)+o)
	}
	out = append(out, rb...)
	for _, o := range b.headOffs {
		out = binary.LittleEndian.AppendUint32(out, uint32(lay.heads)+o)
	}
	out = append(out, hb...)
	out = append(out, b.texts.Bytes()...)
	out = append(out, sessionSection(src)...)
	out = append(out, files...)
	return out, nil
}

// builder holds the sections of a manifest being built. Offsets inside
// post, tables, recs and texts are relative; they are fixed up once the
// section sizes are known.
type builder struct {
	src    Source
	order  []int // order[new] = old: items in id order
	newIdx []int // newIdx[old] = new

	post, tables, recs, heads, texts bytes.Buffer
	lits                             map[string]uint32 // literal -> offset in post
	dir                              []dirEntry
	tableFixes                       []int    // positions of postOff fields in tables
	recOffs                          []uint32 // each record's offset in recs
	headOffs                         []uint32 // each head's offset in heads
	textFixes                        []int    // positions of text offsets in recs
}

type dirEntry struct {
	name                                              string
	alwaysOff, alwaysN, alwaysCRC, tableOff, tableLen uint32
	flags                                             uint32
}

// sortItems orders the items by id, which must be unique.
func (b *builder) sortItems() error {
	items := b.src.Items
	n := len(items)
	b.order = make([]int, n)
	for i := range b.order {
		b.order[i] = i
	}
	sort.SliceStable(b.order, func(x, y int) bool { return items[b.order[x]].ID < items[b.order[y]].ID })
	b.newIdx = make([]int, n)
	for nw, old := range b.order {
		if nw > 0 && items[old].ID == items[b.order[nw-1]].ID {
			return fmt.Errorf("manifest: duplicate id %s", items[old].ID)
		}
		b.newIdx[old] = nw
	}
	return nil
}

// buckets writes each bucket's always list, posting lists and gram table,
// in tool order.
func (b *builder) buckets() error {
	buckets := append([]Bucket(nil), b.src.Buckets...)
	sort.Slice(buckets, func(x, y int) bool { return buckets[x].Tool < buckets[y].Tool })
	b.dir = make([]dirEntry, 0, len(buckets))
	for bi, bk := range buckets {
		if bi > 0 && bk.Tool == buckets[bi-1].Tool {
			return fmt.Errorf("manifest: duplicate bucket %q", bk.Tool)
		}
		b.dir = append(b.dir, b.bucket(bk))
	}
	return nil
}

func (b *builder) bucket(bk Bucket) dirEntry {
	always := map[int]bool{}
	for _, i := range bk.Always {
		always[i] = true
	}
	grams := map[uint32][]posting{}
	addGates(grams, always, kindTgt, bk.Target)
	addGates(grams, always, kindKw, bk.Keyword)
	addGates(grams, always, kindEdit, bk.Content)

	e := dirEntry{name: bk.Tool, alwaysOff: uint32(b.post.Len())}
	if bk.Edits {
		e.flags = flagEdits
	}
	n, crc := writeList(&b.post, always, b.newIdx)
	e.alwaysN, e.alwaysCRC = uint32(n), crc
	if len(grams) > 0 {
		e.tableOff, e.tableLen = b.table(grams)
	}
	return e
}

// addGates files each gate under the rarest gram of each of its literals;
// a gate with a literal too short for a gram is always a candidate.
func addGates(grams map[uint32][]posting, always map[int]bool, kind uint32, gates []Gate) {
	freq := map[uint32]int{}
	for _, g := range gates {
		for _, lit := range g.Literals {
			for _, k := range distinctGrams(kind, lit) {
				freq[k]++
			}
		}
	}
	for _, g := range gates {
		keys, ok := gateKeys(freq, kind, g)
		if !ok {
			always[g.Item] = true
			continue
		}
		for j, k := range keys {
			grams[k] = append(grams[k], posting{item: g.Item, lit: lowerString(g.Literals[j])})
		}
	}
}

// gateKeys is the rarest gram of each of the gate's literals (the
// smallest key among equals); false when the gate has no literal or one
// has no gram.
func gateKeys(freq map[uint32]int, kind uint32, g Gate) ([]uint32, bool) {
	var keys []uint32
	for _, lit := range g.Literals {
		gs := distinctGrams(kind, lit)
		if len(gs) == 0 {
			return nil, false
		}
		best := gs[0]
		for _, k := range gs[1:] {
			if freq[k] < freq[best] || freq[k] == freq[best] && k < best {
				best = k
			}
		}
		keys = append(keys, best)
	}
	return keys, len(g.Literals) > 0
}

// table writes the posting lists of the grams and an open-addressing
// table of them; it returns the table's offset in tables and its slots.
func (b *builder) table(grams map[uint32][]posting) (off, slots uint32) {
	n := 4
	for n < 2*len(grams) {
		n *= 2
	}
	table := make([]byte, n*slotSize)
	keys := make([]uint32, 0, len(grams))
	for k := range grams {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(x, y int) bool { return keys[x] < keys[y] })
	for _, k := range keys {
		off, cnt := writePostings(&b.post, grams[k], b.newIdx, b.lits)
		s := slotOf(k, n)
		for binary.LittleEndian.Uint32(table[s*slotSize:]) != 0 {
			s = (s + 1) & (n - 1)
		}
		binary.LittleEndian.PutUint32(table[s*slotSize:], k)
		binary.LittleEndian.PutUint32(table[s*slotSize+4:], off)
		binary.LittleEndian.PutUint32(table[s*slotSize+8:], uint32(cnt))
		b.tableFixes = append(b.tableFixes, b.tables.Len()+s*slotSize+4)
	}
	off = uint32(b.tables.Len())
	b.tables.Write(table)
	return off, uint32(n)
}

// recordGuess is about a record's size without its texts, to size the
// record section once.
const recordGuess = 192

// records writes the items' records and texts, in id order.
func (b *builder) records(fileOffs []uint32) error {
	b.recOffs = make([]uint32, len(b.order))
	b.headOffs = make([]uint32, len(b.order))
	heads := make([][]byte, len(b.order))
	// The texts are most of the file: sized once, the buffer is not
	// copied as it grows (a fifth of a 10,000-item build's page faults).
	texts := 0
	for _, it := range b.src.Items {
		texts += len(it.Text) + len(it.Fix)
	}
	b.texts.Grow(texts)
	b.recs.Grow(len(b.order) * recordGuess)
	for nw, old := range b.order {
		it := b.src.Items[old]
		h, err := encodeHead(nw, it)
		if err != nil {
			return err
		}
		heads[nw] = framed(h)
		tr := putText(&b.texts, it.Text)
		fr := putText(&b.texts, it.Fix)
		p, err := encodeRecord(nw, it, fileOffs)
		if err != nil {
			return err
		}
		b.textFixes = append(b.textFixes, b.recs.Len()+8+len(p), b.recs.Len()+8+len(p)+12)
		for _, v := range []uint32{tr.off, tr.n, tr.crc, fr.off, fr.n, fr.crc} {
			p = binary.LittleEndian.AppendUint32(p, v)
		}
		b.recOffs[nw] = uint32(b.recs.Len())
		var hdr [8]byte
		binary.LittleEndian.PutUint32(hdr[:], uint32(len(p)))
		b.recs.Write(hdr[:]) // crc filled in after the text offsets are fixed
		b.recs.Write(p)
	}
	for _, nw := range b.headOrder() {
		b.headOffs[nw] = uint32(b.heads.Len())
		b.heads.Write(heads[nw])
	}
	return nil
}

// headOrder is the order the heads are laid out in: by tools and required
// literals, then id. The candidates of one call share a tool and a literal,
// so their heads share pages: at 10,000 items the 81 heads of a call were
// spread over the whole head section, 7 page faults more than at 1,000.
// (The head table maps an item to its head, so the items keep id order.)
func (b *builder) headOrder() []int {
	keys := make([]string, len(b.order))
	for nw, old := range b.order {
		it := b.src.Items[old]
		keys[nw] = headKey(it.Triggers.Tools, it.Required)
	}
	idx := make([]int, len(b.order))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return keys[idx[x]] < keys[idx[y]] })
	return idx
}

// headKey is fmt.Sprint(tools, required), the heads' sort key, written
// without fmt's reflection (4% of a one-file build at 10,000 items).
func headKey(tools []string, required [][]string) string {
	var b strings.Builder
	list := func(l []string) {
		b.WriteByte('[')
		b.WriteString(strings.Join(l, " "))
		b.WriteByte(']')
	}
	list(tools)
	b.WriteString(" [")
	for i, l := range required {
		if i > 0 {
			b.WriteByte(' ')
		}
		list(l)
	}
	b.WriteByte(']')
	return b.String()
}

// directory is the directory with each entry's name and room for its
// fields.
func (b *builder) directory() []byte {
	var d bytes.Buffer
	for _, e := range b.dir {
		d.Write(binary.AppendUvarint(nil, uint64(len(e.name))))
		d.WriteString(e.name)
		d.Write(make([]byte, dirEntrySize)) // filled by fixDirectory
	}
	return d.Bytes()
}

// layout is where each section starts in the file.
type layout struct {
	watch, dir, parts, post, tables, itemTab, recs, headTab, heads, texts, session, files, total int
}

func (b *builder) layout(watchLen, dirLen, partsLen, filesLen int) layout {
	var l layout
	l.watch = headerSize
	l.dir = l.watch + watchLen
	l.parts = l.dir + dirLen
	l.post = l.parts + partsLen
	l.tables = l.post + b.post.Len()
	l.itemTab = l.tables + b.tables.Len()
	l.recs = l.itemTab + 4*len(b.order)
	l.headTab = l.recs + b.recs.Len()
	l.heads = l.headTab + 4*len(b.order)
	l.texts = l.heads + b.heads.Len()
	l.session = l.texts + b.texts.Len()
	l.files = l.session + len(sessionSection(b.src))
	l.total = l.files + filesLen
	return l
}

// fixDirectory fills in the directory entries' fields.
func (b *builder) fixDirectory(d []byte, lay layout) {
	pos := 0
	for _, e := range b.dir {
		l, k := binary.Uvarint(d[pos:])
		pos += k + int(l)
		binary.LittleEndian.PutUint32(d[pos:], uint32(lay.post)+e.alwaysOff)
		binary.LittleEndian.PutUint32(d[pos+4:], e.alwaysN)
		binary.LittleEndian.PutUint32(d[pos+8:], e.alwaysCRC)
		if e.tableLen > 0 {
			binary.LittleEndian.PutUint32(d[pos+12:], uint32(lay.tables)+e.tableOff)
		}
		binary.LittleEndian.PutUint32(d[pos+16:], e.tableLen)
		binary.LittleEndian.PutUint32(d[pos+20:], e.flags)
		pos += dirEntrySize
	}
}

// fixTables makes the slots' posting offsets absolute and checksums every
// slot, empty slots too: a flipped key must not pass.
func (b *builder) fixTables(lay layout) []byte {
	tb := b.tables.Bytes()
	for _, at := range b.tableFixes {
		binary.LittleEndian.PutUint32(tb[at:], binary.LittleEndian.Uint32(tb[at:])+uint32(lay.post))
	}
	for at := 0; at < len(tb); at += slotSize {
		binary.LittleEndian.PutUint32(tb[at+12:], sum32(tb[at:at+12]))
	}
	return tb
}

// fixRecords makes the records' text offsets absolute and checksums them.
func (b *builder) fixRecords(lay layout) []byte {
	rb := b.recs.Bytes()
	for _, at := range b.textFixes {
		binary.LittleEndian.PutUint32(rb[at:], binary.LittleEndian.Uint32(rb[at:])+uint32(lay.texts))
	}
	for _, o := range b.recOffs {
		l := binary.LittleEndian.Uint32(rb[o:])
		binary.LittleEndian.PutUint32(rb[o+4:], sum32(rb[o+8:o+8+l]))
	}
	return rb
}

// header is the file's header, without its CRC, with room for the file.
func (b *builder) header(lay layout, dirLen, watchLen, filesLen int) []byte {
	src := b.src
	out := make([]byte, headerSize, lay.total)
	copy(out, magic)
	le := binary.LittleEndian
	le.PutUint32(out[hVersion:], Version)
	le.PutUint64(out[hFileSize:], uint64(lay.total))
	copy(out[hHash:], src.Hash[:])
	s := src.Settings
	le.PutUint32(out[hBudget:], clampU32(s.BudgetBytes))
	le.PutUint32(out[hMaxItems:], clampU32(s.MaxItems))
	le.PutUint32(out[hReinject:], clampU32(s.ReinjectPriority))
	if s.Drafts {
		le.PutUint32(out[hDrafts:], 1)
	}
	le.PutUint64(out[hThreshold:], math.Float64bits(s.Threshold))
	le.PutUint64(out[hMinConf:], math.Float64bits(s.MinConfidence))
	for _, f := range [][2]int{
		{hNItems, len(b.order)}, {hNBuckets, len(b.dir)}, {hDirOff, lay.dir}, {hDirLen, dirLen}, {hItemTab, lay.itemTab},
		{hSessionOff, lay.session}, {hSessionLen, len(sessionSection(src))}, {hPostBase, lay.post},
		{hWatchOff, lay.watch}, {hWatchLen, watchLen}, {hFilesOff, lay.files}, {hFilesLen, filesLen}, {hHeadTab, lay.headTab},
		{hPartsOff, lay.parts},
	} {
		le.PutUint32(out[f[0]:], uint32(f[1]))
	}
	le.PutUint32(out[hSessionCRC:], sum32([]byte(sessionSection(src))))
	le.PutUint32(out[hRevision:], src.Revision)
	return out
}

// encodeParts is the parts section: empty when there are none, so that
// opening a manifest without parts reads nothing more. Each part's
// switched-off ids are sorted here: the hook binary-searches them (idSet).
func encodeParts(parts []Part) ([]byte, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	p := binary.AppendUvarint(nil, uint64(len(parts)))
	for _, pt := range parts {
		// A relative path would be resolved against whatever directory
		// the hook runs in.
		if !filepath.IsAbs(pt.Path) {
			return nil, fmt.Errorf("manifest: part %q: not an absolute path", pt.Path)
		}
		p = appendString(p, pt.Path)
		p = append(p, pt.Hash[:]...)
		p = appendIDSet(p, slices.Compact(slices.Sorted(slices.Values(pt.Off))))
	}
	return p, nil
}

// appendIDSet appends the sorted ids as an idSet.
func appendIDSet(p []byte, ids []string) []byte {
	p = binary.AppendUvarint(p, uint64(len(ids)))
	end := 0
	p = binary.LittleEndian.AppendUint32(p, 0)
	for _, id := range ids {
		end += len(id)
		p = binary.LittleEndian.AppendUint32(p, uint32(end))
	}
	for _, id := range ids {
		p = append(p, id...)
	}
	return p
}

// sessionSection is the session section: the always-on block, the ids
// it shows and those it left out (comma-separated), and the rest of the
// SessionStart block, each ended by alwaysEnd but the last (sanitized
// texts and ids hold no NUL).
func sessionSection(src Source) string {
	a := src.AlwaysOn
	nul := func(s string) string { return strings.ReplaceAll(s, alwaysEnd, "") }
	return nul(a.Text) + alwaysEnd + nul(strings.Join(a.Injected, ",")) + alwaysEnd +
		nul(strings.Join(a.Dropped, ",")) + alwaysEnd + src.SessionStart
}

const alwaysEnd = "\x00"

func clampU32(v int) uint32 {
	if v < 0 {
		return 0
	}
	if v > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(v)
}

// headerCRC covers the header (without its CRC field) and the directory.
func headerCRC(h, dir []byte) uint32 {
	return sum32(h[:hHeaderCRC], h[hHeaderCRC+4:headerSize], dir)
}

// writeList appends the sorted new indexes of a set of old item indexes
// and returns their count and checksum.
func writeList(w *bytes.Buffer, set map[int]bool, newIdx []int) (int, uint32) {
	list := make([]int, 0, len(set))
	for i := range set {
		list = append(list, newIdx[i])
	}
	sort.Ints(list)
	var p []byte
	for _, i := range list {
		p = binary.LittleEndian.AppendUint32(p, uint32(i))
	}
	w.Write(p)
	return len(list), sum32(p)
}

type posting struct {
	item int
	lit  string // ASCII-lowercased
}

// writePostings pools the literals of ps not pooled yet, then appends the
// list of {new item index, literal offset} pairs (sorted, deduplicated) and
// returns its offset and length. Offsets are relative to the section start;
// the hook checks the whole literal before it decodes an item.
func writePostings(w *bytes.Buffer, ps []posting, newIdx []int, pool map[string]uint32) (uint32, int) {
	type entry struct {
		item int
		lit  string
	}
	es := make([]entry, 0, len(ps))
	for _, p := range ps {
		es = append(es, entry{newIdx[p.item], p.lit})
		if _, ok := pool[p.lit]; !ok {
			pool[p.lit] = uint32(w.Len())
			lit := appendString(nil, p.lit)
			w.Write(binary.LittleEndian.AppendUint32(lit, sum32(lit)))
		}
	}
	sort.Slice(es, func(a, b int) bool {
		if es[a].item != es[b].item {
			return es[a].item < es[b].item
		}
		return es[a].lit < es[b].lit
	})
	off, n := uint32(w.Len()), 0
	var list []byte
	for i, e := range es {
		if i > 0 && e == es[i-1] {
			continue
		}
		list = binary.LittleEndian.AppendUint32(list, uint32(e.item))
		list = binary.LittleEndian.AppendUint32(list, pool[e.lit])
		n++
	}
	w.Write(binary.LittleEndian.AppendUint32(list, sum32(list)))
	return off, n
}

func lowerString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

func putText(w *bytes.Buffer, s string) ref {
	r := ref{off: uint32(w.Len()), n: uint32(len(s)), crc: sum32([]byte(s))}
	w.WriteString(s)
	return r
}

func encodeRecord(idx int, it Item, fileOffs []uint32) ([]byte, error) {
	p := binary.AppendUvarint(nil, uint64(idx))
	for _, s := range []string{it.ID, it.Kind, it.Title, it.File, it.Status} {
		p = appendString(p, s)
	}
	p = append(p, byte(it.Priority), itemFlags(it))
	p = binary.LittleEndian.AppendUint64(p, math.Float64bits(it.Confidence))
	t := it.Triggers
	for _, l := range [][]string{t.Tools, t.Commands, t.Unless, t.Paths, t.Keywords, t.Topics, t.Content} {
		p = appendList(p, l)
	}
	p = binary.AppendUvarint(p, uint64(len(it.Sources)))
	for _, f := range it.Sources {
		if f < 0 || f >= len(fileOffs) {
			return nil, fmt.Errorf("manifest: item %s: source %d of %d files", it.ID, f, len(fileOffs))
		}
		p = binary.LittleEndian.AppendUint32(p, fileOffs[f])
	}
	return p, nil
}

// encodeHead is item idx's head payload: index, flags, id and the required
// literals of each command pattern (none, or one list per pattern).
func encodeHead(idx int, it Item) ([]byte, error) {
	if it.Required != nil && len(it.Required) != len(it.Triggers.Commands) {
		return nil, fmt.Errorf("manifest: item %s: required literals for %d of %d command patterns", it.ID, len(it.Required), len(it.Triggers.Commands))
	}
	p := binary.AppendUvarint(nil, uint64(idx))
	p = append(p, itemFlags(it))
	p = appendString(p, it.ID)
	p = binary.AppendUvarint(p, uint64(len(it.Required)))
	for _, l := range it.Required {
		p = appendList(p, l)
	}
	return p, nil
}

// framed is {len u32, crc u32, payload}.
func framed(p []byte) []byte {
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(p)))
	out = binary.LittleEndian.AppendUint32(out, sum32(p))
	return append(out, p...)
}

func itemFlags(it Item) byte {
	var flags byte
	if it.Deny {
		flags |= 1
	}
	if it.Global {
		flags |= 2
	}
	if it.Hold {
		flags |= 4
	}
	if it.Org {
		flags |= 8
	}
	return flags
}

func appendList(p []byte, l []string) []byte {
	p = binary.AppendUvarint(p, uint64(len(l)))
	for _, s := range l {
		p = appendString(p, s)
	}
	return p
}

func appendString(p []byte, s string) []byte {
	p = binary.AppendUvarint(p, uint64(len(s)))
	return append(p, s...)
}

// gramKey packs a gram kind and three bytes into a non-zero table key.
func gramKey(kind uint32, a, b, c byte) uint32 {
	return kind<<24 | uint32(lower(a))<<16 | uint32(lower(b))<<8 | uint32(lower(c))
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// distinctGrams returns the keys of every gram of s (ASCII-lowercased).
func distinctGrams(kind uint32, s string) []uint32 {
	if len(s) < gramLen {
		return nil
	}
	seen := map[uint32]bool{}
	var out []uint32
	for i := 0; i+gramLen <= len(s); i++ {
		k := gramKey(kind, s[i], s[i+1], s[i+2])
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func slotOf(key uint32, slots int) int {
	return int((key * 0x9E3779B1) >> 7 & uint32(slots-1))
}
