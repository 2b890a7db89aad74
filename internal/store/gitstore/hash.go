package gitstore

import (
	"crypto"
	"crypto/sha1"

	"github.com/go-git/go-git/v5/plumbing/hash"
)

// lore only reads objects that are already in the local repository (it
// never fetches, receives or writes git objects), and go-git hashes every
// object it reads just to key its object cache. SHA-1 collision detection
// (sha1cd, go-git's default) guards object identity against crafted input
// arriving over the network; for cache keys of local objects the standard
// library's SHA-1 gives the same hashes at a fraction of the cost (measured
// by BenchmarkAges).
func init() {
	_ = hash.RegisterHash(crypto.SHA1, sha1.New)
}
