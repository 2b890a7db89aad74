package manifest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"
)

// Manifest is an opened manifest. Its methods read the mapped bytes lazily.
type Manifest struct {
	data     []byte
	unmap    func() error
	nItems   int
	itemTab  int
	headTab  int
	postBase int
	buckets  []bucket
	set      Settings
	rev      uint32
	watch    []byte // the watched sources' entries
	files    []byte // the item files' entries
	// parts are the parts opened with the manifest (Source.Parts), in
	// its order. In a part: path is its file, off the ids of its items
	// the manifest that opened it switches off, part is set.
	parts []*Manifest
	path  string
	off   idSet
	part  bool
}

type bucket struct {
	name                                   string
	alwaysOff, alwaysN, tableOff, tableLen int
	alwaysCRC, flags                       uint32
}

// Open maps the manifest at path and its parts, and checks their headers
// and directories: an error when it is missing, of another version,
// truncated or corrupt; one wrapping ErrPartMissing when a part is
// missing or not the one it was built with.
func Open(path string) (*Manifest, error) {
	data, unmap, err := load(path)
	if errors.Is(err, ErrCorrupt) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	m, err := Parse(data)
	if err != nil {
		_ = unmap()
		return nil, err
	}
	m.unmap = unmap
	return m, nil
}

// Parse opens a manifest held in memory (as Build returned it), and maps
// its parts: Close releases them.
func Parse(data []byte) (*Manifest, error) {
	m, parts, err := parse(data)
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		pm, err := openPart(p)
		if err != nil {
			_ = m.Close()
			return nil, err
		}
		m.parts = append(m.parts, pm)
	}
	return m, nil
}

// openPart maps part p and checks that it is the manifest the parent was
// built with: of this version, with p's hash, and no parts of its own (a
// part's items are its source's alone). Each mismatch is ErrPartMissing.
func openPart(p partRef) (*Manifest, error) {
	data, unmap, err := load(p.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s is missing", ErrPartMissing, p.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("manifest: part: %w", err)
	}
	m, parts, err := parse(data)
	switch {
	case errors.Is(err, ErrVersion):
		err = fmt.Errorf("%w: %s: %w", ErrPartMissing, p.Path, err)
	case err != nil:
		err = fmt.Errorf("part %s: %w", p.Path, err)
	case !bytes.Equal(data[hHash:hHash+32], p.Hash[:]):
		err = fmt.Errorf("%w: %s is not the part it was built with (hash %x, want %x)", ErrPartMissing, p.Path, data[hHash:hHash+8], p.Hash[:8])
	case len(parts) > 0:
		err = fmt.Errorf("%w: %s names parts of its own", ErrPartMissing, p.Path)
	}
	if err != nil {
		_ = unmap()
		return nil, err
	}
	m.unmap, m.path, m.off, m.part = unmap, p.Path, p.off, true
	return m, nil
}

// partRef is a part as the parts section names it: its Off left where it
// lies in the manifest (which outlives its parts: Close closes them first).
type partRef struct {
	Part
	off idSet
}

// idSet is a sorted set of ids as the parts section lays it out: ends
// holds n+1 u32 offsets into blob, where id k is blob[ends[k]:ends[k+1]].
// It is searched where it lies: a part may switch off hundreds of ids,
// and a string each at every Open would cost a call more than its
// decision.
type idSet struct{ ends, blob []byte }

// decodeIDSet reads an idSet and checks its offsets.
func decodeIDSet(d *decoder) idSet {
	n := d.uvarint()
	s := idSet{ends: d.take(4 * (n + 1))}
	prev := uint32(0)
	for k := 0; k <= n && !d.bad; k++ {
		end := binary.LittleEndian.Uint32(s.ends[4*k:])
		if end < prev || k == 0 && end != 0 {
			d.bad = true
		}
		prev = end
	}
	s.blob = d.take(int(prev))
	return s
}

func (s idSet) len() int { return max(0, len(s.ends)/4-1) }

func (s idSet) at(k int) []byte {
	le := binary.LittleEndian
	return s.blob[le.Uint32(s.ends[4*k:]):le.Uint32(s.ends[4*k+4:])]
}

func (s idSet) has(id []byte) bool {
	n := s.len()
	k := sort.Search(n, func(k int) bool { return bytes.Compare(s.at(k), id) >= 0 })
	return k < n && bytes.Equal(s.at(k), id)
}

// Close releases the mapping and those of the parts. The Manifest must
// not be used afterwards.
func (m *Manifest) Close() error {
	var err error
	for _, p := range m.parts {
		err = cmp.Or(err, p.Close())
	}
	m.parts = nil
	if m.unmap != nil {
		err = cmp.Or(err, m.unmap())
		m.unmap, m.data = nil, nil
	}
	return err
}

