package app

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ListOptions are lore list's filters; empty ones pass every item.
type ListOptions struct {
	Kind     string
	Status   string
	Tags     []string // all must match; a bare category such as lang matches lang:*
	Priority string   // a band (critical, high, medium, low) or a number 1-10
}

// ListEntry is one item in lore list --json.
type ListEntry struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	Title      string   `json:"title"`
	Status     string   `json:"status"`
	Priority   int      `json:"priority"`
	Band       string   `json:"band"`
	Confidence float64  `json:"confidence"`
	Ref        string   `json:"ref,omitempty"`
	Tags       []string `json:"tags"`
	Path       string   `json:"path"`
	Origin     string   `json:"origin"` // project, an org source's name, or user
	compile.Delivery
}

// ListResult is the items that pass every filter, in path order.
type ListResult struct {
	Items   []ListEntry
	Skipped []error // files that could not be parsed
	// Unfetched are the organisation sources the configs name with no
	// copy here: their items are not listed (NoCopy).
	Unfetched []string
}

// List loads the items and keeps those that pass every filter. A bad
// priority is an InputError before anything is read.
func List(s *gitstore.Store, opt ListOptions) (ListResult, error) {
	keep, err := opt.filter()
	if err != nil {
		return ListResult{}, err
	}
	in, items, skipped, err := allItems(s)
	if err != nil {
		return ListResult{}, err
	}
	delivery := compile.Deliveries(in)
	r := ListResult{Items: []ListEntry{}, Skipped: skipped, Unfetched: unfetched(in.Stores)}
	for _, it := range items {
		if !keep(it) {
			continue
		}
		r.Items = append(r.Items, listEntry(it, delivery[it.Path]))
	}
	return r, nil
}

// origin names where an item comes from: project, a source or user.
func origin(path string) string {
	if o := manifest.Origin(path); o != "" {
		return o
	}
	return compile.Project.String()
}

// listEntry is one item as lore list --json prints it.
func listEntry(it *markdown.Item, d compile.Delivery) ListEntry {
	tags := it.Tags
	if tags == nil {
		tags = []string{}
	}
	return ListEntry{ID: it.ID, Kind: it.Kind, Title: it.Title, Status: it.Status,
		Priority: int(it.Priority), Band: it.Priority.Band(), Confidence: it.Confidence, Ref: it.Ref,
		Tags: tags, Path: it.Path, Origin: origin(it.Path), Delivery: d}
}

// filter turns the options into one predicate.
func (o ListOptions) filter() (func(*markdown.Item) bool, error) {
	band, num, err := priorityFilter(o.Priority)
	if err != nil {
		return nil, err
	}
	return func(it *markdown.Item) bool {
		switch {
		case o.Kind != "" && it.Kind != o.Kind,
			o.Status != "" && !strings.EqualFold(it.Status, o.Status),
			band != "" && it.Priority.Band() != band,
			num != 0 && int(it.Priority) != num:
			return false
		}
		for _, t := range o.Tags {
			if !hasTag(it.Tags, t) {
				return false
			}
		}
		return true
	}, nil
}

// priorityFilter reads a priority filter as a band or a number.
func priorityFilter(p string) (band string, num int, err error) {
	p = strings.ToLower(strings.TrimSpace(p))
	switch p {
	case "":
		return "", 0, nil
	case "critical", "high", "medium", "low":
		return p, 0, nil
	}
	n, err := markdown.ParsePriority(p)
	if err != nil {
		return "", 0, &InputError{fmt.Errorf("--priority: %w", err)}
	}
	return "", int(n), nil
}

func hasTag(tags []string, want string) bool {
	for _, t := range tags {
		if strings.EqualFold(t, want) {
			return true
		}
		if cat, _, ok := strings.Cut(t, ":"); ok && !strings.Contains(want, ":") && strings.EqualFold(cat, want) {
			return true
		}
	}
	return false
}
