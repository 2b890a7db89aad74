package markdown_test

import (
	"reflect"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/synthetic"
	"gopkg.in/yaml.v3"
)

// The frontmatters of a synthetic store, shaped as lore and people write
// them, all take quickYAML's way and come out as yaml.v3's trees.
func TestQuickYAMLTakesSyntheticStores(t *testing.T) {
	for name, data := range synthetic.Files(2000) {
		fm, _ := markdown.FrontmatterOf(data)
		if !markdown.SameAsYAML(t, name, fm) {
			t.Errorf("%s: quickYAML refused a frontmatter shaped as lore writes it:\n%s", name, fm)
		}
	}
}

// Every synthetic item's body takes quickSections' way.
func TestQuickSectionsTakesSyntheticStores(t *testing.T) {
	for name, data := range synthetic.Files(2000) {
		it, err := markdown.Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		from := len(data) - len(it.Body())
		if secs, ok := markdown.QuickSections(data, from); !ok || !reflect.DeepEqual(secs, markdown.FullSections(data, from)) {
			t.Errorf("%s: quickSections took it %v, found %+v", name, ok, secs)
		}
	}
}

// FuzzSections: the sections quickSections finds, when it takes a body,
// are goldmark's.
func FuzzSections(f *testing.F) {
	for _, data := range synthetic.Files(20) {
		f.Add(data, 0)
	}
	for _, s := range []string{
		"## A\n```\n## not\n```\n## B\n",
		"- item\n\n  ```\n## C\n  ```\n",
		"> quote\n## D\n~~~~\n~~~\n## E\n~~~~~\n",
		"para\n## F ##\n#tag\n### G\n    ## code\n",
		"- <!--\n## H\n-->\n> ```\n## I\n[a]:\n## J\n",
		"1.  item\n\n    ```\n## K\n    ```\n##\vL\n",
	} {
		f.Add([]byte(s), 0)
	}
	f.Fuzz(func(t *testing.T, data []byte, from int) {
		if from < 0 || from > len(data) {
			return
		}
		fuzzlimit.Run(t, func() {
			if secs, ok := markdown.QuickSections(data, from); ok {
				if full := markdown.FullSections(data, from); !reflect.DeepEqual(secs, full) {
					t.Errorf("quickSections found\n%+v\ngoldmark\n%+v\nin %q", secs, full, data[from:])
				}
			}
		})
	})
}

// FuzzQuickYAML: whatever quickYAML accepts, yaml.v3 parses to the same
// tree.
func FuzzQuickYAML(f *testing.F) {
	for _, data := range synthetic.Files(20) {
		fm, _ := markdown.FrontmatterOf(data)
		f.Add(fm)
	}
	f.Add([]byte("tags:\n- a\n- 'b'\nt: [x, \"y\"]\nn: 0x1F\n"))
	f.Add([]byte("true: x\nNull:\n  no: [~, 1e3]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzlimit.Run(t, func() { markdown.SameAsYAML(t, "fuzz", data) })
	})
}

func BenchmarkFrontmatter(b *testing.B) {
	var fms [][]byte
	for _, data := range synthetic.Files(1000) {
		fm, _ := markdown.FrontmatterOf(data)
		fms = append(fms, fm)
	}
	b.Run("quick", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			var doc yaml.Node
			if !markdown.QuickYAML(fms[i%len(fms)], &doc) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			var doc yaml.Node
			if err := yaml.Unmarshal(fms[i%len(fms)], &doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