// parse checks the header and directory of data and returns the manifest
// and the parts it names, not opened.
func parse(data []byte) (*Manifest, []partRef, error) {
	if err := checkHeader(data); err != nil {
		return nil, nil, err
	}
	le := binary.LittleEndian
	u := func(at int) int { return int(le.Uint32(data[at:])) }
	dirOff, dirLen := u(hDirOff), u(hDirLen)
	if u(hWatchOff) != headerSize || dirOff != headerSize+u(hWatchLen) || dirOff > len(data) || dirLen > len(data)-dirOff {
		return nil, nil, errf("directory out of range")
	}
	dir := data[dirOff : dirOff+dirLen]
	if headerCRC(data[:headerSize], dir) != le.Uint32(data[hHeaderCRC:]) {
		return nil, nil, errf("header checksum mismatch")
	}
	m := &Manifest{data: data, nItems: u(hNItems), itemTab: u(hItemTab), headTab: u(hHeadTab), postBase: u(hPostBase), rev: le.Uint32(data[hRevision:])}
	m.set = Settings{
		BudgetBytes:      u(hBudget),
		MaxItems:         u(hMaxItems),
		ReinjectPriority: u(hReinject),
		Drafts:           u(hDrafts) != 0,
		Threshold:        math.Float64frombits(le.Uint64(data[hThreshold:])),
		MinConfidence:    math.Float64frombits(le.Uint64(data[hMinConf:])),
	}
	if err := m.sections(); err != nil {
		return nil, nil, err
	}
	if err := m.directory(dir, u(hNBuckets)); err != nil {
		return nil, nil, err
	}
	parts, err := m.partList()
	if err != nil {
		return nil, nil, err
	}
	return m, parts, nil
}

// partList decodes the parts section, checked.
func (m *Manifest) partList() ([]partRef, error) {
	le := binary.LittleEndian
	off, n := int(le.Uint32(m.data[hPartsOff:])), int(le.Uint32(m.data[hPartsLen:]))
	if n == 0 {
		return nil, nil
	}
	if !inRange(m.data, off, n) {
		return nil, errf("parts out of range")
	}
	sec := m.data[off : off+n]
	if sum32(sec) != le.Uint32(m.data[hPartsCRC:]) {
		return nil, errf("parts checksum mismatch")
	}
	d := decoder{b: sec}
	parts := make([]partRef, d.uvarint())
	for i := range parts {
		parts[i].Path = d.str()
		copy(parts[i].Hash[:], d.take(32))
		parts[i].off = decodeIDSet(&d)
	}
	if d.bad || len(d.b) != 0 {
		return nil, errf("parts section is malformed")
	}
	return parts, nil
}

// checkHeader checks the magic, the version and the file size.
func checkHeader(data []byte) error {
	if len(data) < headerSize || string(data[:len(magic)]) != magic {
		return errf("not a lore manifest")
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[hVersion:]); v != Version {
		return fmt.Errorf("%w: version %d, want %d", ErrVersion, v, Version)
	}
	if le.Uint64(data[hFileSize:]) != uint64(len(data)) {
		return errf("%d bytes, header says %d", len(data), le.Uint64(data[hFileSize:]))
	}
	return nil
}

// sections checks that the item table, session block and source lists
// are inside the file, and keeps the source lists.
func (m *Manifest) sections() error {
	data := m.data
	u := func(at int) int { return int(binary.LittleEndian.Uint32(data[at:])) }
	if m.nItems > len(data)/4 || !inRange(data, m.itemTab, 4*m.nItems) || !inRange(data, m.headTab, 4*m.nItems) {
		return errf("item table out of range")
	}
	if !inRange(data, u(hSessionOff), u(hSessionLen)) {
		return errf("session block out of range")
	}
	if !inRange(data, u(hWatchOff), u(hWatchLen)) || !inRange(data, u(hFilesOff), u(hFilesLen)) {
		return errf("source list out of range")
	}
	m.watch = data[u(hWatchOff) : u(hWatchOff)+u(hWatchLen)]
	m.files = data[u(hFilesOff) : u(hFilesOff)+u(hFilesLen)]
	return nil
}

