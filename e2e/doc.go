// Package e2e proves lore inside the real agent clients (docs/clients.md, Proof
// in the real clients).
//
// Its tests carry the build tag e2e and run through `make e2e`, which
// installs Claude Code, Codex CLI and Gemini CLI from npm into a cache
// folder and tells the tests where they are (LORE_E2E_* variables). Each
// client talks to a scripted stand-in for its model API on 127.0.0.1 that
// records every request, and the tests assert on what the client sent to
// the model and on files in throwaway repositories set up with
// `lore init --agent ...`.
package e2e
