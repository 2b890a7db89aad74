package lint

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/oklog/ulid/v2"
	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

// Change is one file lint --fix writes: Data to Path, and when the file is
// renamed, From is the old path to remove once Path is written. A Change
// with Remove set only removes Path.
type Change struct {
	Path   string
	From   string
	Data   []byte
	Remove bool
	What   []string // what changed, for the report
}

// Fix computes the automatic rewrites over the store: a trailing negative
// lookahead in triggers.commands becomes triggers.unless, and duplicate
// PF-/ADR- refs are renumbered (the newer id gets the next free number, its
// file is renamed, and references to it are updated). Only the bytes of
// the changed keys and references change. Files that do not parse are left
// alone. Changes come in the order to apply them: rewrites in place, then
// renames (each in path order), then the removals of files an interrupted
// rename left behind.
func Fix(st Store) ([]Change, error) {
	items, order, taken := parseItems(st)
	var removed []Change
	for _, p := range leftovers(items) {
		removed = append(removed, Change{Path: p, Remove: true, What: []string{"removed: left by an interrupted lint --fix rename (" + items[p].ID + " was already renumbered)"}})
		delete(items, p)
		order = slices.DeleteFunc(order, func(q string) bool { return q == p })
	}
	changes := map[string]*Change{}
	note := func(p, what string) {
		c := changes[p]
		if c == nil {
			c = &Change{Path: p}
			changes[p] = c
		}
		c.What = append(c.What, what)
	}
	for _, p := range order {
		what, err := fixLookahead(items[p])
		if err != nil {
			return nil, err
		}
		if what != "" {
			note(p, what)
		}
	}
	if err := renumber(items, order, taken, changes, note); err != nil {
		return nil, err
	}
	return append(ordered(items, changes), removed...), nil
}

// parseItems parses the store's items (files that do not parse are left
// alone): by path, their paths in store order, and every path taken.
func parseItems(st Store) (items map[string]*markdown.Item, order []string, taken map[string]bool) {
	items, taken = map[string]*markdown.Item{}, map[string]bool{}
	for _, f := range st.Items {
		taken[f.Path] = true
		if !strings.HasSuffix(f.Path, ".md") {
			continue
		}
		if it, err := markdown.Parse(f.Path, f.Data); err == nil {
			items[f.Path] = it
			order = append(order, f.Path)
		}
	}
	return items, order, taken
}

// ordered returns the changes with their final bytes, renames after the
// rewrites in place (the references to a renamed item are written before
// it, and its old name is removed last), so a run killed at any write
// leaves a state the next Fix completes.
func ordered(items map[string]*markdown.Item, changes map[string]*Change) []Change {
	var out []Change
	for p, c := range changes {
		c.Data = items[p].Raw() // items are keyed by their final path
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].From != "") != (out[j].From != "") {
			return out[j].From != ""
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// leftovers finds the old files of renames that lint --fix wrote but was
// killed before it removed the old name: an item whose ref another item
// (with another id) also holds, and whose id a second file holds under a
// different ref with the very same bytes but for the ref. Anything else with
// a duplicate id is a person's copy, reported and left alone.
func leftovers(items map[string]*markdown.Item) []string {
	byID := map[string][]*markdown.Item{}
	holders := map[string]map[string]bool{} // kind/REF -> ids
	for _, it := range items {
		byID[it.ID] = append(byID[it.ID], it)
		if it.Ref != "" {
			k := refKey(it.Kind, it.Ref)
			if holders[k] == nil {
				holders[k] = map[string]bool{}
			}
			holders[k][it.ID] = true
		}
	}
	var out []string
	for _, same := range byID {
		if len(same) != 2 {
			continue
		}
		for i, old := range same {
			if leftover(old, same[1-i], holders) {
				out = append(out, old.Path)
			}
		}
	}
	sort.Strings(out)
	return out
}

func refKey(kind, ref string) string { return kind + "/" + strings.ToUpper(ref) }

// leftover reports whether old is the old file of a rename to nw: its
// ref is also another item's, and nw is old with a new ref.
func leftover(old, nw *markdown.Item, holders map[string]map[string]bool) bool {
	if old.Ref == "" || nw.Ref == "" || old.Kind != nw.Kind || strings.EqualFold(old.Ref, nw.Ref) || len(holders[refKey(old.Kind, old.Ref)]) < 2 {
		return false
	}
	return string(nw.Raw()) == strings.ReplaceAll(string(old.Raw()), old.Ref, nw.Ref)
}

// splitLookahead splits a pattern that ends in a negative lookahead
// "(?!.*X)" or "(?!.*(A|B))" into the pattern before it and the
// alternatives, when all parts are valid RE2.
func splitLookahead(pat string) (base string, unless []string, ok bool) {
	open := lastGroupStart(pat)
	if open < 0 || !strings.HasPrefix(pat[open:], "(?!.*") {
		return "", nil, false
	}
	base, inner := pat[:open], pat[open+len("(?!.*"):len(pat)-1]
	unless, ok = lookaheadAlternatives(strings.TrimPrefix(inner, "?")) // (?!.*?X) is the same test
	if !ok || strings.TrimSpace(base) == "" || len(unless) == 0 || !validRegexps(append([]string{base}, unless...)) {
		return "", nil, false
	}
	return base, unless, true
}

// lookaheadAlternatives splits what a negative lookahead rules out, X or
// (A|B), into its alternatives; !ok for A|B, whose B is anchored where
// the lookahead is, not an unless.
func lookaheadAlternatives(inner string) ([]string, bool) {
	if g := lastGroupStart(inner); g == 0 && inner != "" {
		inner = strings.TrimPrefix(inner[1:len(inner)-1], "?:")
	} else if len(splitAlternatives(inner)) > 1 {
		return nil, false
	}
	return splitAlternatives(inner), true
}

// validRegexps reports whether every pattern is a non-empty valid RE2.
func validRegexps(pats []string) bool {
	for _, p := range pats {
		if p == "" || markdown.CheckRegex(p) != nil {
			return false
		}
	}
	return true
}

// lastGroupStart returns the offset of the "(" that the pattern's final ")"
// closes, or -1 when the pattern does not end with a group. Escapes and
// character classes are skipped.
func lastGroupStart(pat string) int {
	var stack []int
	last := -1
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(pat, i)
		case '(':
			stack = append(stack, i)
		case ')':
			if len(stack) == 0 {
				return -1
			}
			if i == len(pat)-1 {
				last = stack[len(stack)-1]
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		return -1
	}
	return last
}

// classEnd returns the offset of the "]" that closes the class at i.
func classEnd(pat string, i int) int {
	j := i + 1
	if j < len(pat) && pat[j] == '^' {
		j++
	}
	if j < len(pat) && pat[j] == ']' {
		j++
	}
	for ; j < len(pat); j++ {
		switch pat[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return len(pat)
}

// splitAlternatives splits a pattern at its top-level "|".
func splitAlternatives(pat string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(pat, i)
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, pat[start:i])
				start = i + 1
			}
		}
	}
	return append(out, pat[start:])
}