// directory reads the nb bucket entries of dir, each checked to lie
// inside the file.
func (m *Manifest) directory(dir []byte, nb int) error {
	if nb > len(dir)/(dirEntrySize+1) {
		return errf("%d buckets in a %d-byte directory", nb, len(dir))
	}
	m.buckets = make([]bucket, 0, nb)
	for pos := 0; len(m.buckets) < nb; {
		l, k := binary.Uvarint(dir[pos:])
		if k <= 0 || l > uint64(len(dir)-pos-k) || len(dir)-pos-k-int(l) < dirEntrySize {
			return errf("directory entry %d", len(m.buckets))
		}
		pos += k
		b := readBucket(string(dir[pos:pos+int(l)]), dir[pos+int(l):])
		pos += int(l) + dirEntrySize
		if !b.inside(m.data) {
			return errf("bucket %q out of range", b.name)
		}
		m.buckets = append(m.buckets, b)
	}
	return nil
}

// readBucket decodes the fields of the directory entry e.
func readBucket(name string, e []byte) bucket {
	le := binary.LittleEndian
	b := bucket{name: name}
	b.alwaysOff, b.alwaysN, b.alwaysCRC = int(le.Uint32(e)), int(le.Uint32(e[4:])), le.Uint32(e[8:])
	b.tableOff, b.tableLen = int(le.Uint32(e[12:])), int(le.Uint32(e[16:]))
	b.flags = le.Uint32(e[20:])
	return b
}

// inside says the bucket's always list and table lie inside data, and
// its table has a power of two slots.
func (b *bucket) inside(data []byte) bool {
	return b.alwaysN <= len(data)/4 && inRange(data, b.alwaysOff, 4*b.alwaysN) &&
		b.tableLen <= len(data)/slotSize && inRange(data, b.tableOff, slotSize*b.tableLen) &&
		b.tableLen&(b.tableLen-1) == 0
}

func inRange(data []byte, off, n int) bool {
	return off >= 0 && n >= 0 && off <= len(data) && n <= len(data)-off
}

// Settings returns the inject.* snapshot taken at build time.
func (m *Manifest) Settings() Settings { return m.set }

// Len is the number of the manifest's own compiled items, not its parts'
// (what a rebuild of it costs).
func (m *Manifest) Len() int { return m.nItems }

// Count is the number of items a call can select: the manifest's own, and
// its parts' but those it switches off.
func (m *Manifest) Count() int {
	n := m.nItems
	for _, p := range m.parts {
		n += p.nItems - p.off.len()
	}
	return n
}

// Parts are the parts opened with the manifest, in the order Build was
// given them: a call scores their items with the manifest's own
// (docs/design.md, Scopes and organisation stores).
func (m *Manifest) Parts() []*Manifest { return m.parts }

// All is the index of every item a call may score, in order: all of
// them but those the manifest that opened m as its part switches off
// (Part.Off), for lore match.
func (m *Manifest) All() ([]int, error) {
	all := make([]int, m.nItems)
	for i := range all {
		all[i] = i
	}
	if m.off.len() > 0 {
		return m.withoutOff(all)
	}
	return all, nil
}

// switchedOff reports whether the manifest that opened m as its part
// switches off the item with this id.
func (m *Manifest) switchedOff(id []byte) bool { return m.off.has(id) }

// SwitchedOff reports whether the manifest that opened m as its part
// switches off the item of head h (Part.Off): a call never scores it.
func (m *Manifest) SwitchedOff(h Head) bool { return m.off.len() > 0 && m.switchedOff(h.id) }

// SessionStart returns the block pre-rendered for SessionStart: the
// items without triggers (AlwaysOn), critical items, a compact index and
// the count of drafts awaiting review.
func (m *Manifest) SessionStart() (string, error) {
	b, err := m.session()
	if err != nil {
		return "", err
	}
	parts := strings.SplitN(string(b), alwaysEnd, 4)
	if len(parts) != 4 {
		return "", errf("session block without its always-on part")
	}
	return parts[0] + parts[3], nil
}

// AlwaysOn returns the block of items without triggers, for SubagentStart
// (a sub-agent's context is its own), with the ids it shows and those its
// budget left out.
func (m *Manifest) AlwaysOn() (Always, error) {
	b, err := m.session()
	if err != nil {
		return Always{}, err
	}
	parts := bytes.SplitN(b, []byte(alwaysEnd), 4)
	if len(parts) != 4 {
		return Always{}, errf("session block without its always-on part")
	}
	ids := func(p []byte) []string {
		if len(p) == 0 {
			return nil
		}
		return strings.Split(string(p), ",")
	}
	a := Always{Text: string(parts[0]), Injected: ids(parts[1]), Dropped: ids(parts[2])}
	for _, id := range a.Injected {
		it, found, err := m.ByID(id)
		if err != nil {
			return a, err
		}
		if o := Origin(it.File); found && o != "" {
			a.Origin = append(a.Origin, [2]string{id, o})
		}
	}
	return a, nil
}

