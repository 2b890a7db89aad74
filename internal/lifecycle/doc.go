// Package lifecycle is the group that ages and consolidates what was
// learned: ages (each learnings.md entry's age from git history) and
// consolidate (the staging file folded into lessons and pitfalls).
//
// It may import capture, the store, knowledge and inject
// (docs/architecture.md).
package lifecycle
