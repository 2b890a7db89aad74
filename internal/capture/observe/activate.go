package observe

import (
	"fmt"
	"os"
	"path"
	"strings"
)

// Activate moves the staged command or skill q names (its staged path,
// its live path, or its name: the command's file name or the skill's
// folder without .md) to where Claude Code loads it, and records the move
// in the render manifest: lore promote for a rendered artifact. It returns
// both paths; found is false when q names no staged artifact.
func (l *Log) Activate(q string) (from, to string, found bool, err error) {
	unlock, err := l.s.Lock()
	if err != nil {
		return "", "", false, err
	}
	defer unlock()
	m, err := l.readManifest()
	if err != nil {
		return "", "", false, err
	}
	i := stagedEntry(m, q)
	if i < 0 {
		return "", "", false, nil
	}
	from, to = m.Entries[i].Path, live(m.Entries[i].Path)
	if l.taken(to) {
		return from, to, true, fmt.Errorf("%s: %s already exists; move or remove it first", from, to)
	}
	data, err := os.ReadFile(l.s.Path(from))
	if err != nil {
		return from, to, true, fmt.Errorf("observe: %w", err)
	}
	// Written, recorded, then removed: a crash leaves the staged copy, and
	// the manifest names the live one, which reconcile then finds.
	if err := l.s.WriteLocked(to, data); err != nil {
		return from, to, true, err
	}
	m.Entries[i].Path = to
	if err := l.writeManifest(m); err != nil {
		return from, to, true, err
	}
	return from, to, true, l.s.RemoveLocked(from)
}

// stagedEntry is the index of the manifest entry of the staged artifact q
// names, or -1.
func stagedEntry(m *Manifest, q string) int {
	q = strings.TrimSuffix(strings.TrimPrefix(path.Clean(q), "./"), "/")
	for i, e := range m.Entries {
		lv := live(e.Path)
		if lv == "" {
			continue
		}
		names := []string{e.Path, lv, strings.TrimSuffix(path.Base(lv), ".md")}
		if path.Base(lv) == "SKILL.md" { // a skill is its folder
			names = append(names, path.Dir(e.Path), path.Dir(lv), path.Base(path.Dir(lv)))
		}
		for _, n := range names {
			if q == n {
				return i
			}
		}
	}
	return -1
}