// session is the session section, checked.
func (m *Manifest) session() ([]byte, error) {
	le := binary.LittleEndian
	off, n := int(le.Uint32(m.data[hSessionOff:])), int(le.Uint32(m.data[hSessionLen:]))
	b := m.data[off : off+n] // range checked by parse
	if sum32(b) != le.Uint32(m.data[hSessionCRC:]) {
		return nil, errf("session block checksum mismatch")
	}
	return b, nil
}

// Candidates returns the indexes (ascending) of the items worth scoring for
// a call of tool: the tool's bucket (or the "*" bucket), its always-list and
// the items a gram of target (the command or path), added (the text an
// edit adds) or prompt names. Every byte it reads is checked against its
// checksum first. Of a part, they may include items the manifest that
// opened it switches off: the caller reads each candidate's head anyway,
// and SwitchedOff says so from it (most candidates of a long session are
// passed over as shown before that).
func (m *Manifest) Candidates(tool, target, added, prompt string) ([]int, error) {
	b := m.toolBucket(tool)
	if b == nil {
		return nil, nil
	}
	le := binary.LittleEndian
	always := m.data[b.alwaysOff : b.alwaysOff+4*b.alwaysN] // range checked by parse
	if sum32(always) != b.alwaysCRC {
		return nil, errf("bucket %q: always list checksum mismatch", b.name)
	}
	out := make([]int, 0, b.alwaysN+8)
	for i := 0; i < b.alwaysN; i++ {
		if v := int(le.Uint32(always[4*i:])); v < m.nItems {
			out = append(out, v)
		}
	}
	if b.tableLen > 0 {
		var err error
		if out, err = m.probe(b, kindTgt, target, out); err != nil {
			return nil, err
		}
		if out, err = m.probe(b, kindKw, prompt, out); err != nil {
			return nil, err
		}
		if out, err = m.probe(b, kindEdit, added, out); err != nil {
			return nil, err
		}
	}
	sort.Ints(out)
	return compact(out), nil
}

// withoutOff leaves out of idx the items switched off.
func (m *Manifest) withoutOff(idx []int) ([]int, error) {
	kept := idx[:0]
	for _, i := range idx {
		h, err := m.Head(i)
		if err != nil {
			return nil, err
		}
		if !m.switchedOff(h.id) {
			kept = append(kept, i)
		}
	}
	return kept, nil
}

// seenSlots is the size of probe's cache of grams seen (10 bits of a key's
// hash index it).
const seenSlots = 1 << 10

// probe appends the items of bucket b whose literals the grams of s (of
// kind) point at and s contains.
func (m *Manifest) probe(b *bucket, kind uint32, s string, out []int) ([]int, error) {
	if len(s) < gramLen {
		return out, nil
	}
	// The grams are keyed from s ASCII-lowercased, rolling (a 64 KiB edit
	// has 64 Ki grams), and the literals looked up in it case-folded: a
	// lower-cased copy of a 64 KiB text cost 16 page faults and a pass.
	// A long text (an edit's) repeats its grams: each slot's checksum is
	// checked once (the bits of checked), and each key's postings are read
	// once. A gram probed already gives nothing new: a long text's repeats
	// are skipped through a small direct-mapped cache of the last keys
	// seen (bit 31, which no kind reaches, marks an entry used). Both are
	// one allocation whose size is known only at run time, so it is on
	// the heap: a constant-size cache would be put in this frame, and its
	// 4 KiB would grow the goroutine's stack on every call that probes,
	// short text or long.
	var checked, seen, batch []uint32
	if len(s) > 512 {
		words := (b.tableLen + 31) / 32
		buf := make([]uint32, words+seenSlots+batchLen)
		checked, seen, batch = buf[:words:words], buf[words:words+seenSlots:words+seenSlots], buf[words+seenSlots:]
	}
	p := prober{m: m, b: b, text: s, checked: checked, out: out}
	gram := uint32(lower(s[0]))<<8 | uint32(lower(s[1]))
	if seen == nil {
		for i := gramLen - 1; i < len(s); i++ {
			gram = (gram<<8 | uint32(lower(s[i]))) & 0xFFFFFF
			if err := p.key(kind<<24 | gram); err != nil { // gramKey of the three bytes ending at i
				return nil, err
			}
		}
		return p.out, nil
	}
	return p.gather(kind, gram, (*[seenSlots]uint32)(seen), (*[batchLen]uint32)(batch))
}

