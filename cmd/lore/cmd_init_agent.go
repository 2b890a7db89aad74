package main

import (
	"fmt"
	"os/exec"
	"path"
	"sort"
	"strings"

	"github.com/lore-agents/lore/agent"
	"github.com/lore-agents/lore/consolidate"
	"github.com/lore-agents/lore/gitstore"
)

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

// agentsNamed resolves --agent values (repeated or comma-separated).
func agentsNamed(names []string) ([]*agent.Agent, error) {
	var out []*agent.Agent
	seen := map[string]bool{}
	for _, n := range names {
		for _, n := range strings.Split(n, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			a := agent.Named(n)
			if a == nil {
				return nil, usagef("--agent %q: not one of %s", n, strings.Join(agent.Names(), ", "))
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, a)
			}
		}
	}
	return out, nil
}

func installAgents(g *Globals, s *gitstore.Store, agents []*agent.Agent, guards agent.Guards) error {
	for _, a := range agents {
		if err := a.Install(s.Root, agent.Options{Guards: guards, Extra: agentFiles(a.Name)}, g.Stdout); err != nil {
			return err
		}
	}
	if p := agent.PathProblem(exec.LookPath); p != "" {
		fmt.Fprintf(g.Stdout, "warning: %s\n", p)
	}
	return nil
}

func uninstallAgents(g *Globals, s *gitstore.Store, agents []*agent.Agent) error {
	if len(agents) == 0 {
		return usagef("--uninstall needs --agent %s", strings.Join(agent.Names(), "|"))
	}
	for _, a := range agents {
		if err := a.Uninstall(s.Root, agentFiles(a.Name), g.Stdout); err != nil {
			return err
		}
	}
	return nil
}
