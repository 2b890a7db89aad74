// Package markdown parses, validates and rewrites lore's knowledge items
// (Markdown with a YAML frontmatter block) and the learnings.md staging file.
//
// It is pure: it reads and returns bytes and never touches the file system or
// git. Frontmatter is read by adrg/frontmatter with yaml.v3 (so positions and
// key order are known); body sections come from goldmark's AST. Rewrites are
// surgical: Set replaces only the bytes of the value it changes, so unknown
// keys, comments, key order and the body survive byte for byte.
package markdown
