// Package app is lore's application layer: one function per use case, the
// only thing a command in cmd/lore calls. A command reads its flags, makes
// one call here and prints the result; deciding, defaulting, naming,
// locking and applying happen here and below. Its sub-package doctor
// checks the chain from lore's binaries to each agent's hooks.
//
//	cmd/lore, cmd/lore-hook     flags and printing; the lean hook binary
//	internal/app                use cases: status, add, promote, scan, doctor
//	internal/integrate          agent, githooks, interop
//	internal/lifecycle          ages, consolidate
//	internal/capture            scan, review, observe, learn
//	internal/store              gitstore: the only writer of .lore/
//	internal/knowledge          markdown, config, lint, compile, redact
//	internal/inject             hooks, manifest, match, protocol, signals
//
// Each layer imports only the layers below it (layers_test.go,
// docs/architecture.md); lore-hook links inject alone.
package app
