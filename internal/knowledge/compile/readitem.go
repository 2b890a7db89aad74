package compile

import (
	"fmt"

	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/sysread"
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

// readItemBytes is ReadItem's read, with its size limits. It is most of
// the system calls of a cold build (sysread).
func readItemBytes(path, rel string) ([]byte, error) {
	data, err := sysread.ReadFile(path, lint.MaxItemBytes)
	if big, ok := err.(*sysread.TooLargeError); ok {
		return nil, oversized(rel, big.Size)
	}
	return data, err
}

func oversized(rel string, size int64) *markdown.Error {
	return &markdown.Error{Path: rel, Line: 1, Msg: fmt.Sprintf(
		"oversized item: %d bytes, at most %d; not read (split it or move detail to a linked document)", size, lint.MaxItemBytes)}
}
