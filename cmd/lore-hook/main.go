// Command lore-hook is lore's agent hook as a lean binary: `lore-hook
// <agent> <event>` reads the agent's JSON on stdin and prints the agent's
// JSON. It does what `lore hook <agent> <event>` does, without linking the
// full CLI (go-git, kong, goldmark), which would slow every tool call.
package main

import (
	"os"

	"github.com/lore-agents/lore/internal/inject/hooks"
)

func main() {
	os.Exit(hooks.MainExiting(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
