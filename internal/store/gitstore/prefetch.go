package gitstore

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// prefetch resolves, on a second storage (go-git storages are not safe for
// concurrent use) and a second core, the learnings blob and its heading set
// for the root trees the commit enumeration finds, newest first, while the
// enumeration keeps decoding commits. It stops when the enumeration ends:
// the walk computes whatever is missing on demand, which in a history that
// is consolidated now and then is mostly old blobs it never needs.
// Without a second core (taskset, GOMAXPROCS=1) it would only take turns
// with the enumeration and resolve trees the walk never asks for: there is
// none then, and a nil *prefetch does nothing.
type prefetch struct {
	mu     sync.Mutex
	queue  []plumbing.Hash
	closed bool
	wake   chan struct{}
	stop   atomic.Bool
	done   chan struct{}
	w      *walker
	path   string
	blob   map[plumbing.Hash]plumbing.Hash // root tree -> blob at path (zero: absent)
}

func startPrefetch(fs billy.Filesystem, path string) *prefetch {
	if runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	st := walkStorage(fs)
	p := &prefetch{
		wake: make(chan struct{}, 1), done: make(chan struct{}), path: path,
		blob: map[plumbing.Hash]plumbing.Hash{},
		w: &walker{st: st, trees: map[plumbing.Hash]*object.Tree{}, blobs: map[plumbing.Hash]map[string]bool{},
			contents: map[plumbing.Hash][]byte{}, intern: map[string]string{}},
	}
	go func() {
		defer close(p.done)
		defer st.Close()
		for {
			t, ok := p.next()
			if !ok {
				return
			}
			p.resolve(t)
		}
	}()
	return p
}

// push queues a root tree; it never blocks the enumeration.
func (p *prefetch) push(t plumbing.Hash) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.queue = append(p.queue, t)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *prefetch) next() (plumbing.Hash, bool) {
	for {
		if p.stop.Load() {
			return plumbing.ZeroHash, false
		}
		p.mu.Lock()
		if len(p.queue) > 0 {
			t := p.queue[0]
			p.queue = p.queue[1:]
			p.mu.Unlock()
			return t, true
		}
		closed := p.closed
		p.mu.Unlock()
		if closed {
			return plumbing.ZeroHash, false
		}
		<-p.wake
	}
}

func (p *prefetch) resolve(t plumbing.Hash) {
	if _, ok := p.blob[t]; ok {
		return
	}
	b, ok := p.w.blobAt(t, p.path)
	if !ok {
		p.blob[t] = plumbing.ZeroHash
		return
	}
	p.blob[t] = b
	if _, ok := p.w.blobs[b]; !ok {
		if data, err := p.w.content(b); err == nil {
			p.w.blobs[b] = headingSet(data, p.w.intern)
			delete(p.w.contents, b)
		}
	}
}

// finish stops the prefetch and hands what it found to w.
func (p *prefetch) finish(w *walker) {
	if p == nil {
		return
	}
	p.stop.Store(true)
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
	<-p.done
	for b, v := range p.w.blobs {
		w.blobs[b] = v
	}
	if w.pre == nil {
		w.pre, w.prePath = map[plumbing.Hash]plumbing.Hash{}, p.path
	}
	for t, b := range p.blob {
		w.pre[t] = b
	}
}

// walkCache is the object cache of the history walk's storages: go-git's
// LRU, minus commits. Every commit is decoded once (the walker keeps its
// own nodes) and is almost never a delta base, yet putting one in the LRU
// hashes its whole content.
type walkCache struct{ *cache.ObjectLRU }

func newWalkCache() walkCache { return walkCache{cache.NewObjectLRUDefault()} }

func (c walkCache) Put(o plumbing.EncodedObject) {
	if o.Type() != plumbing.CommitObject {
		c.ObjectLRU.Put(o)
	}
}
