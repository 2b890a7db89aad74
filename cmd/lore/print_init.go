package main

import (
	"fmt"
	"io"
)

// printAgentStep prints one thing an agent registration did: "created
// .claude/settings.json (lore hooks: ...)", or a note: "trust: ...".
func printAgentStep(w io.Writer, did, path, why string) {
	switch {
	case path == "":
		fmt.Fprintf(w, "%s: %s\n", did, why)
	case why == "":
		fmt.Fprintf(w, "%s %s\n", did, path)
	default:
		fmt.Fprintf(w, "%s %s (%s)\n", did, path, why)
	}
}
