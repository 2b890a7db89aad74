package interop

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/knowledge/redact"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// checker holds what a created item is checked against: the store's
// injection threshold and its config (lint reads its budget).
type checker struct {
	threshold float64
	config    *lint.File
}

func checkerOf(s *gitstore.Store) checker {
	cfg, _ := s.Config() // a key lint rejects is at its default, as the build takes it
	c := checker{threshold: cfg.Inject.Threshold}
	if data, err := s.ReadFile(lorepath.Config); err == nil {
		c.config = &lint.File{Path: lorepath.Config, Data: data}
	}
	return c
}

// ready is the item a draft's spec becomes, its delivery once promoted
// and the notes on what changed; false when it is left out.
func (c checker) ready(spec markdown.Spec, id string, now time.Time, from string) (markdown.Spec, string, []Note, bool) {
	spec, delivery, notes := deliver(spec, c.threshold, from)
	spec, more, ok := fit(spec, id, now, from, c.config)
	return spec, delivery, append(notes, more...), ok
}

// fit makes the item a draft becomes one lore's lint accepts, as rule
// files carry what lint rejects (an example password in a testing rule,
// an emoji's variation selector, a 16 KB instructions file): secrets are
// redacted and hidden characters taken out, each said in a note; the
// composed file is then linted: a draft lint still rejects is not
// created (its reason noted), for an item lint rejects never reaches an
// agent and fails `lore lint` in CI; lint's warnings are noted.
func fit(spec markdown.Spec, id string, now time.Time, from string, config *lint.File) (markdown.Spec, []Note, bool) {
	var notes []Note
	say := func(format string, args ...any) {
		notes = append(notes, Note{From: from, Title: spec.Title, Msg: fmt.Sprintf(format, args...)})
	}
	for _, f := range []*string{&spec.Title, &spec.Body} {
		if clean, n := withoutHidden(*f); n > 0 {
			*f = clean
			say("%d invisible or bidi character(s) taken out (lint rejects them)", n)
		}
		clean, err := redact.String(*f)
		if err != nil {
			say("the secret check could not run (%v): not imported", err)
			return spec, notes, false
		}
		if clean != *f {
			*f = clean
			say("what looks like a secret is imported as %s: check the source", redact.Placeholder("..."))
		}
	}
	data, err := spec.Compose(id, "", now)
	if err != nil {
		say("not imported: %v", err)
		return spec, notes, false
	}
	file := lint.File{Path: path.Join(lorepath.InDir(markdown.Folder(spec.Kind)), markdown.Slug(spec.Title)+".md"), Data: data}
	var warnings []string
	for _, f := range lint.Check(lint.Store{Items: []lint.File{file}, Config: config}) {
		if f.Severity == lint.Error {
			say("not imported: lint would reject it: %s", f.Msg)
			return spec, notes, false
		}
		warnings = append(warnings, f.Msg)
	}
	// What lint warns about, the review should see (a body over the
	// injection budget arrives by its title only).
	for _, w := range warnings {
		say("lint: %s", w)
	}
	return spec, notes, true
}

// withoutHidden returns s without the characters lint rejects as hidden,
// and how many it took out.
func withoutHidden(s string) (string, int) {
	n := 0
	clean := strings.Map(func(r rune) rune {
		if lint.Hidden(r) {
			n++
			return -1
		}
		return r
	}, s)
	return clean, n
}
