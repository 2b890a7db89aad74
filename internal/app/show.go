package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Resolve finds an item by, in order: id, ref, path, slug, id prefix. The
// first way that matches decides; two matches are an ambiguity that lists
// the candidates (ErrAmbiguous), unless they are one id's copies in
// several scopes, given in precedence order: the first is the one a build
// keeps. None is ErrNotFound.
func Resolve(items []*markdown.Item, q string) (*markdown.Item, error) {
	q = strings.TrimSpace(q)
	for _, match := range resolvers(q) {
		var found []*markdown.Item
		for _, it := range items {
			if match(it) {
				found = append(found, it)
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0], nil
		}
		if oneIDInScopes(found) {
			return found[0], nil // the first in precedence order, the one a build keeps
		}
		var names []string
		for _, it := range found {
			names = append(names, fmt.Sprintf("%s (%s)", it.ID, it.Path))
		}
		return nil, fmt.Errorf("%q %w: %s", q, ErrAmbiguous, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("%w %q (lore list shows ids, refs and paths)", ErrNotFound, q)
}

// oneIDInScopes says the items are copies of one id in different scopes
// or sources (two sources can fetch the same repository), not two items
// of one store that share an id by mistake.
func oneIDInScopes(items []*markdown.Item) bool {
	seen := map[string]bool{}
	for _, it := range items {
		o := origin(it.Path)
		if it.ID != items[0].ID || seen[o] {
			return false
		}
		seen[o] = true
	}
	return true
}

// resolvers are Resolve's ways to match q, in order.
func resolvers(q string) []func(*markdown.Item) bool {
	stem := func(it *markdown.Item) string { return strings.TrimSuffix(path.Base(it.Path), ".md") }
	return []func(*markdown.Item) bool{
		func(it *markdown.Item) bool { return strings.EqualFold(it.ID, q) },
		func(it *markdown.Item) bool { return it.Ref != "" && strings.EqualFold(it.Ref, q) },
		func(it *markdown.Item) bool {
			return it.Path == q || strings.HasSuffix(it.Path, "/"+strings.TrimPrefix(q, "./"))
		},
		func(it *markdown.Item) bool {
			s := stem(it)
			return s == q || (it.Ref != "" && strings.EqualFold(s, it.Ref+"-"+q))
		},
		func(it *markdown.Item) bool {
			return len(q) >= 2 && strings.HasPrefix(strings.ToUpper(it.ID), strings.ToUpper(q))
		},
	}
}

// resolveIn loads the store's items and resolves q among them; files that
// cannot be parsed come back as skipped, whatever the outcome. An item of
// another scope that q names is an error saying whose it is: a command
// that changes an item changes the project's alone.
func resolveIn(s *gitstore.Store, q string) (*markdown.Item, []error, error) {
	items, skipped := s.Load()
	it, err := Resolve(items, q)
	if errors.Is(err, ErrNotFound) {
		if _, all, _, lerr := allItems(s); lerr == nil {
			if other, oerr := Resolve(all, q); oerr == nil {
				err = fmt.Errorf("%s is not this repository's item: %s (promote, archive and reject change the project's items only)", other.Path, whose(other.Path))
			}
		}
	}
	return it, skipped, err
}

// whose says whose store an org or user item's path is in, and where to
// change it.
func whose(p string) string {
	name := Origin(p)
	if name == UserStore {
		return "it is in your own store (" + compile.UserDir() + "): edit the file there"
	}
	return "it is " + name + "'s: change it in " + name + "'s repository"
}

// Field is one frontmatter key with its value on one line.
type Field struct{ Key, Value string }

// ShowResult is one item for lore show.
type ShowResult struct {
	Item     *markdown.Item
	Delivery compile.Delivery // how the item reaches an agent
	Extra    []Field          // keys the header does not show, in file order
	Skipped  []error          // files that could not be parsed (lore lint explains them)
}

// known keys are shown in the header; any other key is an Extra.
var knownKeys = map[string]bool{"id": true, "kind": true, "title": true, "status": true, "priority": true,
	"confidence": true, "ref": true, "tags": true, "triggers": true, "created": true, "updated": true}

// Show finds the item q names (see Resolve) among the project's items,
// else among every scope's (an id in two scopes is the project's). Skipped
// is set on error too.
func Show(s *gitstore.Store, q string) (ShowResult, error) {
	items, skipped := s.Load()
	in := compile.Input{Items: items}
	it, err := Resolve(items, q)
	if errors.Is(err, ErrNotFound) {
		var all []*markdown.Item
		if in, all, skipped, err = allItems(s); err == nil {
			it, err = Resolve(all, q)
		}
	} else if err == nil {
		// A project item: no other scope comes before it. A key with a
		// problem is at its default, as the build takes it.
		if in.Config, err = s.Config(); config.Usable(err) {
			err = nil
		}
	}
	r := ShowResult{Item: it, Skipped: skipped}
	if err != nil {
		return r, err
	}
	r.Delivery = compile.DeliveryIn(in, it)
	for _, k := range it.Keys() {
		if !knownKeys[k] {
			r.Extra = append(r.Extra, Field{k, compactValue(it.Node(k))})
		}
	}
	return r, nil
}

// compactValue prints a frontmatter value on one line without its
// comments: scalars as they are, anything else as compact JSON.
func compactValue(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return "(" + err.Error() + ")"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// sectionJSON is one section in lore show --json.
type sectionJSON struct {
	Title   string `json:"title"`
	Line    int    `json:"line"`
	Content string `json:"content"`
}

// JSON is lore show --json's document: every frontmatter key as written
// (unknown ones too), with priority as a number plus its band, the
// sections and the path.
func (r ShowResult) JSON() (map[string]any, error) {
	it := r.Item
	out := map[string]any{}
	for _, k := range it.Keys() {
		var v any
		if err := it.Node(k).Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", it.Path, k, err)
		}
		out[k] = v
	}
	out["priority"] = int(it.Priority)
	out["band"] = it.Priority.Band()
	out["confidence"] = it.Confidence
	out["path"] = it.Path
	out["delivery"] = r.Delivery.Kind
	if r.Delivery.Reason != "" {
		out["deliveryReason"] = r.Delivery.Reason
	}
	secs := []sectionJSON{}
	for _, s := range it.Sections {
		secs = append(secs, sectionJSON{s.Title, s.Line, s.Content})
	}
	out["sections"] = secs
	return out, nil
}
