package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/lazyre"
)

// Completion is the shell code that enables tab completion for shell
// (bash, zsh or fish), pointing at this binary; the completions themselves
// are answered by the binary, run with COMP_LINE set.
func Completion(shell string) (string, error) {
	bin, err := os.Executable()
	if err != nil {
		return "", err
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return "", err
	}
	bin = shellQuote(bin)
	switch shell {
	case "bash":
		return fmt.Sprintf("complete -o default -o bashdefault -C %s lore\n", bin), nil
	case "zsh":
		return fmt.Sprintf("autoload -U +X bashcompinit && bashcompinit\ncomplete -o default -o bashdefault -C %s lore\n", bin), nil
	case "fish":
		return fmt.Sprintf(`function __complete_lore
    set -lx COMP_LINE (commandline -cp)
    test -z (commandline -ct)
    and set COMP_LINE "$COMP_LINE "
    %s
end
complete -f -c lore -a "(__complete_lore)"
`, bin), nil
	}
	return "", usagef("no completion for shell %q: bash, zsh or fish", shell)
}

// plainPath is a path a POSIX shell reads as it is.
var plainPath = lazyre.New(`^[A-Za-z0-9/._-]*$`)

// shellQuote quotes s for a POSIX shell unless it is a plain path.
func shellQuote(s string) string {
	if plainPath().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
