package compile

import (
	"fmt"
	"io"
	"os"

	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// ReadItem reads and parses the item file at path, named rel in the item
// and its errors. A file over lint.MaxItemBytes is refused by its size
// before it is read (docs/design.md, Incremental build): lint rejects it
// anyway, and reading and parsing a 50 MB file cost a build seconds and
// hundreds of megabytes. The read is bounded too, for a file that grows
// between the stat and the read.
func ReadItem(path, rel string) (*markdown.Item, error) {
	data, err := readItemBytes(path, rel)
	if err != nil {
		return nil, err
	}
	return markdown.Parse(rel, data)
}

// readItemBytes is ReadItem's read, with its size limits.
func readItemBytes(path, rel string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > lint.MaxItemBytes {
		return nil, oversized(rel, st.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, lint.MaxItemBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if len(data) > lint.MaxItemBytes {
		return nil, oversized(rel, int64(len(data)))
	}
	return data, nil
}

func oversized(rel string, size int64) *markdown.Error {
	return &markdown.Error{Path: rel, Line: 1, Msg: fmt.Sprintf(
		"oversized item: %d bytes, at most %d; not read (split it or move detail to a linked document)", size, lint.MaxItemBytes)}
}
