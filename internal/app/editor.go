package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Editor lets the user edit a draft item file and returns the result.
type Editor func(draft []byte) ([]byte, error)

// ExternalEditor edits in $VISUAL, $EDITOR or vi, on a temp file outside
// the repository; the editor's output goes to out. An unchanged draft is
// kept; an emptied one aborts.
func ExternalEditor(out io.Writer) Editor {
	return func(draft []byte) ([]byte, error) {
		editor := os.Getenv("VISUAL")
		if editor == "" {
			editor = os.Getenv("EDITOR")
		}
		if editor == "" {
			editor = "vi"
		}
		dir, err := os.MkdirTemp("", "lore-add-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		file := filepath.Join(dir, "item.md")
		if err := os.WriteFile(file, draft, 0o600); err != nil {
			return nil, err
		}
		cmd := exec.Command("sh", "-c", editor+` "$1"`, "editor", file)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, out, out
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("editor %q: %w", editor, err)
		}
		edited, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(edited)) == 0 {
			return nil, errors.New("the edited file is empty: nothing added")
		}
		return edited, nil
	}
}
