// Package app is lore's application layer: one function per use case, the
// only thing a command in cmd/lore calls. A command reads its flags, makes
// one call here and prints the result; deciding, defaulting, naming,
// locking and applying happen here and below.
//
//	cmd/lore, cmd/lore-hook      flags and printing; the lean hook binary
//	        |
//	app                           use cases: status, add, promote, scan, ...
//	        |
//	domain packages               markdown, compile, match, scan, consolidate,
//	        |                     observe, review, interop, lint, ...
//	gitstore                      the repository and the only writer of .lore/
//
// Imports point down only (layers_test.go); the hook binary links hooks,
// manifest and match, never app or gitstore.
package app
