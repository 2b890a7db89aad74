package gitstore

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// HeadFiles lists the paths of HEAD's tree, sorted: files, symbolic links
// and submodules, not folders. lint and lore stats judge an item stale
// against it (docs/design.md, Evidence of effect): what is committed, not
// what the work tree holds now. No commit yet: nil, nil (unknown).
func (s *Store) HeadFiles() ([]string, error) {
	ref, err := storer.ResolveReference(s.storage, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: head files: resolve HEAD: %w", err)
	}
	c, err := object.GetCommit(s.storage, ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("gitstore: head files: %w", err)
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("gitstore: head files: %w", err)
	}
	files := []string{}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("gitstore: head files: %w", err)
		}
		if e.Mode != filemode.Dir {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	return files, nil
}
