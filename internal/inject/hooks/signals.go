package hooks

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lore-agents/lore/internal/inject/signals"
	"github.com/lore-agents/lore/internal/lorepath"
)

// maxSignalBytes bounds what SessionStart reads of the signal log: its
// newest lines (the log is appended to; `lore signal prune` shrinks it).
const maxSignalBytes = 256 << 10

// signals renders the live signals for SessionStart, decayed to now. It
// reads the log at each SessionStart (signals decay, so a pre-rendered
// block would be stale); broken lines are skipped and logged.
func (h *handler) signals() string {
	if h.root == "" {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(h.root, filepath.FromSlash(lorepath.InLocal(lorepath.Signals))))
	if errors.Is(err, fs.ErrNotExist) { // not yet moved by a lore command
		data, err = os.ReadFile(filepath.Join(h.root, filepath.FromSlash(lorepath.InCache(lorepath.Signals))))
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			h.logf("%v", err)
		}
		return ""
	}
	if len(data) > maxSignalBytes {
		data = data[len(data)-maxSignalBytes:]
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:] // drop the partial first line
		}
	}
	sigs, bad := signals.Parse(data)
	if bad > 0 {
		h.logf("%s: skipped %d broken line(s)", lorepath.InLocal(lorepath.Signals), bad)
	}
	return signals.Render(sigs, signals.Now())
}
