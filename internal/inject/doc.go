// Package inject is the group of packages that put knowledge in front of
// an agent during its tool calls: hooks (the lore-hook process: the
// agents' hook events in, their JSON out), manifest (the compiled,
// memory-mapped index the hook reads), match (deciding which items a
// call gets), protocol (the self-report text agents are taught),
// signals (live phase signals) and ledger (the hook's decisions, kept for
// lore stats).
//
// It is the lowest layer (docs/architecture.md): it imports only the
// small shared packages under internal/, so lore-hook links nothing else
// and starts fast. Everything above may import it.
package inject
