package hooks

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/lore-agents/lore/internal/filewrite"
)

// The state folder (stateDir) gains a file or two for every context. On
// tmpfs they hold memory, and on disk creating a file gets slower as the
// folder grows (on ext4 here, 14 us in an empty folder and 86 us among
// 120,000 entries), paid by the first claim of every session. So
// SessionStart sweeps it, at most once a day, of the files of contexts
// untouched for a week: a session resumed after that shows its lessons
// once more.
const (
	sweepEvery   = 24 * time.Hour
	contextLife  = 7 * 24 * time.Hour
	sweepBudget  = 100 * time.Millisecond // a sweep cut short goes on at the next SessionStart
	sweptMarker  = ".swept"
	sweepReadLen = 256
)

// sweep removes what the folder base holds that was last modified before
// now-contextLife, when the last whole sweep is older than sweepEvery. It
// stops once sweepBudget has passed and then leaves the marker as it was,
// so the next SessionStart goes on.
func sweep(base string, now time.Time) error {
	start := time.Now()
	return sweepUntil(base, now, func() bool { return time.Since(start) >= sweepBudget })
}

// sweepUntil is sweep with the budget asked of spent, after each batch of
// entries: every sweep removes a batch, however loaded the machine.
func sweepUntil(base string, now time.Time, spent func() bool) error {
	if err := filewrite.PrivateDir(base); err != nil {
		return err // not this user's to sweep
	}
	marker := filepath.Join(base, sweptMarker)
	if st, err := os.Stat(marker); err == nil && now.Sub(st.ModTime()) < sweepEvery {
		return nil
	}
	dir, err := os.Open(base)
	if err != nil {
		return err
	}
	defer dir.Close()
	done, err := sweepEntries(dir, base, now, spent)
	if err != nil || !done {
		return err
	}
	return filewrite.Replace(marker, nil, stateWrite)
}

// sweepEntries removes dir's old entries; done is false when the budget
// ran out first.
func sweepEntries(dir *os.File, base string, now time.Time, spent func() bool) (done bool, err error) {
	for {
		ents, err := dir.ReadDir(sweepReadLen)
		for _, e := range ents {
			if err := sweepEntry(base, e, now); err != nil {
				return false, err
			}
		}
		switch {
		case err == io.EOF:
			return true, nil
		case err != nil:
			return false, err
		case spent():
			return false, nil
		}
	}
}

// sweepEntry removes e when it is old: a context's file, a temp file a
// killed write left, or the folder of an older lore's context.
func sweepEntry(base string, e os.DirEntry, now time.Time) error {
	if e.Name() == sweptMarker {
		return nil
	}
	info, err := e.Info()
	if err != nil || now.Sub(info.ModTime()) < contextLife {
		return nil // gone already (another sweep), or in use
	}
	return filewrite.RemoveAll(filepath.Join(base, e.Name()), stateWrite)
}
