// Package interop brings knowledge in from the files teams already keep
// (lessons-learned stores, agent rule files, ADR folders, agent memories)
// as drafts for review, and writes active knowledge out into the rule
// files of agents that read rules instead of (or besides) running hooks.
//
// Import plans are pure: a reader turns files into Drafts and Notes (what
// could not be carried over, and why); Apply creates the drafts through the
// store like `lore add`. Export renders files from items and writes only
// what changed, inside the work tree and never through a symlink.
package interop
