package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CompletionCmd prints the shell code that enables tab completion. The
// completions themselves are answered by kong-completion, registered in
// Main before parsing: the shell runs lore with COMP_LINE set.
type CompletionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish. Use: source <(lore completion bash), or lore completion fish | source."`
}

// Run prints the init code for the shell, pointing at this binary.
func (c *CompletionCmd) Run(g *Globals) error {
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	bin = shellQuote(bin)
	switch c.Shell {
	case "bash":
		fmt.Fprintf(g.Stdout, "complete -o default -o bashdefault -C %s lore\n", bin)
	case "zsh":
		fmt.Fprintf(g.Stdout, "autoload -U +X bashcompinit && bashcompinit\ncomplete -o default -o bashdefault -C %s lore\n", bin)
	case "fish":
		fmt.Fprintf(g.Stdout, `function __complete_lore
    set -lx COMP_LINE (commandline -cp)
    test -z (commandline -ct)
    and set COMP_LINE "$COMP_LINE "
    %s
end
complete -f -c lore -a "(__complete_lore)"
`, bin)
	}
	return nil
}

func shellQuote(s string) string {
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
