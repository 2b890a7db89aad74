package compile

import (
	"encoding/binary"
	"errors"
	"math"
	"unsafe"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// The item cache's encoding. Hand-written rather than encoding/gob: a
// one-file build at 10,000 items spent 55-75 ms decoding the cache with
// gob (reflection, and an allocation for every string), about a fifth of
// the build. Here every string is a slice of one copy of the file, and a
// truncated or foreign file fails the decoder, never a partial set:
//
//	magic, salt (string), count (uvarint), then count entries
//
// Strings are a uvarint length and the bytes; a list is a uvarint count
// and its strings; a list that may be nil inside a list of lists is its
// count plus one, 0 for nil.
const cacheMagic = "LORECACHE4\x00"

var errCache = errors.New("compile: item cache cut short or malformed")

func encodeKnown(salt string, known []*Known) []byte {
	size := len(cacheMagic) + len(salt) + 16
	for _, k := range known {
		size += k.Len + 256 // its record holds about the file, rendered
	}
	b := append(make([]byte, 0, size), cacheMagic...)
	b = appendStr(b, salt)
	b = binary.AppendUvarint(b, uint64(len(known)))
	for _, k := range known {
		b = appendFacts(b, k.Facts)
		b = append(b, byte(k.Scope))
		b = appendStr(b, k.Store)
		b = appendStat(b, k.Stat)
		b = append(b, k.Digest[:]...)
		b = binary.AppendUvarint(b, uint64(k.Len))
		b = append(b, flags(k.Foldable))
		b = appendRecord(b, k.Rec)
		b = appendEntry(b, k.Entry)
		b = appendStr(b, k.Fix)
	}
	return b
}

func appendRecord(b []byte, r manifest.Item) []byte {
	for _, s := range []string{r.ID, r.Kind, r.Title, r.File, r.Status, r.Text, r.Fix} {
		b = appendStr(b, s)
	}
	b = binary.AppendVarint(b, int64(r.Priority))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.Confidence))
	b = append(b, flags(r.Deny, r.Hold, r.Global, r.Org))
	t := r.Triggers
	for _, l := range [][]string{t.Tools, t.Commands, t.Unless, t.Paths, t.Keywords, t.Topics, t.Content} {
		b = appendList(b, l)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Required)))
	for _, l := range r.Required {
		if l == nil {
			b = append(b, 0)
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(l))+1)
		for _, s := range l {
			b = appendStr(b, s)
		}
	}
	return b
}

func appendStat(b []byte, st manifest.Stat) []byte {
	b = binary.LittleEndian.AppendUint64(b, st.Ino)
	b = binary.LittleEndian.AppendUint64(b, st.Size)
	b = binary.LittleEndian.AppendUint64(b, uint64(st.Mtime))
	b = binary.LittleEndian.AppendUint64(b, uint64(st.Ctime))
	return append(b, flags(st.Dir, st.Absent))
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendList(b []byte, l []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(l)))
	for _, s := range l {
		b = appendStr(b, s)
	}
	return b
}

// flags packs bools into a byte, the first in the lowest bit.
func flags(bs ...bool) byte {
	var f byte
	for i, v := range bs {
		if v {
			f |= 1 << i
		}
	}
	return f
}

// decodeKnown reads what encodeKnown wrote under the salt; an error when
// the data is not that (another salt, cut short, malformed).
func decodeKnown(data string, salt string) ([]*Known, error) {
	d := &knownDecoder{s: data}
	if d.take(uint64(len(cacheMagic))) != cacheMagic || d.str() != salt {
		return nil, errCache
	}
	n := d.uvarint()
	if n > uint64(len(data)) { // each entry takes bytes: a count beyond them is a bad file
		return nil, errCache
	}
	out := make([]*Known, 0, n)
	for range n {
		k := d.known()
		if d.err != nil {
			return nil, d.err
		}
		out = append(out, k)
	}
	if d.err != nil || d.s != "" {
		return nil, errCache
	}
	return out, nil
}

