package markdown

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// corpus is every Markdown file in the repository's testdata (real public
// rule files, ADRs and lessons among them) and the shapes that tell a
// frontmatter block's end apart.
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{
		"indented close":   []byte("---\nid: x\n  ---\ntitle: y\n---\n## Fix\nz\n"),
		"spaced close":     []byte("---\nid: x\n--- \t\n## Fix\nz\n"),
		"close at the end": []byte("---\nid: x\n---"),
		"crlf and bom":     []byte("\ufeff---\r\nid: x\r\n---\r\n## Fix\r\nz\r\n"),
		"blank lead":       []byte("\n\n---\nid: x\n---\n\n## Fix\n```\n## not\n```\n"),
		"dots":             []byte("---\nid: x\n...\n---\nbody\n"),
		"empty block":      []byte("---\n---\n"),
		"setext":           []byte("---\nid: x\n---\nFix\n---\n[a]: /b\n---\n## Why\n<!-- c -->\n"),
	}
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") || !strings.Contains(path, "testdata") {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d files in the corpus", len(files))
	}
	return files
}

// adrg/frontmatter given the block alone, or quickYAML when it takes the
// lines between the --- lines, reads what adrg/frontmatter and yaml.v3
// read given the whole file: the same tree, the same body offset, the
// same errors.
func TestFrontmatterBlockIsWholeFile(t *testing.T) {
	for name, data := range corpus(t) {
		sameFrontmatter(t, name, data)
	}
}

func FuzzFrontmatterBlock(f *testing.F) {
	for _, data := range corpus(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzlimit.Run(t, func() { sameFrontmatter(t, "fuzz", data) })
	})
}

func sameFrontmatter(t *testing.T, name string, data []byte) {
	text := bytes.TrimPrefix(data, []byte("\ufeff"))
	open, close, end := findFrontmatter(text)
	if open < 0 || close < 0 {
		return
	}
	var whole, block yaml.Node
	restWhole, errWhole := frontmatter.Parse(bytes.NewReader(text), &whole, yamlFormat)
	restBlock, errBlock := parseFrontmatter(text[:end], &block)
	if errWhole != nil || errBlock != nil {
		if errWhole == nil || errBlock == nil || errWhole.Error() != errBlock.Error() {
			t.Errorf("%s: errors %v and %v", name, errWhole, errBlock)
		}
		return
	}
	if len(text)-len(restWhole) != end-len(restBlock) || !reflect.DeepEqual(whole, block) {
		t.Errorf("%s: body at %d whole, %d from the block", name, len(text)-len(restWhole), end-len(restBlock))
	}
}

// The block parser finds the sections goldmark's full parser finds.
func TestBlockParserFindsTheSameSections(t *testing.T) {
	n := 0
	for name, data := range corpus(t) {
		for _, from := range []int{0, len(data) / 3} {
			full, blocks := sectionsOf(mdParser(), data, from), parseSections(data, from)
			if !reflect.DeepEqual(full, blocks) {
				t.Errorf("%s from %d:\n%+v\n%+v", name, from, full, blocks)
			}
			n += len(full)
		}
	}
	if n < 100 {
		t.Errorf("only %d sections compared", n)
	}
}