// fixableLookahead reports whether Fix would rewrite one of the item's
// commands.
func fixableLookahead(it *markdown.Item) bool {
	for _, c := range it.Triggers.Commands {
		if _, _, ok := splitLookahead(c); ok {
			return true
		}
	}
	return false
}

// fixLookahead rewrites the item's trailing lookaheads through its
// triggers node, so comments and other keys stay as they were.
func fixLookahead(it *markdown.Item) (string, error) {
	if !fixableLookahead(it) {
		return "", nil
	}
	trig := it.Node("triggers")
	cmds, unless := commandsAndUnless(trig)
	moved := moveLookaheads(cmds, unless)
	if err := it.SetNode("triggers", trig); err != nil {
		return "", fmt.Errorf("lint: fix %s: %w", it.Path, err)
	}
	return fmt.Sprintf("triggers: moved the negative lookahead into unless %q", moved), nil
}

// commandsAndUnless returns the triggers node's commands and its unless
// sequence, made (or made a sequence) when needed.
func commandsAndUnless(trig *yaml.Node) (cmds, unless *yaml.Node) {
	for i := 0; i+1 < len(trig.Content); i += 2 {
		switch trig.Content[i].Value {
		case "commands":
			cmds = trig.Content[i+1]
		case "unless":
			unless = trig.Content[i+1]
		}
	}
	if unless == nil {
		unless = &yaml.Node{Kind: yaml.SequenceNode, Style: cmds.Style & yaml.FlowStyle}
		trig.Content = append(trig.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "unless"}, unless)
	} else if unless.Kind == yaml.ScalarNode {
		*unless = yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: unless.Value, Style: unless.Style}}}
	}
	return cmds, unless
}

// moveLookaheads cuts the trailing lookaheads off the commands and adds
// what they rule out to unless (once each); it returns what it added.
func moveLookaheads(cmds, unless *yaml.Node) []string {
	have := map[string]bool{}
	for _, n := range unless.Content {
		have[n.Value] = true
	}
	scalars := []*yaml.Node{cmds}
	if cmds.Kind == yaml.SequenceNode {
		scalars = cmds.Content
	}
	var moved []string
	for _, n := range scalars {
		base, alts, ok := splitLookahead(n.Value)
		if n.Kind != yaml.ScalarNode || !ok {
			continue
		}
		n.Value = base
		for _, a := range alts {
			if !have[a] {
				have[a] = true
				unless.Content = append(unless.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: a, Style: yaml.SingleQuotedStyle})
				moved = append(moved, a)
			}
		}
	}
	return moved
}

var refInName = lazyre.New(`(?i)^(?:PF|ADR)-\d+`)

// renumber gives every newer item of a duplicate ref group the next free
// number of its kind. items is re-keyed by final path.
func renumber(items map[string]*markdown.Item, order []string, taken map[string]bool, changes map[string]*Change, note func(p, what string)) error {
	var all []*markdown.Item
	for _, p := range order {
		all = append(all, items[p])
	}
	groups := refGroups(all)
	if len(groups) == 0 {
		return nil
	}
	next := highestRefs(all)
	for _, g := range groups {
		for _, it := range g[1:] {
			next[it.Kind]++
			if err := renumberItem(items, changes, taken, note, it, g[0].Path, next[it.Kind]); err != nil {
				return err
			}
		}
	}
	return nil
}

