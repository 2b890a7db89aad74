package interop

import (
	"fmt"
	"strings"
	"time"

	"github.com/lore-agents/lore/lint"
	"github.com/lore-agents/lore/markdown"
	"github.com/lore-agents/lore/redact"
)

// fit makes the item a draft becomes one lore's lint accepts, as rule
// files carry what lint rejects (an example password in a testing rule,
// an emoji's variation selector, a 16 KB instructions file): secrets are
// redacted and hidden characters taken out, each said in a note; the
// composed file is then linted, and a draft lint still rejects is not
// created (its reason noted), for an item lint rejects never reaches an
// agent and fails `lore lint` in CI.
func fit(spec markdown.Spec, folder, id string, now time.Time, from string) (markdown.Spec, []Note, bool) {
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
	file := lint.File{Path: ".lore/" + folder + "/" + markdown.Slug(spec.Title) + ".md", Data: data}
	for _, f := range lint.Check(lint.Store{Items: []lint.File{file}}) {
		if f.Severity == lint.Error {
			say("not imported: lint would reject it: %s", f.Msg)
			return spec, notes, false
		}
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
