package gitstore

import (
	"bytes"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// commitFacts are the parts of a commit the history walk reads.
type commitFacts struct {
	tree    plumbing.Hash
	parents []plumbing.Hash
	author  object.Signature
}

// decodeCommit reads a commit's tree, parents and author. A commit whose
// first lines are the canonical "tree", "parent"... and "author" headers
// (every commit git writes) is read from those lines alone, as go-git's
// commit scanner reads them; anything else goes to object.DecodeCommit.
// The walk decodes every commit of the history, and the message, committer
// and signature it does not need were a sixth of the decoding.
func decodeCommit(st storer.EncodedObjectStorer, o plumbing.EncodedObject, h plumbing.Hash) (commitFacts, error) {
	if f, ok := commitHeader(o); ok {
		return f, nil
	}
	c, err := object.DecodeCommit(st, knownHash{o, h})
	if err != nil {
		return commitFacts{}, err
	}
	return commitFacts{tree: c.TreeHash, parents: c.ParentHashes, author: c.Author}, nil
}

// commitHeader is decodeCommit's fast path; ok is false when it cannot tell.
func commitHeader(o plumbing.EncodedObject) (commitFacts, bool) {
	r, err := o.Reader()
	if err != nil {
		return commitFacts{}, false
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		return commitFacts{}, false
	}
	var f commitFacts
	line, rest := cutLine(data)
	tree, ok := bytes.CutPrefix(line, []byte("tree "))
	if !ok || !plumbing.IsHash(string(tree)) {
		return commitFacts{}, false
	}
	f.tree = plumbing.NewHash(string(tree))
	for {
		line, rest = cutLine(rest)
		p, ok := bytes.CutPrefix(line, []byte("parent "))
		if !ok {
			break
		}
		if !plumbing.IsHash(string(p)) {
			return commitFacts{}, false
		}
		f.parents = append(f.parents, plumbing.NewHash(string(p)))
	}
	author, ok := bytes.CutPrefix(line, []byte("author "))
	if !ok {
		return commitFacts{}, false
	}
	f.author.Decode(author)
	return f, true
}

// cutLine is the first line of b without its newline, and the rest.
func cutLine(b []byte) ([]byte, []byte) {
	line, rest, _ := bytes.Cut(b, []byte("\n"))
	return line, rest
}

// knownHash is an object read by its hash: decoding it need not hash its
// content again (go-git does for an object read from a pack).
type knownHash struct {
	plumbing.EncodedObject
	h plumbing.Hash
}

func (o knownHash) Hash() plumbing.Hash { return o.h }
