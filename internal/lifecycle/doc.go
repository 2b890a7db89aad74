// Package lifecycle is the group that ages, consolidates and judges what
// was learned: ages (each learnings.md entry's age from git history),
// consolidate (the staging file folded into lessons and pitfalls) and
// evidence (what each item reached and prevented: lore stats and replay).
//
// It may import capture, the store, knowledge and inject
// (docs/architecture.md).
package lifecycle
