package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// State is how an agent's hooks file stands with lore.
type State string

const (
	Missing State = "missing" // no lore entry
	Current State = "current" // exactly what this lore registers
	Stale   State = "stale"   // lore entries from another lore version, or edited
)

// Registration is what lore found in one agent's hooks file.
type Registration struct {
	State State `json:"state"`
	// Closed: lore's guard blocks a call when the hook cannot run.
	Closed bool `json:"failClosed,omitempty"`
	// Why lists what makes a registration stale.
	Why []string `json:"why,omitempty"`
}

// loreEntry is one lore handler found in the file.
type loreEntry struct {
	event string
	ev    int   // the event's index in the hooks object
	group *node // the matcher group holding it
	only  bool  // the group holds nothing else
	h     handler
}

// findLore lists lore's handlers; the hooks object is nil when the file
// has none.
func findLore(data []byte, root *node) (hooksObj *node, found []loreEntry) {
	_, hooksObj = root.member("hooks")
	if hooksObj == nil || hooksObj.kind != '{' {
		return nil, nil
	}
	for ei, ev := range hooksObj.items {
		if ev.val.kind != '[' {
			continue
		}
		for _, g := range ev.val.items {
			found = append(found, groupLore(data, ev.key, ei, g.val)...)
		}
	}
	return hooksObj, found
}

// groupLore lists lore's handlers in the matcher group g of event ev.
func groupLore(data []byte, ev string, ei int, g *node) []loreEntry {
	if g.kind != '{' {
		return nil
	}
	_, hs := g.member("hooks")
	if hs == nil || hs.kind != '[' {
		return nil
	}
	var mine []loreEntry
	for _, h := range hs.items {
		var x handler
		if json.Unmarshal(data[h.val.start:h.val.end], &x) == nil && IsLoreCommand(x.Command) {
			mine = append(mine, loreEntry{event: ev, ev: ei, group: g, h: x})
		}
	}
	for i := range mine {
		mine[i].only = len(mine) == len(hs.items)
	}
	return mine
}

// parse reads the hooks file; an error reads "<file>:<line>: <problem>".
func (a *Agent) parse(data []byte) (*node, error) {
	root, err := parseJSON(data, a.Comments)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", a.Settings, err)
	}
	return root, nil
}

// Status reports lore's registration in a hooks file's contents (nil: no
// file).
func (a *Agent) Status(data []byte) (Registration, error) {
	if data == nil {
		return Registration{State: Missing}, nil
	}
	root, err := a.parse(data)
	if err != nil {
		return Registration{}, err
	}
	_, found := findLore(data, root)
	if len(found) == 0 {
		return Registration{State: Missing}, nil
	}
	r := Registration{State: Current}
	for _, f := range found {
		r.Closed = r.Closed || f.h.OnFailure == "block"
	}
	r.Why = a.stale(data, found, r.Closed)
	if len(r.Why) > 0 {
		r.State = Stale
	}
	return r, nil
}

// stale says how lore's entries differ from this lore's (none: current).
func (a *Agent) stale(data []byte, found []loreEntry, closed bool) []string {
	var why []string
	byEvent := map[string][]loreEntry{}
	for _, f := range found {
		byEvent[f.event] = append(byEvent[f.event], f)
	}
	for _, ev := range a.Events() {
		got := byEvent[ev]
		delete(byEvent, ev)
		switch {
		case len(got) == 0:
			why = append(why, ev+" is not registered")
		case len(got) > 1:
			why = append(why, fmt.Sprintf("%s is registered %d times", ev, len(got)))
		case !got[0].only || !sameGroup(data, got[0].group, a.group(ev, closed)):
			why = append(why, ev+" has another lore version's entry")
		}
	}
	for _, ev := range sortedKeys(byEvent) {
		why = append(why, ev+" is registered but this lore does not use it")
	}
	return why
}

func sameGroup(data []byte, g *node, want group) bool {
	var got, exp any
	if json.Unmarshal(data[g.start:g.end], &got) != nil {
		return false
	}
	_ = json.Unmarshal(encode(want), &exp) // encode's own output
	return reflect.DeepEqual(got, exp)
}

func sortedKeys(m map[string][]loreEntry) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Merge returns the hooks file with lore's entries, replacing any lore
// entries already there. data nil: a new file.
func (a *Agent) Merge(data []byte, closed bool) ([]byte, error) {
	if data == nil {
		data = []byte(newFile)
	}
	data, err := a.Unmerge(data)
	if err != nil {
		return nil, err
	}
	root, err := a.parse(data)
	if err != nil {
		return nil, err
	}
	st := styleOf(data, root)
	if _, h := root.member("hooks"); h == nil {
		data = insert(data, root, `"hooks": {`+st.indent(1)+`}`, st)
	}
	for _, ev := range a.Events() {
		root, _ = parseJSON(data, a.Comments)
		_, h := root.member("hooks")
		if h.kind != '{' {
			return nil, fmt.Errorf("%s:%d: hooks: not an object", a.Settings, lineOf(data, h.start))
		}
		_, list := h.member(ev)
		if list == nil {
			data = insert(data, h, string(encode(ev))+": ["+st.indent(2)+"]", st)
			root, _ = parseJSON(data, a.Comments)
			_, h = root.member("hooks")
			_, list = h.member(ev)
		}
		if list.kind != '[' {
			return nil, fmt.Errorf("%s:%d: hooks.%s: not a list", a.Settings, lineOf(data, list.start), ev)
		}
		data = insert(data, list, render(a.group(ev, closed), list.depth+1, st), st)
	}
	return data, nil
}

// newFile is the file lore starts from when there is none; an uninstall
// that leaves exactly this deletes the file.
const newFile = "{\n}\n"

// Unmerge removes lore's entries and the containers lore created for them,
// leaving every other byte as it was.
func (a *Agent) Unmerge(data []byte) ([]byte, error) {
	for {
		root, err := a.parse(data)
		if err != nil {
			return nil, err
		}
		st := styleOf(data, root)
		hooksObj, found := findLore(data, root)
		if len(found) == 0 {
			return data, nil
		}
		f := found[0]
		ei, list := f.ev, hooksObj.items[f.ev].val
		if f.only {
			data = remove(data, list, indexOf(list, f.group))
		} else {
			_, hs := f.group.member("hooks")
			for i, h := range hs.items {
				var x handler
				if json.Unmarshal(data[h.val.start:h.val.end], &x) == nil && IsLoreCommand(x.Command) {
					data = remove(data, hs, i)
					break
				}
			}
			continue
		}
		// Drop the event list, then the hooks object, when lore created them.
		root, _ = parseJSON(data, a.Comments)
		hi, hooksObj := root.member("hooks")
		list = hooksObj.items[ei].val
		if !createdByLore(data, list, st) {
			continue
		}
		data = remove(data, hooksObj, ei)
		root, _ = parseJSON(data, a.Comments)
		_, hooksObj = root.member("hooks")
		if createdByLore(data, hooksObj, st) {
			data = remove(data, root, hi)
		}
	}
}

func indexOf(list, g *node) int {
	for i, it := range list.items {
		if it.val.start == g.start {
			return i
		}
	}
	panic("agent: group not in its list")
}

// Empty reports whether data is what Unmerge leaves of a file lore created.
func Empty(data []byte) bool { return bytes.Equal(data, []byte(newFile)) }
