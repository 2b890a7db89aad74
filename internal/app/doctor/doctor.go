// Package doctor checks the chain from lore's binaries to each agent's
// hook registration (binaries on PATH, registrations, manifest, git hooks,
// lint), and whether each agent will really run the hooks (a setting that
// turns them off, Codex's and Gemini CLI's trust), and says how to fix
// each broken link.
package doctor

import (
	"fmt"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/integrate/agent"
	"github.com/lore-agents/lore/internal/integrate/githooks"
)

// Level is how much a finding matters.
type Level string

const (
	OK     Level = "ok"
	Info   Level = "info"   // worth knowing; nothing is broken
	Action Level = "action" // a link is broken: lore doctor exits 1
)

// Finding is one check's result.
type Finding struct {
	Check   string `json:"check"` // binaries, manifest, sources, githooks, guards, lint, or an agent's name
	Level   Level  `json:"level"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// Report is every finding, in the order of the chain.
type Report struct {
	Findings []Finding `json:"findings"`
	Action   bool      `json:"action"` // some finding needs action
}

// Freshness is the compiled manifest's state against the files in .lore/.
type Freshness string

const (
	Fresh   Freshness = "fresh"
	Stale   Freshness = "stale"
	Missing Freshness = "missing"
	Corrupt Freshness = "corrupt"
)

// Env is what the checks read; cmd/lore wires the real functions.
type Env struct {
	Root     string
	LookPath func(name string) (string, error)
	// Version is a binary's version (its Go build info), "" if unknown.
	Version  func(path string) (string, error)
	Manifest func() (Freshness, error)
	GitHooks func() (githooks.Report, error)
	Lint     func() (LintCounts, error)
	// DenyItems counts the items marked enforce: deny, of every scope.
	DenyItems int
	// Places are the agents' files outside the repository.
	Places Places
	// Sources are the organisation stores the configs name (nil: none
	// checked); Now is the time their age is judged at (zero: now).
	Sources func() ([]Source, error)
	Now     time.Time
}

// Run runs every check.
func Run(env Env) Report {
	var r Report
	add := func(f Finding) {
		r.Findings = append(r.Findings, f)
		r.Action = r.Action || f.Level == Action
	}
	binaries(env, add)
	manifestCheck(env, add)
	sourcesCheck(env, add)
	gitHooks(env, add)
	lintCheck(env, add)
	agents(env, add)
	return r
}

const installFix = "make install in lore's source (or go install github.com/lore-agents/lore/cmd/lore@latest github.com/lore-agents/lore/cmd/lore-hook@latest), with GOBIN on PATH"

func binaries(env Env, add func(Finding)) {
	lore, lerr := env.LookPath("lore")
	hook, herr := env.LookPath("lore-hook")
	if lerr != nil || herr != nil {
		add(notOnPath(lerr, herr))
		return
	}
	add(versions(env, lore, hook))
}

// notOnPath says which of the binaries is not on PATH (lerr: lore's
// look-up, herr: lore-hook's).
func notOnPath(lerr, herr error) Finding {
	switch {
	case lerr != nil && herr != nil:
		return Finding{"binaries", Action, "neither lore nor lore-hook is on PATH: every hook answers {} (no lessons, no guards)", installFix}
	case herr != nil:
		return Finding{"binaries", Action, "lore-hook is not on PATH: the hooks fall back to the slower `lore hook`", installFix}
	}
	return Finding{"binaries", Action, "lore is not on PATH: the git hooks cannot rebuild the manifest and the slash commands cannot run lore", installFix}
}

// versions compares the builds of lore and lore-hook on PATH.
func versions(env Env, lore, hook string) Finding {
	lv, lerr := env.Version(lore)
	hv, herr := env.Version(hook)
	switch {
	case lerr != nil || herr != nil || lv == "" || hv == "":
		return Finding{"binaries", Info, fmt.Sprintf("lore (%s) and lore-hook (%s) are on PATH; their versions cannot be compared", lore, hook), ""}
	case lv != hv:
		return Finding{"binaries", Action, fmt.Sprintf("lore %s (%s) and lore-hook %s (%s) are different builds", lv, lore, hv, hook), installFix}
	}
	return Finding{"binaries", OK, fmt.Sprintf("lore and lore-hook %s on PATH", lv), ""}
}

func manifestCheck(env Env, add func(Finding)) {
	f, err := env.Manifest()
	switch {
	case err != nil:
		add(Finding{"manifest", Action, fmt.Sprintf("cannot compile .lore/: %v", err), "lore lint, then lore build"})
	case f == Fresh:
		add(Finding{"manifest", OK, "the manifest is up to date with .lore/", ""})
	case f == Missing:
		// A fresh lore init: nothing is broken (and no item needs it yet).
		add(Finding{"manifest", Info, "no manifest yet: the agent hook builds it on its first call, within its deadline", "lore build (to build it now)"})
	case f == Corrupt:
		add(Finding{"manifest", Action, "the manifest cannot be read", "lore build --force"})
	default:
		add(Finding{"manifest", Info, "the manifest is stale: .lore/, your config or an organisation source changed since it was built (the agent hook rebuilds it on its next call)", "lore build (to build it now)"})
	}
}

func gitHooks(env Env, add func(Finding)) {
	r, err := env.GitHooks()
	if err != nil {
		add(Finding{"githooks", Action, fmt.Sprintf("cannot read the git hooks: %v", err), "lore hooks status"})
		return
	}
	bad, steps := hookProblems(r)
	switch {
	case len(bad) == 0:
		add(Finding{"githooks", OK, "post-commit, post-merge, post-checkout and post-rewrite run lore build", ""})
	case len(steps) > 0:
		add(Finding{"githooks", Action, "git hooks do not run lore build: " + strings.Join(bad, ", "), "lore hooks install, then " + strings.Join(steps, "; ")})
	default:
		add(Finding{"githooks", Action, "git hooks do not run lore build: " + strings.Join(bad, ", "), "lore hooks install (a hook already there is chained, not replaced)"})
	}
}

// hookProblems lists the git hooks that do not run lore build, and the
// steps that would wire them into a hook manager.
func hookProblems(r githooks.Report) (bad, steps []string) {
	for _, h := range r.Hooks {
		switch h.State {
		case githooks.Lore, githooks.Chained, githooks.Wired:
		case githooks.Managed:
			bad = append(bad, h.Name+" (not wired into "+r.Manager+")")
			if h.Step != "" {
				steps = append(steps, h.Step)
			}
		default:
			bad = append(bad, fmt.Sprintf("%s (%s)", h.Name, h.State))
		}
	}
	return bad, steps
}

// LintCounts is what lore lint finds, for doctor: its errors and
// warnings, and the files of the organisation or user stores the project
// reads that declare enforce: deny or once and have an error, so that the
// guard acts in no repository (their lint findings are warnings here).
type LintCounts struct {
	Errors, Warnings int
	BrokenGuards     []string
}

func lintCheck(env Env, add func(Finding)) {
	c, err := env.Lint()
	errs, warns := c.Errors, c.Warnings
	if len(c.BrokenGuards) > 0 {
		add(Finding{"guards", Action, fmt.Sprintf("%d guard(s) of another store have errors and act in no repository until they are fixed: %s",
			len(c.BrokenGuards), strings.Join(c.BrokenGuards, ", ")), "ask the store's owners: lore lint in its repository names each problem"})
	}
	switch {
	case err != nil:
		add(Finding{"lint", Action, fmt.Sprintf("cannot lint .lore/: %v", err), "lore lint"})
	case errs > 0:
		add(Finding{"lint", Action, fmt.Sprintf("%d error(s), %d warning(s): items with errors are not compiled, so no agent sees them, and config keys with errors are at their defaults or left out", errs, warns), "lore lint (lore lint --fix fixes some)"})
	case warns > 0:
		add(Finding{"lint", Info, fmt.Sprintf("%d warning(s)", warns), "lore lint"})
	default:
		add(Finding{"lint", OK, "no lint findings", ""})
	}
}

func agents(env Env, add func(Finding)) {
	installed := 0
	var missing []*agent.Agent
	for _, a := range agent.Agents {
		reg, err := a.ReadStatus(env.Root)
		fix := "lore init --agent " + a.Name
		switch {
		case err != nil:
			add(Finding{a.Name, Action, err.Error(), "fix the file at that line, then " + fix})
			installed++
		case reg.State == agent.Missing:
			missing = append(missing, a)
		case reg.State == agent.Stale:
			add(Finding{a.Name, Action, fmt.Sprintf("%s holds lore hooks from another lore version: %s", a.Settings, strings.Join(reg.Why, "; ")), fix})
			installed++
		default:
			installed++
			registered(env, a, reg, add)
		}
	}
	notInstalled(missing, installed == 0, add)
}

// notInstalled reports the agents lore is not installed for: an action
// when it is installed for none.
func notInstalled(missing []*agent.Agent, none bool, add func(Finding)) {
	level := Info
	if none {
		level = Action
	}
	for _, a := range missing {
		add(Finding{a.Name, level, "not installed for " + a.Title, "lore init --agent " + a.Name})
	}
}

// registered reports an agent whose hooks are current: whether a setting
// turns them off, and whether the agent trusts them.
func registered(env Env, a *agent.Agent, reg agent.Registration, add func(Finding)) {
	files := settingsFiles(a, env.Root, env.Places)
	blocked := hooksOff(a, files)
	if a.Name == "claude" {
		blocked = append(blocked, managedOnly(files)...)
	}
	msg := "hooks registered in " + a.Settings
	if reg.Closed {
		msg += "; guards fail closed"
	}
	add(Finding{a.Name, OK, msg, ""})
	for _, f := range append(blocked, trust(env, a, files)...) {
		add(f)
	}
	if a.CanFailClosed && !reg.Closed && env.DenyItems > 0 {
		add(Finding{a.Name, Info, fmt.Sprintf("%d enforce: deny item(s) guard tool calls, and fail open when lore-hook cannot run", env.DenyItems), "lore init --agent " + a.Name + " --guards closed (Claude Code 2.1.295+)"})
	}
}

// trust reports whether the agent runs the project's hooks: its trust
// state where lore can read it, else the step it needs.
func trust(env Env, a *agent.Agent, files []settingsFile) []Finding {
	switch a.Name {
	case "codex":
		return codexTrust(env.Root, env.Places.CodexConfig)
	case "gemini":
		return geminiTrust(env.Root, env.Places, files)
	}
	if a.Trust != "" {
		return []Finding{{a.Name, Info, a.Trust, ""}}
	}
	return nil
}
