// Package hooks is the agent-facing half of lore: it reads an agent's hook
// JSON on stdin, runs the injection pipeline (package match over the
// compiled manifest) with dedup per context (the main thread, each
// sub-agent), and prints the agent's JSON. It is linked into the lean
// lore-hook binary, so it imports only the standard library, manifest,
// match, protocol and jsonparser: never go-git, goldmark, kong or yaml (a
// test checks).
package hooks
