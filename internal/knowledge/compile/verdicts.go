package compile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"runtime"
	"sync"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Verdicts memoizes check, each item's validation and safety errors, by
// the item's path and bytes (docs/design.md, Incremental build). The
// safety checks run every secret rule over every item: three quarters of
// a build at 10,000 items. A build starts from the verdicts the last one
// saved and keeps only those it used, so a removed or changed file's
// verdict is dropped. The salt names the checker (the lore binary): a
// new one invalidates every saved verdict.
type Verdicts struct {
	salt    string
	mu      sync.Mutex
	old     map[[32]byte]verdict // read from the last build's cache file
	now     map[[32]byte]verdict // used by this build, what Bytes saves
	checked bool                 // an item was checked: not all verdicts came from old
}

type verdict struct {
	errs   []*markdown.Error
	unsafe bool
}

const verdictsMagic = "lore verdicts 1\n"

// LoadVerdicts reads the verdicts a build saved (nil data: none). Saved
// with another salt, or unreadable (truncated, corrupt), they are ignored:
// the items are checked again.
func LoadVerdicts(data []byte, salt string) *Verdicts {
	v := &Verdicts{salt: salt, old: map[[32]byte]verdict{}, now: map[[32]byte]verdict{}}
	d := verdictReader{b: data}
	if !d.lit(verdictsMagic) || d.str() != salt {
		return v
	}
	n := d.count()
	old := make(map[[32]byte]verdict, n)
	for range n {
		var k [32]byte
		copy(k[:], d.take(32))
		old[k] = d.verdict()
	}
	if !d.bad && len(d.b) == 0 {
		v.old = old
	}
	return v
}

// Prefill checks, over all cores, every item not checked before, so the
// compile that follows only looks verdicts up.
func (v *Verdicts) Prefill(lists ...[]*markdown.Item) {
	work := make(chan *markdown.Item)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for it := range work {
				v.check(it)
			}
		})
	}
	for _, l := range lists {
		for _, it := range l {
			work <- it
		}
	}
	close(work)
	wg.Wait()
}

// check is check(it), memoized; nil checks every time.
func (v *Verdicts) check(it *markdown.Item) ([]*markdown.Error, bool) {
	if v == nil {
		return check(it)
	}
	h := sha256.New()
	h.Write([]byte(it.Path))
	h.Write([]byte{0})
	h.Write(it.Raw())
	var k [32]byte
	h.Sum(k[:0])
	v.mu.Lock()
	r, ok := v.now[k]
	if !ok {
		r, ok = v.old[k]
	}
	v.mu.Unlock()
	if !ok {
		r.errs, r.unsafe = check(it)
	}
	v.mu.Lock()
	v.checked = v.checked || !ok
	v.now[k] = r
	v.mu.Unlock()
	return r.errs, r.unsafe
}

// Changed says the verdicts to save differ from those loaded: an item
// was checked, or a loaded verdict was not used (its file changed or
// went away).
func (v *Verdicts) Changed() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.checked || len(v.now) != len(v.old)
}

// Bytes encodes the verdicts this build used, for the next build.
func (v *Verdicts) Bytes() []byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	p := []byte(verdictsMagic)
	p = appendStr(p, v.salt)
	p = binary.AppendUvarint(p, uint64(len(v.now)))
	for k, r := range v.now {
		p = append(p, k[:]...)
		p = append(p, b2u(r.unsafe))
		p = binary.AppendUvarint(p, uint64(len(r.errs)))
		for _, e := range r.errs {
			p = appendStr(p, e.Path)
			p = binary.AppendUvarint(p, uint64(max(e.Line, 0)))
			p = appendStr(p, e.Key)
			p = appendStr(p, e.Msg)
		}
	}
	return p
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func appendStr(p []byte, s string) []byte {
	return append(binary.AppendUvarint(p, uint64(len(s))), s...)
}

// verdictReader decodes Bytes; bad is set at the first short or
// malformed field, after which every read returns zero values.
type verdictReader struct {
	b   []byte
	bad bool
}

func (d *verdictReader) take(n int) []byte {
	if d.bad || n < 0 || n > len(d.b) {
		d.bad = true
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *verdictReader) lit(s string) bool { return bytes.Equal(d.take(len(s)), []byte(s)) }

func (d *verdictReader) uint() uint64 {
	if d.bad {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return x
}

// count is a count or a length, never more than the bytes left: each
// thing counted takes at least one byte.
func (d *verdictReader) count() int {
	x := d.uint()
	if x > uint64(len(d.b)) {
		d.bad = true
		return 0
	}
	return int(x)
}

func (d *verdictReader) str() string { return string(d.take(d.count())) }

func (d *verdictReader) verdict() verdict {
	var r verdict
	flag := d.take(1)
	r.unsafe = len(flag) == 1 && flag[0] == 1
	for range d.count() {
		e := &markdown.Error{Path: d.str(), Line: int(min(d.uint(), 1<<31)), Key: d.str(), Msg: d.str()}
		r.errs = append(r.errs, e)
	}
	return r
}