// highestRefs returns the highest number of each kind, in refs and file
// names.
func highestRefs(all []*markdown.Item) map[string]int {
	next := map[string]int{}
	for _, it := range all {
		for _, s := range []string{it.Ref, path.Base(it.Path)} {
			if m := refInName().FindString(s); m != "" {
				_, num, _ := strings.Cut(m, "-")
				if n, _ := strconv.Atoi(num); n > next[it.Kind] {
					next[it.Kind] = n
				}
			}
		}
	}
	return next
}

// renumberItem gives it number num (the older keeper keeps its ref),
// renames its file when the name holds the old ref, and updates the
// references to it.
func renumberItem(items map[string]*markdown.Item, changes map[string]*Change, taken map[string]bool, note func(p, what string), it *markdown.Item, keeper string, num int) error {
	old := it.Ref
	ref := fmt.Sprintf("%s-%04d", markdown.RefPrefix(it.Kind), num)
	oldPath := it.Path
	node := it.Node("ref") // changed in place, so a comment on the line stays
	node.Value = ref
	if err := it.SetNode("ref", node); err != nil {
		return fmt.Errorf("lint: fix %s: %w", oldPath, err)
	}
	oldBase := path.Base(oldPath)
	newPath := renamed(oldPath, old, ref, taken)
	what := fmt.Sprintf("ref: renumbered %s to %s (the older %s keeps %s)", old, ref, keeper, old)
	if newPath != oldPath {
		if err := move(items, changes, oldPath, newPath); err != nil {
			return err
		}
		taken[newPath] = true
		what += ", renamed from " + oldPath
	}
	note(newPath, what)
	return updateRefs(items, it, old, ref, oldBase, path.Base(newPath), note)
}

// renamed is the free path of a renumbered item whose file name starts
// with its old ref; its path when the name does not.
func renamed(oldPath, old, ref string, taken map[string]bool) string {
	oldBase := path.Base(oldPath)
	m := refInName().FindString(oldBase)
	if !strings.EqualFold(m, old) {
		return oldPath
	}
	return markdown.FreeName(path.Dir(oldPath), ref+oldBase[len(m):], func(rel string) bool { return taken[rel] })
}

// move re-keys an item (and its pending change) under its new path.
func move(items map[string]*markdown.Item, changes map[string]*Change, from, to string) error {
	it := items[from]
	n, err := markdown.Parse(to, it.Raw())
	if err != nil {
		return fmt.Errorf("lint: fix %s: %w", from, err)
	}
	delete(items, from)
	items[to] = n
	c := changes[from]
	if c == nil {
		c = &Change{}
	}
	delete(changes, from)
	c.Path, c.From = to, from
	changes[to] = c
	return nil
}

// updateRefs rewrites references to a renumbered item. A link to its old
// file name is unambiguous and updated everywhere. A bare "PF-0001" is
// updated in the item itself and in items created no earlier than it (by
// ULID time): an older item was written before the renumbered one existed,
// so its mention means the item that kept the number.
func updateRefs(items map[string]*markdown.Item, moved *markdown.Item, old, ref, oldBase, newBase string, note func(p, what string)) error {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(old) + `\b(-[A-Za-z0-9._-]*\.md)?`)
	since, err := ulid.ParseStrict(moved.ID)
	var paths []string
	for p := range items {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		it := items[p]
		self := it.ID == moved.ID && p == path.Join(path.Dir(moved.Path), newBase)
		if !self && it.Kind == moved.Kind && strings.EqualFold(it.Ref, old) {
			continue // another holder of the number: its own ref stays
		}
		recent := false
		if id, perr := ulid.ParseStrict(it.ID); perr == nil && err == nil {
			recent = id.Time() >= since.Time()
		}
		out, changed := replaceRefs(re, it.Raw(), old, ref, oldBase, newBase, self || recent)
		if changed == 0 {
			continue
		}
		n, perr := markdown.Parse(p, out)
		if perr != nil {
			return fmt.Errorf("lint: fix %s: %w", p, perr)
		}
		items[p] = n
		note(p, fmt.Sprintf("updated %d reference(s) from %s to %s", changed, old, ref))
	}
	return nil
}

// replaceRefs rewrites links to the old file name and, when bare, bare
// mentions of the old ref; it returns the text and how many it rewrote.
func replaceRefs(re *regexp.Regexp, raw []byte, old, ref, oldBase, newBase string, bare bool) ([]byte, int) {
	changed := 0
	out := re.ReplaceAllFunc(raw, func(m []byte) []byte {
		sub := re.FindSubmatch(m)
		switch {
		case len(sub[1]) > 0 && old+string(sub[1]) == oldBase:
			changed++
			return []byte(newBase)
		case len(sub[1]) == 0 && bare:
			changed++
			return []byte(ref)
		}
		return m
	})
	return out, changed
}
