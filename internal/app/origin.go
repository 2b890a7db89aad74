package app

import (
	"os"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/config"
)

// UserStore is the user's store's name in item paths (user:lessons/x.md).
const UserStore = config.UserName

// Origin is the store an item's path as loaded names: a source's name,
// UserStore, or "" for the project's (docs/design.md, Scopes and
// organisation stores).
func Origin(path string) string { return manifest.Origin(path) }

// HookBuild says whether this process is a build the hook started: the
// hook hands down the build lock, and the build's stderr is the hook log.
func HookBuild() bool { return os.Getenv(manifest.LockFDEnv) != "" }
