// Package capture is the group that turns what agents did into drafts:
// scan (transcripts into candidates), review (drafts promoted, archived
// or rejected), observe (observations rendered into artifacts) and learn
// (phase learnings).
//
// It may import the store, knowledge and inject; scan itself never opens
// the store (docs/architecture.md).
package capture
