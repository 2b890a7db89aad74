// Package store is the group that holds gitstore: the repository, read
// with go-git, and the only code that creates, renames, removes or
// rewrites a file under .lore/ (writers_test.go holds every other package
// to that); and sources, the organisation stores lore sync fetches with
// go-git into lore's cache folder, the one package that uses the network.
//
// It may import knowledge and inject; everything from capture up reaches
// the repository through it (docs/architecture.md).
package store