// gather probes the keys of p.text's grams not seen lately. They are
// gathered batchLen bytes at a time in a loop with no call and no bounds
// check in it (arrays indexed by a shift and a mask), which keeps its state
// in registers, then probed: a 64 KiB text is 64 Ki grams, most of them
// seen a little earlier. gram holds the text's first two bytes.
func (p *prober) gather(kind, gram uint32, seen *[seenSlots]uint32, batch *[batchLen]uint32) ([]int, error) {
	key := kind << 24
	used := key | 1<<31 // a used cache entry: its key, and bit 31, which no kind reaches
	text := p.text
	for i := gramLen - 1; i < len(text); {
		end := min(len(text), i+batchLen) // so at most batchLen keys a batch
		n := 0
		chunk := text[i:end]
		for j := 0; j < len(chunk); j++ {
			gram = (gram<<8 | uint32(lower(chunk[j]))) & 0xFFFFFF
			h := &seen[((key|gram)*0x9E3779B1)>>22]
			if *h != used|gram {
				*h = used | gram
				batch[n&(batchLen-1)] = key | gram
				n++
			}
		}
		i = end
		for _, k := range batch[:n] {
			if err := p.key(k); err != nil {
				return nil, err
			}
		}
	}
	return p.out, nil
}

// batchLen is how many of a long text's keys probe gathers at a time.
const batchLen = 256

// prober is one probe's state: the items found so far (out) and the keys
// whose postings were read (done).
type prober struct {
	m       *Manifest
	b       *bucket
	text    string
	checked []uint32
	done    []uint32
	out     []int
}

// key looks key up in the bucket's table and appends the items of its
// postings that low contains, once per key.
func (p *prober) key(key uint32) error {
	mask := p.b.tableLen - 1
	for j, n := slotOf(key, p.b.tableLen), 0; n < p.b.tableLen; j, n = (j+1)&mask, n+1 {
		slot, err := p.m.slot(p.b, j, p.checked)
		if err != nil {
			return err
		}
		k := binary.LittleEndian.Uint32(slot)
		if k != 0 && k != key {
			continue // another key's slot: probe on
		}
		if k == 0 || slices.Contains(p.done, key) {
			return nil // an empty slot ends the probe; a key is read once
		}
		p.done = append(p.done, key)
		p.out, err = p.m.hits(int(binary.LittleEndian.Uint32(slot[4:])), int(binary.LittleEndian.Uint32(slot[8:])), p.text, p.out)
		return err
	}
	return nil
}

// slot is slot j of b's table, its checksum checked; checked, when not
// nil, marks the slots checked already.
func (m *Manifest) slot(b *bucket, j int, checked []uint32) ([]byte, error) {
	slot := m.data[b.tableOff+j*slotSize : b.tableOff+j*slotSize+slotSize]
	if checked != nil && checked[j/32]&(1<<(j%32)) != 0 {
		return slot, nil
	}
	if sum32(slot[:12]) != binary.LittleEndian.Uint32(slot[12:]) {
		return nil, errf("bucket %q: slot %d checksum mismatch", b.name, j)
	}
	if checked != nil {
		checked[j/32] |= 1 << (j % 32)
	}
	return slot, nil
}

// hits appends the items of the posting list (cnt entries at off) whose
// literal (lower-cased) text contains, ASCII case folded.
func (m *Manifest) hits(off, cnt int, text string, out []int) ([]int, error) {
	le := binary.LittleEndian
	list, err := m.postings(off, cnt)
	if err != nil {
		return nil, err
	}
	// A list's entries mostly share their literal (the items gated on
	// "pytest"): it is checked and looked for once per run of them.
	litOff, found := -1, false
	for x := 0; x+8 <= len(list); x += 8 {
		v := int(le.Uint32(list[x:]))
		if v >= m.nItems {
			continue
		}
		if o := int(le.Uint32(list[x+4:])); o != litOff {
			lit, err := m.literal(o)
			if err != nil {
				return nil, err
			}
			litOff, found = o, containsFold(text, lit)
		}
		if found {
			out = append(out, v)
		}
	}
	return out, nil
}

// postings returns the checked posting list of cnt entries at off.
func (m *Manifest) postings(off, cnt int) ([]byte, error) {
	if cnt > len(m.data)/8 || !inRange(m.data, off, 8*cnt+4) {
		return nil, errf("posting list out of range")
	}
	list := m.data[off : off+8*cnt]
	if sum32(list) != binary.LittleEndian.Uint32(m.data[off+8*cnt:]) {
		return nil, errf("posting list at %d: checksum mismatch", off)
	}
	return list, nil
}