// bytesString is data as a string, without a copy: the decoders slice
// their strings from it, so the caller gives data over (it was read from
// a file for the decoder) and never changes it. A copy of a 10,000-item
// cache was 10 MB of fresh pages for every build.
func bytesString(data []byte) string { return unsafe.String(unsafe.SliceData(data), len(data)) }

// knownDecoder reads the cache's strings from s, which they slice; err is
// set at the first read past its end, after which every read is zero.
type knownDecoder struct {
	s   string
	err error
}

func (d *knownDecoder) fail() { d.err, d.s = errCache, "" }

func (d *knownDecoder) take(n uint64) string {
	if d.err != nil || n > uint64(len(d.s)) {
		d.fail()
		return ""
	}
	v := d.s[:n]
	d.s = d.s[n:]
	return v
}

func (d *knownDecoder) uvarint() uint64 {
	var v uint64
	for i := 0; i < binary.MaxVarintLen64 && i < len(d.s); i++ {
		c := d.s[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			d.s = d.s[i+1:]
			return v
		}
	}
	d.fail()
	return 0
}

// varint reads binary.AppendVarint's zig-zag encoding.
func (d *knownDecoder) varint() int64 {
	u := d.uvarint()
	if u&1 != 0 {
		return ^int64(u >> 1)
	}
	return int64(u >> 1)
}

func (d *knownDecoder) str() string { return d.take(d.uvarint()) }

func (d *knownDecoder) u64() uint64 {
	if b := d.take(8); len(b) == 8 {
		return binary.LittleEndian.Uint64([]byte(b))
	}
	return 0
}

func (d *knownDecoder) byte() byte {
	if b := d.take(1); b != "" {
		return b[0]
	}
	return 0
}

// list reads appendList's list: nil when empty, as the compiler makes them.
func (d *knownDecoder) list() []string {
	n := d.uvarint()
	if n == 0 || n > uint64(len(d.s)) {
		if n != 0 {
			d.fail()
		}
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = d.str()
	}
	return l
}

func (d *knownDecoder) known() *Known {
	k := &Known{Facts: d.facts(), Scope: Scope(d.byte()), Store: d.str(), Stat: d.stat()}
	copy(k.Digest[:], d.take(uint64(len(k.Digest))))
	k.Len = int(d.uvarint())
	k.Foldable = d.byte()&1 != 0
	k.Rec = d.record()
	k.Entry = d.entry()
	k.Fix = d.str()
	return k
}

func (d *knownDecoder) record() manifest.Item {
	r := manifest.Item{ID: d.str(), Kind: d.str(), Title: d.str(), File: d.str(), Status: d.str(), Text: d.str(), Fix: d.str()}
	r.Priority = int(d.varint())
	r.Confidence = math.Float64frombits(d.u64())
	f := d.byte()
	r.Deny, r.Hold, r.Global, r.Org = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0
	t := &r.Triggers
	for _, l := range []*[]string{&t.Tools, &t.Commands, &t.Unless, &t.Paths, &t.Keywords, &t.Topics, &t.Content} {
		*l = d.list()
	}
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		d.fail()
		return r
	}
	for range n {
		m := d.uvarint()
		if m == 0 {
			r.Required = append(r.Required, nil)
			continue
		}
		if m-1 > uint64(len(d.s)) {
			d.fail()
			return r
		}
		l := make([]string, m-1)
		for i := range l {
			l[i] = d.str()
		}
		r.Required = append(r.Required, l)
	}
	return r
}

func (d *knownDecoder) stat() manifest.Stat {
	st := manifest.Stat{Ino: d.u64(), Size: d.u64(), Mtime: int64(d.u64()), Ctime: int64(d.u64())}
	f := d.byte()
	st.Dir, st.Absent = f&1 != 0, f&2 != 0
	return st
}
