package gitstore

import (
	"reflect"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

var headingSeeds = []string{
	"# Learnings\n\n\n\n\n\n\n\n\n\n## A\nbody\n\n## B ##\n- list\n## C\n",
	"# L\n\n\n\n\n\n\n\n\n\n```\n## not a heading\n```\n## D\n",
	"# L\n\n\n\n\n\n\n\n\n\nSetext\n---\n## E\n",
	"# L\n\n\n\n\n\n\n\n\n\n<div>\n## inside html\n</div>\n\n## F\n",
	"# L\n\n\n\n\n\n\n\n\n\n> quote\n## G\n   ## H\n\t## I\n    ## J\n",
	"## too early\n\n\n\n\n\n\n\n\n\n##\n## \n##\tK\n###  L\n##M\n",
	"# L\n\n\n\n\n\n\n\n\n\n- item\n  ## nested\n## N\n* a\n\n1. b\n## O\r\n",
}

func TestHeadingSetMatchesGoldmark(t *testing.T) {
	for _, s := range headingSeeds {
		if got, want := headingSet([]byte(s), map[string]string{}), markdown.HeadingTexts([]byte(s)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: fast %v, goldmark %v", s, got, want)
		}
	}
	for _, l := range []string{"text", "- item", "* item", "1. item", "", "    code"} {
		if !markdown.PlainLine([]byte(l)) {
			t.Errorf("%q takes the slow path", l)
		}
	}
}

// FuzzHeadingSet: the fast path never disagrees with markdown.HeadingTexts,
// which defines V(C).
func FuzzHeadingSet(f *testing.F) {
	for _, s := range headingSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, want map[string]bool
		fuzzlimit.Run(t, func() { got, want = headingSet(data, map[string]string{}), markdown.HeadingTexts(data) })
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: fast %v, goldmark %v", data, got, want)
		}
	})
}