// literal returns the checked pooled literal at off (relative to the
// postings section).
func (m *Manifest) literal(off int) ([]byte, error) {
	off += m.postBase
	if off < 0 || off >= len(m.data) {
		return nil, errf("literal out of range")
	}
	l, k := binary.Uvarint(m.data[off:])
	if k <= 0 || l > uint64(len(m.data)-off-k) || len(m.data)-off-k-int(l) < 4 {
		return nil, errf("literal at %d out of range", off)
	}
	end := off + k + int(l)
	if sum32(m.data[off:end]) != binary.LittleEndian.Uint32(m.data[end:]) {
		return nil, errf("literal at %d: checksum mismatch", off)
	}
	return m.data[off+k : end], nil
}

func compact(s []int) []int {
	if len(s) < 2 {
		return s
	}
	w := 1
	for _, v := range s[1:] {
		if v != s[w-1] {
			s[w] = v
			w++
		}
	}
	return s[:w]
}

// Edits reports whether calls of tool have items that match the text the
// call adds: only then does the hook read that text from the tool input.
func (m *Manifest) Edits(tool string) bool {
	b := m.toolBucket(tool)
	return b != nil && b.flags&flagEdits != 0
}

// toolBucket is the tool's bucket, or the "*" bucket of the other tools.
func (m *Manifest) toolBucket(tool string) *bucket {
	if b := m.bucket(tool); b != nil {
		return b
	}
	return m.bucket("*")
}

func (m *Manifest) bucket(tool string) *bucket {
	for i := range m.buckets {
		if m.buckets[i].name == tool {
			return &m.buckets[i]
		}
	}
	return nil
}

// record returns item i's payload after checking its CRC.
func (m *Manifest) record(i int) ([]byte, error) { return m.framed(m.itemTab, i, "record") }

// framed returns entry i of the table at tab (u32 offsets of {len u32,
// crc u32, payload}): its payload, after checking its CRC and that it
// starts with i.
func (m *Manifest) framed(tab, i int, what string) ([]byte, error) {
	if i < 0 || i >= m.nItems {
		return nil, fmt.Errorf("manifest: item %d of %d", i, m.nItems)
	}
	le := binary.LittleEndian
	off := int(le.Uint32(m.data[tab+4*i:]))
	if !inRange(m.data, off, 8) {
		return nil, errf("%s %d out of range", what, i)
	}
	n := int(le.Uint32(m.data[off:]))
	if !inRange(m.data, off+8, n) {
		return nil, errf("%s %d out of range", what, i)
	}
	p := m.data[off+8 : off+8+n]
	if sum32(p) != le.Uint32(m.data[off+4:]) {
		return nil, errf("%s %d checksum mismatch", what, i)
	}
	if idx, k := binary.Uvarint(p); k <= 0 || idx != uint64(i) {
		return nil, errf("%s table entry %d points at another %s", what, i, what)
	}
	return p, nil
}

// Item decodes item i's record (not its Text, Fix or Required: see Head).
func (m *Manifest) Item(i int) (Item, error) {
	p, err := m.record(i)
	if err != nil {
		return Item{}, err
	}
	_, k := binary.Uvarint(p) // the index, checked by record
	d := decoder{b: p[k:]}
	it := Item{ID: d.str(), Kind: d.str(), Title: d.str(), File: d.str(), Status: d.str()}
	it.Priority = int(d.byte())
	flags := d.byte()
	it.Deny, it.Global, it.Hold, it.Org = flags&1 != 0, flags&2 != 0, flags&4 != 0, flags&8 != 0
	it.Confidence = math.Float64frombits(d.u64())
	t := &it.Triggers
	for _, l := range []*[]string{&t.Tools, &t.Commands, &t.Unless, &t.Paths, &t.Keywords, &t.Topics, &t.Content} {
		*l = d.list()
	}
	n := d.uvarint()
	if n > len(d.b)/4 {
		d.bad = true
	}
	for j := 0; j < n && !d.bad; j++ {
		it.srcOffs = append(it.srcOffs, d.u32())
	}
	it.textRef = ref{d.u32(), d.u32(), d.u32()}
	it.fixRef = ref{d.u32(), d.u32(), d.u32()}
	if d.bad || len(d.b) != 0 {
		return Item{}, errf("record %d is malformed", i)
	}
	return it, nil
}

// Head is what a call needs of a candidate before its record: its id and
// deny flag (in a long session most candidates were shown already) and
// the required literals of its command patterns (most of the others cannot
// match the command). Heads are dense in the file, records are not: a
// record read is a page fault. ItemOf reads the record.
type Head struct {
	Deny bool
	id   []byte // inside the manifest's mapping
	i    int
	req  []byte // the encoded required literals, checked
}

