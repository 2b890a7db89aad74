// Command lore-hook is lore's agent hook as a lean binary: `lore-hook
// <agent> <event>` reads the agent's JSON on stdin and prints the agent's
// JSON. It does what `lore hook <agent> <event>` does, without linking the
// full CLI (go-git, kong, goldmark), which would slow every tool call.
package main

import (
	"os"

	"github.com/lore-agents/lore/internal/inject/hooks"
	"github.com/lore-agents/lore/internal/version"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		_, _ = os.Stdout.WriteString("lore-hook " + version.String() + "\n") // the version lore --version prints
		return
	}
	os.Exit(hooks.MainExiting(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
