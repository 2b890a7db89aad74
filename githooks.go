// Package lore holds what the lore binary embeds from the repository root:
// the git hook scripts in .githooks, which this repository also runs itself
// (`make hooks`). go:embed cannot reach above a package's folder, so the
// embedding lives here and package githooks installs the files.
package lore

import "embed"

// GitHooks holds .githooks/post-commit, post-merge, post-checkout and
// post-rewrite.
//
//go:embed .githooks/post-commit .githooks/post-merge .githooks/post-checkout .githooks/post-rewrite
var GitHooks embed.FS
