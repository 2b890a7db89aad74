package markdown

import (
	"reflect"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

var plainSeeds = []string{
	"# Learnings\n\n\n\n\n\n\n\n\n\n## A\nkind: pitfall\nbody\n\n## B ##\n- item\n* x\n1. y\n    code\n## \n##\n## #\n##\tC\n### D\n##E\n",
	"# L\n\n\n\n\n\n\n\n\n\n```\n## fenced\n```\n## F\n",
	"# L\n\n\n\n\n\n\n\n\n\nSetext\n---\n## G\n",
	"## early\n\n\n\n\n\n\n\n\n\n## H\n\u00a0\n## \u00a0I\u00a0\n",
	"# L\n\n\n\n\n\n\n\n\n\n## J\r\n",
	"# L\n\n\n\n\n\n\n\n\n\n## K\nlast line without newline",
}

// plainMatchesGoldmark fails when the fast path answers and disagrees with
// goldmark.
func plainMatchesGoldmark(t *testing.T, data []byte) {
	var fast []Entry
	var ok bool
	var slow *Learnings
	var err error
	fuzzlimit.Run(t, func() {
		fast, ok = plainEntries(data)
		slow, err = parseLearnings("l.md", data, false)
	})
	if !ok || err != nil {
		return
	}
	if len(fast) == 0 && len(slow.Entries) == 0 {
		return
	}
	if !reflect.DeepEqual(fast, slow.Entries) {
		t.Fatalf("%q:\nfast     %+v\ngoldmark %+v", data, fast, slow.Entries)
	}
}

func TestPlainEntriesMatchGoldmark(t *testing.T) {
	for _, s := range plainSeeds {
		plainMatchesGoldmark(t, []byte(s))
	}
	if _, ok := plainEntries([]byte(plainSeeds[0])); !ok {
		t.Fatal("a plain file took the slow path")
	}
}

// FuzzPlainEntries: ParseLearnings' fast path never disagrees with goldmark.
func FuzzPlainEntries(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(plainMatchesGoldmark)
}
