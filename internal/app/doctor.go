package app

import (
	"debug/buildinfo"
	"os/exec"
	"runtime"
	"strings"

	"github.com/lore-agents/lore/internal/app/doctor"
	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/integrate/githooks"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/store/sources"
	"github.com/lore-agents/lore/internal/version"
)

// Doctor checks the whole chain lore needs to reach an agent: binaries,
// agent registrations and whether each agent will run them, the manifest,
// the git hooks and lint. getenv finds the agents' files outside the
// repository (os.Getenv; tests pass their own).
func Doctor(s *gitstore.Store, getenv func(string) string) doctor.Report {
	deny := 0
	_, items, _, _ := allItems(s) // the org's and the user's guards too
	for _, it := range items {
		if it.Enforce == "deny" {
			deny++
		}
	}
	return doctor.Run(doctor.Env{
		Root:     s.Root,
		LookPath: exec.LookPath,
		Version:  binaryVersion,
		Manifest: func() (doctor.Freshness, error) { return manifestFreshness(s), nil },
		GitHooks: func() (githooks.Report, error) {
			t, _, err := hooksTarget(s)
			if err != nil {
				return githooks.Report{}, err
			}
			return githooks.Status(t)
		},
		Lint:      func() (doctor.LintCounts, error) { return lintCounts(s) },
		Sources:   func() ([]doctor.Source, error) { return sourceStates(s) },
		DenyItems: deny,
		Places:    doctor.Locate(getenv, runtime.GOOS),
	})
}

// sourceStates reads what the last fetches of each source the configs
// name left: a few small files, no network.
func sourceStates(s *gitstore.Store) ([]doctor.Source, error) {
	sc, err := LoadScopes(s)
	if err != nil {
		return nil, err
	}
	var out []doctor.Source
	for _, err := range []error{sc.ConfigErr, sc.UserErr} {
		for _, ce := range config.Problems(err) {
			if ce.AboutSources() {
				out = append(out, doctor.Source{LeftOut: ce.WithEffect()})
			}
		}
	}
	for _, src := range sc.Config.Sources {
		dir := sources.Dir(sources.Root(), src)
		st, err := sources.ReadState(dir)
		if err != nil {
			return out, err
		}
		commit, _ := sources.InUse(dir, src)
		out = append(out, doctor.Source{Name: src.Name, State: st, Gone: st.Commit != "" && commit == ""})
	}
	return out, nil
}

// manifestFreshness is the agent hook's own staleness check
// (manifest.Check): a few stats, no compile.
func manifestFreshness(s *gitstore.Store) doctor.Freshness {
	why := manifest.Check(s.Root, compile.Revision)
	switch {
	case why == "":
		return doctor.Fresh
	case why == "missing":
		return doctor.Missing
	case strings.HasPrefix(why, "corrupt"):
		return doctor.Corrupt
	}
	return doctor.Stale
}

// binaryVersion reads a Go binary's module version, or its VCS revision
// for a development build, without running it.
func binaryVersion(path string) (string, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return "", err
	}
	return version.FromBuildInfo(bi), nil
}