// ID is the item's id.
func (h Head) ID() string { return string(h.id) }

// IDBytes is the item's id as it lies in the manifest, for a lookup that
// needs no string of its own: read-only, valid until Close, not to be kept.
func (h Head) IDBytes() []byte { return h.id }

// Head reads item i's head. Its required literals are read (and their
// encoding checked) by Required or Possible: a candidate shown already
// needs neither.
func (m *Manifest) Head(i int) (Head, error) {
	p, err := m.framed(m.headTab, i, "head")
	if err != nil {
		return Head{}, err
	}
	_, k := binary.Uvarint(p) // the index, checked by framed
	d := decoder{b: p[k:]}
	h := Head{i: i}
	h.Deny = d.byte()&1 != 0
	h.id = d.bytes()
	h.req = d.b
	if d.bad {
		return Head{}, errf("head %d is malformed", i)
	}
	return h, nil
}

// Required decodes Item.Required from the head: none, or one list per
// command pattern.
func (h Head) Required() ([][]string, error) {
	d := decoder{b: h.req}
	var out [][]string
	for n := d.uvarint(); len(out) < n && !d.bad; {
		out = append(out, d.list())
	}
	if d.bad || len(d.b) != 0 {
		return nil, errf("head %d is malformed", h.i)
	}
	return out, nil
}

// Possible reports whether a command can match the item: it has no command
// pattern, or one whose required literals the command holds each of (has
// reports one, lower-cased). It reads Required's encoding without making a
// string: most candidates of a command fail it, and decoding theirs was
// half of a call's allocations.
func (h Head) Possible(has func(lit []byte) bool) (bool, error) {
	d := decoder{b: h.req}
	n := d.uvarint()
	possible := n == 0
	for ; n > 0 && !d.bad; n-- {
		all := true
		for k := d.uvarint(); k > 0 && !d.bad; k-- {
			lit := d.bytes()
			all = all && !d.bad && has(lit)
		}
		possible = possible || all
	}
	if d.bad || len(d.b) != 0 {
		return false, errf("head %d is malformed", h.i)
	}
	return possible, nil
}

// ItemOf decodes the item whose head h is (not its Text or Fix), with the
// head's Required.
func (m *Manifest) ItemOf(h Head) (Item, error) {
	it, err := m.Item(h.i)
	if err != nil {
		return Item{}, err
	}
	it.Required, err = h.Required()
	return it, err
}

// Text reads the injection text of an item returned by Item.
func (m *Manifest) Text(it Item) (string, error) { return m.text(it.textRef) }

// Fix reads the deny reason of an item returned by Item.
func (m *Manifest) Fix(it Item) (string, error) { return m.text(it.fixRef) }

func (m *Manifest) text(r ref) (string, error) {
	if !inRange(m.data, int(r.off), int(r.n)) {
		return "", errf("text out of range")
	}
	b := m.data[r.off : r.off+r.n]
	if sum32(b) != r.crc {
		return "", errf("text checksum mismatch")
	}
	return string(b), nil
}

// Priority returns the priority of the item with this id, for
// re-injection after compaction; found is false when no item has the id,
// err set when a record on the way is damaged.
func (m *Manifest) Priority(id string) (p int, found bool, err error) {
	it, found, err := m.ByID(id)
	return it.Priority, found, err
}

// ByID returns the item with this id, of the manifest or else of one of
// its parts (not one it switches off); found is false when no item has
// it. An item of a part has its texts in the part: this is for its
// fields (Priority, the origin of an always-on item).
func (m *Manifest) ByID(id string) (it Item, found bool, err error) {
	if it, found, err = m.byID(id); found || err != nil {
		return it, found, err
	}
	for _, p := range m.parts {
		if p.switchedOff([]byte(id)) {
			continue
		}
		if it, found, err = p.byID(id); found || err != nil {
			return it, found, err
		}
	}
	return Item{}, false, nil
}

