package app

import "github.com/lore-agents/lore/internal/version"

// Version is what lore --version prints: "lore" and the version string
// the binaries and the plugin share.
func Version() string { return "lore " + version.String() }
