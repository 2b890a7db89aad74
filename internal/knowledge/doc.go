// Package knowledge is the group of packages that own what a knowledge
// item is: markdown (the item and learnings.md formats), config
// (.lore/config.yaml and its defaults), lint (what a valid item is),
// compile (items into the manifest) and redact (secrets kept out).
//
// It may import inject (compile writes the manifest that inject reads,
// lint asks match whether an item can fire) and the shared packages under
// internal/; never the store or anything above it (docs/architecture.md).
package knowledge
