package main

import (
	"debug/buildinfo"
	"fmt"
	"os/exec"
	"runtime/debug"
	"strings"

	"github.com/lore-agents/lore/compile"
	"github.com/lore-agents/lore/doctor"
	"github.com/lore-agents/lore/githooks"
	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/lint"
	"github.com/lore-agents/lore/manifest"
)

// DoctorCmd checks the whole chain lore needs to reach an agent.
type DoctorCmd struct {
	JSON bool `name:"json" help:"Print the findings as JSON."`
}

// Run prints every finding with its fix; exit 1 when one needs action.
func (c *DoctorCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	r := doctor.Run(doctorEnv(s))
	if c.JSON {
		if err := g.printJSON(r); err != nil {
			return err
		}
	} else {
		for _, f := range r.Findings {
			fmt.Fprintf(g.Stdout, "%-6s %-9s %s\n", f.Level, f.Check, f.Message)
			if f.Fix != "" {
				fmt.Fprintf(g.Stdout, "%17sfix: %s\n", "", f.Fix)
			}
		}
	}
	if r.Action {
		return errFindings
	}
	return nil
}

func doctorEnv(s *gitstore.Store) doctor.Env {
	deny := 0
	items, _ := s.Load()
	for _, it := range items {
		if it.Enforce == "deny" {
			deny++
		}
	}
	return doctor.Env{
		Root:      s.Root,
		LookPath:  exec.LookPath,
		Version:   binaryVersion,
		Manifest:  func() (doctor.Freshness, error) { return manifestFreshness(s) },
		GitHooks:  func() (githooks.Report, error) { return gitHooksStatus(s) },
		Lint:      func() (int, int, error) { return lintCounts(s) },
		DenyItems: deny,
	}
}

func gitHooksStatus(s *gitstore.Store) (githooks.Report, error) {
	t, _, err := hooksTarget(s)
	if err != nil {
		return githooks.Report{}, err
	}
	return githooks.Status(t)
}

func lintCounts(s *gitstore.Store) (errs, warns int, err error) {
	st, err := lintInput(s)
	if err != nil {
		return 0, 0, err
	}
	errs, warns = lint.Count(lint.Check(st))
	return errs, warns, nil
}

// manifestFreshness is the agent hook's own staleness check
// (manifest.Check): a few stats, no compile.
func manifestFreshness(s *gitstore.Store) (doctor.Freshness, error) {
	why := manifest.Check(s.Root, compile.Revision)
	switch {
	case why == "":
		return doctor.Fresh, nil
	case why == "missing":
		return doctor.Missing, nil
	case strings.HasPrefix(why, "corrupt"):
		return doctor.Corrupt, nil
	}
	return doctor.Stale, nil
}

// binaryVersion reads a Go binary's module version, or its VCS revision
// for a development build, without running it.
func binaryVersion(path string) (string, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return "", err
	}
	return buildVersion(bi), nil
}

// buildVersion is a build's module version, or its VCS revision for a
// development build ("" when it has neither).
func buildVersion(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return ""
	}
	return strings.TrimSpace(rev[:min(12, len(rev))]) + dirty
}
