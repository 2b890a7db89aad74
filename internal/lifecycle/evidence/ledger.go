package evidence

import (
	"time"

	"github.com/lore-agents/lore/internal/inject/ledger"
)

// delivered is what the ledger says of one item over the period.
type delivered struct {
	fired, held, changed, repeated, denied, dropped int
	contexts                                        map[string]bool
	last                                            time.Time
}

// ledgerFacts is the ledger read over a period: per item, and the
// contexts and tool calls it saw.
type ledgerFacts struct {
	items    map[string]*delivered
	contexts map[string]bool // every context with an entry
	calls    int             // "pre" entries: tool calls that spawned lore
	entries  int
	first    time.Time // the oldest entry of the period
}

// readLedger counts the entries at or after since. After a hold, the
// context's next tool call decides it: the same call again is
// `repeated` (the hold was not needed), any other `changed` (the lesson
// was applied).
func readLedger(entries []ledger.Entry, since time.Time) ledgerFacts {
	f := ledgerFacts{items: map[string]*delivered{}, contexts: map[string]bool{}}
	pending := map[string]ledger.Entry{} // context -> its last hold, awaiting the next call
	for _, e := range entries {
		if e.Time.Before(since) {
			continue
		}
		if f.entries == 0 || e.Time.Before(f.first) {
			f.first = e.Time
		}
		f.entries++
		if e.Context != "" {
			f.contexts[e.Context] = true
		}
		if e.Event == ledger.Pre {
			f.calls++
			if h, ok := pending[e.Context]; ok {
				delete(pending, e.Context)
				f.classify(h, e)
			}
		}
		f.deliveries(e)
		if len(e.Held) > 0 && e.Context != "" {
			pending[e.Context] = e
		}
	}
	return f
}

// classify counts each item the hold h held as changed or repeated by
// the context's next call.
func (f *ledgerFacts) classify(h, next ledger.Entry) {
	for _, id := range h.Held {
		d := f.item(id)
		if next.Call == h.Call && next.Tool == h.Tool {
			d.repeated++
		} else {
			d.changed++
		}
	}
}

// deliveries counts what entry e delivered and dropped. An id listed
// both as injected and held (as the hook's record comment lists holds)
// fired once.
func (f *ledgerFacts) deliveries(e ledger.Entry) {
	fired := map[string]bool{}
	for _, ids := range [][]string{e.Injected, e.Held, e.Denied} {
		for _, id := range ids {
			if fired[id] {
				continue
			}
			fired[id] = true
			d := f.item(id)
			d.fired++
			if e.Context != "" {
				d.contexts[e.Context] = true
			}
			if e.Time.After(d.last) {
				d.last = e.Time
			}
		}
	}
	for _, id := range e.Held {
		f.item(id).held++
	}
	for _, id := range e.Denied {
		f.item(id).denied++
	}
	for _, id := range e.Dropped {
		f.item(id).dropped++
	}
}

func (f *ledgerFacts) item(id string) *delivered {
	d := f.items[id]
	if d == nil {
		d = &delivered{contexts: map[string]bool{}}
		f.items[id] = d
	}
	return d
}
