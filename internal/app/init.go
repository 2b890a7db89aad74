package app

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/integrate/agent"
	"github.com/lore-agents/lore/internal/integrate/githooks"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// InitOptions says what lore init sets up besides .lore/.
type InitOptions struct {
	GitHooks  bool     // install lore's git hooks
	Agents    []string // register lore with these agents (names, or comma-separated lists)
	Guards    string   // "", "open" or "closed" (agent.Guards)
	Uninstall bool     // remove what Agents installed instead, and nothing else
	MCP       bool     // also register lore mcp with the hook agents named
}

// Initialized is what lore init did.
type Initialized struct {
	Created     []string        // files created under .lore/, repo-relative
	Hooks       githooks.Report // the git hooks; those with Changed were installed now
	AgentSteps  []agent.Step    // what the agent registrations did, in order
	PathProblem string          // a warning when lore-hook cannot be found
	MergeLine   string          // the .gitattributes line added now for learnings.md, or ""
	Unchanged   bool            // everything was there already
}

// learningsPreamble is exactly markdown.PreambleLines lines long.
const learningsPreamble = `# Learnings

Fresh lessons from working in this repository, one "## Title" entry each.
lore ages every entry from git history; ` + "`lore consolidate`" + ` moves entries that
have proven themselves into .lore/lessons, pitfalls and decisions.
Add one with ` + "`lore add learning \"Title\" --body \"...\"`" + ` or by hand. An optional
first body line "kind: pitfall" (or lesson, decision) routes it.
The first 10 lines of this file are never entries.


`

// loreGitignore lists the derived files that are never committed.
const loreGitignore = `# Derived by lore: rebuilt on demand, never committed.
cache/
# This machine's state: never committed.
local/
`

// Init creates the .lore/ layout of docs/design.md, What lives in a repository,
// where it is missing (never overwriting a file), installs the git hooks and
// registers lore with the agents named. With Uninstall it only removes the
// agents' registrations. On an error, the result says what was done before it.
func Init(s *gitstore.Store, o InitOptions) (Initialized, error) {
	var mcp []*agent.MCPClient
	o.Agents, mcp = mcpOnly(o.Agents)
	agents, err := o.agents()
	if err == nil && o.MCP && len(agents) == 0 {
		err = usagef("--mcp needs --agent claude, codex or gemini")
	}
	if err != nil {
		return Initialized{}, err
	}
	if o.MCP {
		mcp = append(mcp, mcpOf(agents)...)
	}
	if o.Uninstall {
		return uninstall(s, agents, mcp)
	}
	r, err := initHooks(s, o, agents)
	return installMCP(s, r, mcp, err)
}

// initHooks is Init without the MCP registrations.
func initHooks(s *gitstore.Store, o InitOptions, agents []*agent.Agent) (Initialized, error) {
	var err error
	if err != nil {
		return Initialized{}, err
	}
	var r Initialized
	if r.Created, err = createLayout(s); err != nil {
		return r, err
	}
	if r.MergeLine, err = learningsMerge(s); err != nil {
		return r, err
	}
	if o.GitHooks {
		hooks, err := installGitHooks(s)
		if err != nil {
			return r, err
		}
		r.Hooks = hooks
	}
	if len(agents) > 0 {
		return installAgents(s, r, agents, agent.Guards(o.Guards))
	}
	r.Unchanged = len(r.Created) == 0 && r.MergeLine == "" && !hooksChanged(r.Hooks)
	return r, nil
}

// agents are the agents named, checked against the options that need one.
func (o InitOptions) agents() ([]*agent.Agent, error) {
	agents, err := agentsNamed(o.Agents)
	if err == nil && o.Guards != "" && len(agents) == 0 {
		err = usagef("--guards needs --agent")
	}
	return agents, err
}

// createLayout creates the files of .lore/ that are missing.
func createLayout(s *gitstore.Store) ([]string, error) {
	files := []struct{ rel, content string }{
		{lorepath.Config, config.Template},
		{lorepath.Dir + "/learnings.md", learningsPreamble},
		{lorepath.Dir + "/.gitignore", loreGitignore},
	}
	for _, kind := range markdown.Kinds {
		files = append(files, struct{ rel, content string }{path.Join(lorepath.Dir, markdown.Folder(kind), ".gitkeep"), ""})
	}
	var created []string
	for _, f := range files {
		err := createIfMissing(s, f.rel, []byte(f.content))
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return created, err
		}
		created = append(created, f.rel)
	}
	return created, nil
}

// createIfMissing writes a new file atomically; an existing one (even an
// empty one, or a dangling link) is reported as fs.ErrExist and left alone.
func createIfMissing(s *gitstore.Store, rel string, data []byte) error {
	if _, err := os.Lstat(s.Path(rel)); err == nil {
		return fs.ErrExist
	}
	return s.CreateExclusive(rel, data)
}

func installGitHooks(s *gitstore.Store) (githooks.Report, error) {
	t, _, err := hooksTarget(s)
	if err != nil {
		return githooks.Report{}, err
	}
	return githooks.Install(t)
}

func hooksChanged(r githooks.Report) bool {
	for _, h := range r.Hooks {
		if h.Changed != "" {
			return true
		}
	}
	return false
}

// agentsNamed resolves agent names (each possibly a comma-separated list).
func agentsNamed(names []string) ([]*agent.Agent, error) {
	var out []*agent.Agent
	seen := map[string]bool{}
	for _, n := range names {
		for _, n := range strings.Split(n, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			a := agent.Named(n)
			if a == nil {
				return nil, usagef("--agent %q: not one of %s", n, strings.Join(allAgentNames(), ", "))
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, a)
			}
		}
	}
	return out, nil
}

// agentFiles are the files lore installs for an agent besides its slash
// commands: Claude Code's consolidation sub-agents.
func agentFiles(name string) []agent.File {
	if name != "claude" {
		return nil
	}
	defs := consolidate.AgentFiles()
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	var files []agent.File
	for _, name := range names {
		files = append(files, agent.File{Path: path.Join(".claude/agents", name), Content: string(defs[name])})
	}
	return files
}

func installAgents(s *gitstore.Store, r Initialized, agents []*agent.Agent, guards agent.Guards) (Initialized, error) {
	for _, a := range agents {
		steps, err := a.Install(s.Root, agent.Options{Guards: guards, Extra: agentFiles(a.Name)})
		r.AgentSteps = append(r.AgentSteps, steps...)
		if err != nil {
			return r, err
		}
	}
	r.PathProblem = agent.PathProblem(exec.LookPath)
	return r, nil
}

func uninstallAgents(s *gitstore.Store, agents []*agent.Agent) (Initialized, error) {
	if len(agents) == 0 {
		return Initialized{}, usagef("--uninstall needs --agent %s", strings.Join(agent.Names(), "|"))
	}
	var r Initialized
	for _, a := range agents {
		steps, err := a.Uninstall(s.Root, agentFiles(a.Name))
		r.AgentSteps = append(r.AgentSteps, steps...)
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// learningsMerge gives the learnings file git's union merge in
// .gitattributes (docs/design.md, What a reviewer cannot see): two
// branches that each add an entry merge with both kept, never a conflict.
// It returns the line when it was added now.
func learningsMerge(s *gitstore.Store) (string, error) {
	cfg, err := s.Config()
	if err != nil {
		cfg = config.Default() // a broken config is lint's to report
	}
	unlock, err := s.Lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	added, err := s.EnsureUnionAdded(cfg.Learnings)
	if err != nil || !added {
		return "", err
	}
	return lorepath.UnionLine(cfg.Learnings), nil
}
