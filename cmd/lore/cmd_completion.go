package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
)

// CompletionCmd prints the shell code that enables tab completion. The
// completions themselves are answered by kong-completion, registered in
// Main before parsing: the shell runs lore with COMP_LINE set.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish. Use: source <(lore completion bash), or lore completion fish | source."`
}

// Run prints the init code for the shell, pointing at this binary.
func (c *CompletionCmd) Run(g *Globals) error {
	code, err := app.Completion(c.Shell)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(g.Stdout, code)
	return err
}
