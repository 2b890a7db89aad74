// Package markdown parses, validates and rewrites lore's knowledge items
// (Markdown with a YAML frontmatter block) and the learnings.md staging file.
//
// It is pure: it reads and returns bytes and never touches the file system or
// git. Frontmatter is read into yaml.v3's tree (so positions and key order
// are known), by adrg/frontmatter with yaml.v3, or by quickYAML where it
// makes the same tree; body sections are goldmark's top-level H2 headings,
// found by a line scan (quickSections) where goldmark would agree. Rewrites are
// surgical: Set replaces only the bytes of the value it changes, so unknown
// keys, comments, key order and the body survive byte for byte.
package markdown