// byID is ByID over the manifest's own items: a binary search over the
// id-ordered records.
func (m *Manifest) byID(id string) (it Item, found bool, err error) {
	lo, hi := 0, m.nItems
	for lo < hi {
		mid := (lo + hi) / 2
		rec, err := m.record(mid)
		if err != nil {
			return Item{}, false, err
		}
		_, k := binary.Uvarint(rec)
		d := decoder{b: rec[k:]}
		got := d.bytes()
		if d.bad {
			return Item{}, false, errf("record %d is malformed", mid)
		}
		switch c := bytes.Compare(got, []byte(id)); {
		case c == 0:
			it, err := m.Item(mid)
			return it, err == nil, err
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return Item{}, false, nil
}

// decoder reads a record payload; any overrun sets bad instead of panicking.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) take(n int) []byte {
	if d.bad || n < 0 || n > len(d.b) {
		d.bad = true
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) uvarint() int {
	v, k := binary.Uvarint(d.b)
	if k <= 0 || v > uint64(len(d.b)) {
		d.bad = true
		return 0
	}
	d.b = d.b[k:]
	return int(v)
}

func (d *decoder) bytes() []byte { return d.take(d.uvarint()) }
func (d *decoder) str() string   { return string(d.bytes()) }

func (d *decoder) byte() byte {
	if b := d.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) list() []string {
	n := d.uvarint()
	if n == 0 || d.bad {
		return nil
	}
	out := make([]string, 0, n)
	for i := 0; i < n && !d.bad; i++ {
		out = append(out, d.str())
	}
	return out
}

// Verify checks every checksum in the file, which together cover every
// byte: what a hook call checks piecemeal as it reads, all at once (lore
// build and lore doctor, before they call a manifest up to date).
func (m *Manifest) Verify() error {
	for bi := range m.buckets {
		if err := m.verifyBucket(&m.buckets[bi]); err != nil {
			return err
		}
	}
	for i := 0; i < m.nItems; i++ {
		if err := m.verifyItem(i); err != nil {
			return err
		}
	}
	if _, err := m.SessionStart(); err != nil {
		return err
	}
	for _, sec := range [][]byte{m.watch, m.files} {
		for off := 0; off < len(sec); {
			_, next, err := entry(sec, off)
			if err != nil {
				return err
			}
			off = next
		}
	}
	for _, p := range m.parts {
		if err := p.Verify(); err != nil {
			return fmt.Errorf("part %s: %w", p.path, err)
		}
	}
	return nil
}

// verifyBucket checks a bucket's always list, every slot of its table,
// and the posting lists and literals the slots point at.
func (m *Manifest) verifyBucket(b *bucket) error {
	le := binary.LittleEndian
	if sum32(m.data[b.alwaysOff:b.alwaysOff+4*b.alwaysN]) != b.alwaysCRC {
		return errf("bucket %q: always list checksum mismatch", b.name)
	}
	for j := 0; j < b.tableLen; j++ {
		slot, err := m.slot(b, j, nil)
		if err != nil {
			return err
		}
		if le.Uint32(slot) == 0 {
			continue
		}
		list, err := m.postings(int(le.Uint32(slot[4:])), int(le.Uint32(slot[8:])))
		if err != nil {
			return err
		}
		for x := 0; x+8 <= len(list); x += 8 {
			if _, err := m.literal(int(le.Uint32(list[x+4:]))); err != nil {
				return err
			}
		}
	}
	return nil
}

// verifyItem checks item i's head, record, texts and source entries.
func (m *Manifest) verifyItem(i int) error {
	it, err := m.Item(i)
	if err != nil {
		return err
	}
	h, err := m.Head(i)
	if err != nil {
		return err
	}
	if h.ID() != it.ID || h.Deny != it.Deny {
		return errf("head %d is not its record's", i)
	}
	if _, err := h.Required(); err != nil {
		return err
	}
	if _, err := m.Text(it); err != nil {
		return err
	}
	if _, err := m.Fix(it); err != nil {
		return err
	}
	for _, off := range it.srcOffs {
		if _, _, err := entry(m.files, int(off)); err != nil {
			return err
		}
	}
	return nil
}

// containsFold reports whether text holds lit, a literal without upper-case
// ASCII letters, with each ASCII letter in either case.
func containsFold(text string, lit []byte) bool {
	if len(lit) == 0 {
		return true
	}
	first, other := lit[0], lit[0]
	if 'a' <= first && first <= 'z' {
		other = first - 'a' + 'A'
	}
	for len(text) >= len(lit) {
		i := strings.IndexByte(text, first)
		if first != other { // the upper-case letter, where it comes sooner
			limit := len(text)
			if i >= 0 {
				limit = i
			}
			if j := strings.IndexByte(text[:limit], other); j >= 0 {
				i = j
			}
		}
		if i < 0 || len(text)-i < len(lit) {
			return false
		}
		if foldEqual(text[i:i+len(lit)], lit) {
			return true
		}
		text = text[i+1:]
	}
	return false
}

// foldEqual reports whether a, ASCII-lowercased, is lit.
func foldEqual(a string, lit []byte) bool {
	for j, c := range lit {
		if lower(a[j]) != c {
			return false
		}
	}
	return true
}
