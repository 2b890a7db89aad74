package review

import (
	"errors"
	"fmt"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// ErrRefused is wrapped by a promotion refused because the item would
// never reach an agent: nothing was written, and a review can go on.
var ErrRefused = errors.New("not promoted, nothing written")

// Deliverable makes sure the item it, about to be made active, reaches an
// agent (docs/design.md, Prevention before the call): a priority too low
// for its triggers is raised to the lowest named band at which they can
// reach the threshold, and the note says so. It refuses, writing nothing,
// when the build would leave the item out (a lint error, named by file,
// line and key), when no priority would make its triggers fire, and when
// the reviewer asked for a priority (asked) too low for them: lore does
// not overrule an explicit choice, nor keep a dead item. It refuses too
// when the item's examples disagree with its triggers at the priority it
// gets (CheckExamples).
func Deliverable(it *markdown.Item, asked string, set manifest.Settings) (note string, err error) {
	note, err = deliverable(it, asked, set)
	if err != nil {
		return "", err
	}
	if err := CheckExamples(it, set); err != nil {
		return "", fmt.Errorf("%w: %v", ErrRefused, err)
	}
	return note, nil
}

// deliverable is Deliverable but for the examples.
func deliverable(it *markdown.Item, asked string, set manifest.Settings) (note string, err error) {
	if err := it.Set("status", "active"); err != nil {
		return "", err
	}
	if why := compile.LeftOut(it, set); why != "" {
		return "", fmt.Errorf("%w: %s", ErrRefused, why)
	}
	was := it.Priority
	band, ok, why := compile.LowestFiring(compile.Triggers(it), int(was), set.Threshold)
	switch {
	case !ok:
		return "", fmt.Errorf("%w: %s: no priority would make it fire: %s", ErrRefused, it.Path, why)
	case band == was.Band():
		return "", nil
	case asked != "":
		if asked != was.Band() {
			asked += " (" + was.Band() + ")"
		}
		return "", fmt.Errorf("%w: %s: at priority %s its triggers can never reach the threshold %.2f; the lowest priority at which they can is %s: promote with --priority %s, or add triggers",
			ErrRefused, it.Path, asked, set.Threshold, band, band)
	}
	if err := it.Set("priority", band); err != nil {
		return "", err
	}
	return fmt.Sprintf("priority raised from %s to %s so its triggers can reach the threshold %.2f", was.Band(), band, set.Threshold), nil
}
