package manifest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// Layout (little endian; every offset is from the start of the file):
//
//	header   headerSize bytes, see the h* constants
//	watch    the watched sources (see fresh.go), next to the header: every
//	         hook call reads them, and a page fault costs microseconds
//	dir      per bucket: uvarint name length, name, alwaysOff, alwaysN, alwaysCRC, tableOff, tableSlots, flags (u32)
//	postings always lists (u32 item indexes), pooled literals (uvarint length,
//	         bytes, crc u32) and gram posting lists ({item, literal offset} u32
//	         pairs, then a crc u32; literal offsets relative to this section,
//	         whose start is hPostBase)
//	tables   per bucket, tableSlots slots of {key, postOff, postN, crc u32}, open addressing
//	itemTab  nItems u32 record offsets; records are ordered by id
//	records  {len u32, crc u32, payload}; the payload starts with the record's
//	         own index, so a damaged itemTab entry cannot swap items unnoticed
//	texts    injection texts and fixes, referenced by (off, len, crc) from records
//	session  the SessionStart block
//	files    the item files' stat entries (see fresh.go)
//
// Every byte the hook can act on is under a checksum that it checks before
// acting: header and directory at Open, each slot it probes, each posting
// list, literal, always list, record, text and source entry it reads.
const (
	magic      = "LOREMAN\x00"
	headerSize = 152

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
	n := len(src.Items)
	order := make([]int, n) // order[new] = old
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return src.Items[order[a]].ID < src.Items[order[b]].ID })
	newIdx := make([]int, n)
	for nw, old := range order {
		if nw > 0 && src.Items[old].ID == src.Items[order[nw-1]].ID {
			return nil, fmt.Errorf("manifest: duplicate id %s", src.Items[old].ID)
		}
		newIdx[old] = nw
	}
	buckets := append([]Bucket(nil), src.Buckets...)
	sort.Slice(buckets, func(a, b int) bool { return buckets[a].Tool < buckets[b].Tool })

	var post, tables, recs, texts bytes.Buffer
	lits := map[string]uint32{} // literal -> offset in post
	type dirEntry struct {
		name                                              string
		alwaysOff, alwaysN, alwaysCRC, tableOff, tableLen uint32
		flags                                             uint32
	}
	// Offsets inside post/tables/recs/texts are relative; fixed up once the
	// section sizes are known.
	dir := make([]dirEntry, 0, len(buckets))
	type tableFix struct{ at int } // positions of postOff fields in tables
	var fixes []tableFix
	for bi, b := range buckets {
		if bi > 0 && b.Tool == buckets[bi-1].Tool {
			return nil, fmt.Errorf("manifest: duplicate bucket %q", b.Tool)
		}
		always := map[int]bool{}
		for _, i := range b.Always {
			always[i] = true
		}
		grams := map[uint32][]posting{}
		addGates := func(kind uint32, gates []Gate) {
			freq := map[uint32]int{}
			for _, g := range gates {
				for _, lit := range g.Literals {
					for _, k := range distinctGrams(kind, lit) {
						freq[k]++
					}
				}
			}
			for _, g := range gates {
				var ps []posting
				var keys []uint32
				ok := len(g.Literals) > 0
				for _, lit := range g.Literals {
					gs := distinctGrams(kind, lit)
					if len(gs) == 0 {
						ok = false
						break
					}
					best := gs[0]
					for _, k := range gs[1:] {
						if freq[k] < freq[best] || freq[k] == freq[best] && k < best {
							best = k
						}
					}
					keys = append(keys, best)
					ps = append(ps, posting{item: g.Item, lit: lowerString(lit)})
				}
				if !ok {
					always[g.Item] = true
					continue
				}
				for j, k := range keys {
					grams[k] = append(grams[k], ps[j])
				}
			}
		}
		addGates(kindTgt, b.Target)
		addGates(kindKw, b.Keyword)
		addGates(kindEdit, b.Content)

		e := dirEntry{name: b.Tool, alwaysOff: uint32(post.Len())}
		if b.Edits {
			e.flags = flagEdits
		}
		n, crc := writeList(&post, always, newIdx)
		e.alwaysN, e.alwaysCRC = uint32(n), crc
		if len(grams) > 0 {
			slots := 4
			for slots < 2*len(grams) {
				slots *= 2
			}
			table := make([]byte, slots*slotSize)
			keys := make([]uint32, 0, len(grams))
			for k := range grams {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
			for _, k := range keys {
				off, cnt := writePostings(&post, grams[k], newIdx, lits)
				s := slotOf(k, slots)
				for binary.LittleEndian.Uint32(table[s*slotSize:]) != 0 {
					s = (s + 1) & (slots - 1)
				}
				binary.LittleEndian.PutUint32(table[s*slotSize:], k)
				binary.LittleEndian.PutUint32(table[s*slotSize+4:], off)
				binary.LittleEndian.PutUint32(table[s*slotSize+8:], uint32(cnt))
				fixes = append(fixes, tableFix{tables.Len() + s*slotSize + 4})
			}
			e.tableOff = uint32(tables.Len())
			e.tableLen = uint32(slots)
			tables.Write(table)
		}
		dir = append(dir, e)
	}

	watch, files, fileOffs := encodeFresh(src)

	// Records and texts, in id order.
	recOffs := make([]uint32, n)
	type recFix struct{ at int }
	var textFixes []recFix
	for nw, old := range order {
		it := src.Items[old]
		tr := putText(&texts, it.Text)
		fr := putText(&texts, it.Fix)
		p, err := encodeRecord(nw, it, fileOffs)
		if err != nil {
			return nil, err
		}
		textFixes = append(textFixes, recFix{recs.Len() + 8 + len(p)}, recFix{recs.Len() + 8 + len(p) + 12})
		p = binary.LittleEndian.AppendUint32(p, tr.off)
		p = binary.LittleEndian.AppendUint32(p, tr.n)
		p = binary.LittleEndian.AppendUint32(p, tr.crc)
		p = binary.LittleEndian.AppendUint32(p, fr.off)
		p = binary.LittleEndian.AppendUint32(p, fr.n)
		p = binary.LittleEndian.AppendUint32(p, fr.crc)
		recOffs[nw] = uint32(recs.Len())
		var hdr [8]byte
		binary.LittleEndian.PutUint32(hdr[:], uint32(len(p)))
		recs.Write(hdr[:]) // crc filled in after the text offsets are fixed
		recs.Write(p)
	}

	// Lay the sections out and fix up relative offsets.
	var dirBuf bytes.Buffer
	for _, e := range dir {
		dirBuf.Write(binary.AppendUvarint(nil, uint64(len(e.name))))
		dirBuf.WriteString(e.name)
		dirBuf.Write(make([]byte, dirEntrySize)) // filled below
	}
	watchOff := headerSize
	dirOff := watchOff + len(watch)
	postOff := dirOff + dirBuf.Len()
	tablesOff := postOff + post.Len()
	itemTabOff := tablesOff + tables.Len()
	recsOff := itemTabOff + 4*n
	textsOff := recsOff + recs.Len()
	sessionOff := textsOff + texts.Len()
	filesOff := sessionOff + len(src.SessionStart)
	total := filesOff + len(files)
	if total > math.MaxUint32 {
		return nil, fmt.Errorf("manifest: %d bytes is too large", total)
	}

	d := dirBuf.Bytes()
	pos := 0
	for _, e := range dir {
		l, k := binary.Uvarint(d[pos:])
		pos += k + int(l)
		binary.LittleEndian.PutUint32(d[pos:], uint32(postOff)+e.alwaysOff)
		binary.LittleEndian.PutUint32(d[pos+4:], e.alwaysN)
		binary.LittleEndian.PutUint32(d[pos+8:], e.alwaysCRC)
		if e.tableLen > 0 {
			binary.LittleEndian.PutUint32(d[pos+12:], uint32(tablesOff)+e.tableOff)
		}
		binary.LittleEndian.PutUint32(d[pos+16:], e.tableLen)
		binary.LittleEndian.PutUint32(d[pos+20:], e.flags)
		pos += dirEntrySize
	}
	tb := tables.Bytes()
	for _, f := range fixes {
		binary.LittleEndian.PutUint32(tb[f.at:], binary.LittleEndian.Uint32(tb[f.at:])+uint32(postOff))
	}
	for at := 0; at < len(tb); at += slotSize { // empty slots too: a flipped key must not pass
		binary.LittleEndian.PutUint32(tb[at+12:], sum32(tb[at:at+12]))
	}
	rb := recs.Bytes()
	for _, f := range textFixes {
		binary.LittleEndian.PutUint32(rb[f.at:], binary.LittleEndian.Uint32(rb[f.at:])+uint32(textsOff))
	}
	for _, o := range recOffs {
		l := binary.LittleEndian.Uint32(rb[o:])
		binary.LittleEndian.PutUint32(rb[o+4:], sum32(rb[o+8:o+8+l]))
	}

	out := make([]byte, headerSize, total)
	copy(out, magic)
	le := binary.LittleEndian
	le.PutUint32(out[hVersion:], Version)
	le.PutUint64(out[hFileSize:], uint64(total))
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
	le.PutUint32(out[hNItems:], uint32(n))
	le.PutUint32(out[hNBuckets:], uint32(len(dir)))
	le.PutUint32(out[hDirOff:], uint32(dirOff))
	le.PutUint32(out[hDirLen:], uint32(len(d)))
	le.PutUint32(out[hItemTab:], uint32(itemTabOff))
	le.PutUint32(out[hSessionOff:], uint32(sessionOff))
	le.PutUint32(out[hSessionLen:], uint32(len(src.SessionStart)))
	le.PutUint32(out[hSessionCRC:], sum32([]byte(src.SessionStart)))
	le.PutUint32(out[hPostBase:], uint32(postOff))
	le.PutUint32(out[hRevision:], src.Revision)
	le.PutUint32(out[hWatchOff:], uint32(watchOff))
	le.PutUint32(out[hWatchLen:], uint32(len(watch)))
	le.PutUint32(out[hFilesOff:], uint32(filesOff))
	le.PutUint32(out[hFilesLen:], uint32(len(files)))
	out = append(out, watch...)
	out = append(out, d...)
	le.PutUint32(out[hHeaderCRC:], headerCRC(out[:headerSize], d))
	out = append(out, post.Bytes()...)
	out = append(out, tb...)
	for _, o := range recOffs {
		out = le.AppendUint32(out, uint32(recsOff)+o)
	}
	out = append(out, rb...)
	out = append(out, texts.Bytes()...)
	out = append(out, src.SessionStart...)
	out = append(out, files...)
	return out, nil
}

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
	var flags byte
	if it.Deny {
		flags |= 1
	}
	if it.Global {
		flags |= 2
	}
	p = append(p, byte(it.Priority), flags)
	p = binary.LittleEndian.AppendUint64(p, math.Float64bits(it.Confidence))
	t := it.Triggers
	for _, l := range [][]string{t.Tools, t.Commands, t.Unless, t.Paths, t.Keywords, t.Topics, t.Content} {
		p = binary.AppendUvarint(p, uint64(len(l)))
		for _, s := range l {
			p = appendString(p, s)
		}
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
