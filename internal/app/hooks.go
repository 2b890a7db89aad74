package app

import (
	"fmt"
	"path/filepath"

	"github.com/lore-agents/lore/internal/integrate/githooks"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// HooksReport is `lore hooks ... --json`: the state of lore's git hooks
// and where git runs them from.
type HooksReport struct {
	githooks.Report
	HooksPath string `json:"hooksPath,omitempty"` // core.hooksPath as configured
	Source    string `json:"source,omitempty"`    // the config file that set it
	Private   string `json:"-"`                   // where lore's scripts live when a manager owns Dir
}

// hooksActions are what Hooks can do, by name.
var hooksActions = map[string]func(githooks.Target) (githooks.Report, error){
	"install": githooks.Install, "uninstall": githooks.Uninstall, "status": githooks.Status,
}

// Hooks installs, uninstalls or reports (action "install", "uninstall" or
// "status") lore's git hooks in the folder git runs hooks from for this
// work tree.
func Hooks(s *gitstore.Store, action string) (HooksReport, error) {
	op := hooksActions[action]
	if op == nil {
		return HooksReport{}, fmt.Errorf("hooks: no action %q", action)
	}
	t, hp, err := hooksTarget(s)
	if err != nil {
		return HooksReport{}, err
	}
	r, err := op(t)
	if err != nil {
		return HooksReport{}, err
	}
	return HooksReport{Report: r, HooksPath: hp.Value, Source: hp.Source, Private: t.Private}, nil
}

// hooksTarget finds the folder git runs hooks from for this work tree.
func hooksTarget(s *gitstore.Store) (githooks.Target, gitstore.HooksPath, error) {
	hp, err := s.HooksPath()
	if err != nil {
		return githooks.Target{}, hp, err
	}
	_, common, err := s.GitDirs()
	if err != nil {
		return githooks.Target{}, hp, err
	}
	return githooks.Target{Dir: hp.Dir, Root: s.Root, Private: filepath.Join(common, githooks.PrivateDir)}, hp, nil
}
