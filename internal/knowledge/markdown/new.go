package markdown

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Spec is a new item before it has an id, a ref and a file. Compose
// renders it the one way every new item file is written: `lore add`,
// `lore import`, scan drafts, consolidation and rendered observations.
type Spec struct {
	Kind, Title, Status string
	Priority            string // a band name or "1".."10"; "" is left out
	Confidence          float64
	Form, Scope         string
	Enforce             string
	Examples            Examples // calls it must fire and stay quiet on
	Triggers            Triggers
	Tags                []string
	Supersedes          []string
	Source              *Source // provenance of a generated item; nil for hand-written ones
	Extra               []Field // further keys, after the known ones (an import's provenance)
	Body                string
}

// Compose renders the item file with the given id, ref and creation time,
// its frontmatter in block style with the keys in the order of fields. A
// confidence of 0 or 1 is left out (1.0 is the default).
func (s Spec) Compose(id, ref string, now time.Time) ([]byte, error) {
	return Compose(s.fields(id, ref, now), s.Body)
}

// fields is the frontmatter of a new item, in the documented key order:
// the one list to extend when an item gains a key.
func (s Spec) fields(id, ref string, now time.Time) []Field {
	var priority any = s.Priority
	if n, err := strconv.Atoi(s.Priority); err == nil {
		priority = n
	}
	var confidence any
	if s.Confidence != 0 && s.Confidence != 1.0 {
		confidence = s.Confidence
	}
	var trig any
	if !s.Triggers.Empty() {
		trig = s.Triggers // its yaml tags keep the documented key order
	}
	stamp := now.UTC().Truncate(time.Second).Format(time.RFC3339)
	fields := []Field{
		{Key: "id", Value: id},
		{Key: "kind", Value: s.Kind},
		{Key: "title", Value: s.Title},
		{Key: "status", Value: s.Status},
		{Key: "priority", Value: priority},
		{Key: "confidence", Value: confidence},
		{Key: "form", Value: s.Form},
		{Key: "ref", Value: ref},
		{Key: "scope", Value: s.Scope},
		{Key: "triggers", Value: trig},
		{Key: "tags", Value: s.Tags},
		{Key: "enforce", Value: s.Enforce},
		{Key: "examples", Value: s.Examples.value()},
		{Key: "supersedes", Value: s.Supersedes},
		{Key: "source", Value: s.Source},
	}
	fields = append(fields, s.Extra...)
	return append(fields, Field{Key: "created", Value: stamp}, Field{Key: "updated", Value: stamp})
}

// SectionsBody renders H2 sections in order, leaving out empty ones unless
// keepEmpty (an editor template keeps them to be filled in).
func SectionsBody(secs [][2]string, keepEmpty bool) string {
	var b strings.Builder
	for _, s := range secs {
		if strings.TrimSpace(s[1]) == "" && !keepEmpty {
			continue
		}
		fmt.Fprintf(&b, "## %s\n%s\n\n", s[0], strings.TrimSpace(s[1]))
	}
	return b.String()
}

// FileName is an item's file name: its ref (if any) and the slug of its title.
func FileName(ref, title string) string {
	if ref != "" {
		return ref + "-" + Slug(title) + ".md"
	}
	return Slug(title) + ".md"
}

// WithRef returns an item file whose ref key is ref: the number decided
// under the store lock replaces the one a user saw while editing. Lessons
// (ref "") and a file that already has ref come back unchanged.
func WithRef(data []byte, ref string) ([]byte, error) {
	if ref == "" {
		return data, nil
	}
	it, err := Parse("", data)
	if err != nil {
		return nil, err
	}
	if it.Ref == ref {
		return data, nil
	}
	if err := it.Set("ref", ref); err != nil {
		return nil, err
	}
	return it.Raw(), nil
}
