package app

import (
	"strings"

	"github.com/lore-agents/lore/internal/integrate/agent"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// lore init --agent cursor|copilot|windsurf|cline, and --mcp beside the
// hooks (docs/design.md, MCP server): lore mcp registered where each
// agent reads its MCP servers, and, for the agents without hooks, the
// active items exported to their rule files.

// mcpOnly splits the agent names into those with hooks (kept, as given)
// and the MCP clients that have no hooks.
func mcpOnly(names []string) (hooked []string, mcp []*agent.MCPClient) {
	for _, n := range names {
		for _, n := range strings.Split(n, ",") {
			key := strings.ToLower(strings.TrimSpace(n))
			if c := agent.MCPNamed(key); c != nil && agent.Named(key) == nil {
				mcp = append(mcp, c)
				continue
			}
			hooked = append(hooked, n)
		}
	}
	return hooked, mcp
}

// mcpOf are the MCP registrations of hook agents (--mcp).
func mcpOf(agents []*agent.Agent) []*agent.MCPClient {
	var out []*agent.MCPClient
	for _, a := range agents {
		if c := agent.MCPNamed(a.Name); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// installMCP registers lore mcp with each client and exports the rule
// files of the clients without hooks.
func installMCP(s *gitstore.Store, r Initialized, clients []*agent.MCPClient, err error) (Initialized, error) {
	for _, c := range clients {
		if err != nil {
			return r, err
		}
		var steps []agent.Step
		steps, err = c.Install(s.Root)
		r.AgentSteps = append(r.AgentSteps, steps...)
		if err == nil && agent.Named(c.Name) == nil {
			err = exportRules(s, &r, c.Name)
		}
		if len(steps) > 0 {
			r.Unchanged = false
		}
	}
	return r, err
}

// exportRules writes the client's rule files (lore export --to name).
func exportRules(s *gitstore.Store, r *Initialized, name string) error {
	e, err := Export(s, ExportOptions{Target: name})
	for _, ch := range e.Changes {
		r.AgentSteps = append(r.AgentSteps, agent.Step{Did: "exported", Path: ch.Path})
		r.Unchanged = false
	}
	return err
}

// uninstall removes the hook registrations named and the MCP ones.
func uninstall(s *gitstore.Store, agents []*agent.Agent, clients []*agent.MCPClient) (Initialized, error) {
	var r Initialized
	var err error
	if len(agents) > 0 || len(clients) == 0 {
		if r, err = uninstallAgents(s, agents); err != nil {
			return r, err
		}
	}
	for _, c := range clients {
		steps, err := c.Uninstall(s.Root)
		r.AgentSteps = append(r.AgentSteps, steps...)
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// allAgentNames are the names --agent takes: the agents with hooks, then
// the MCP clients without.
func allAgentNames() []string {
	names := agent.Names()
	for _, c := range agent.MCPClients {
		if agent.Named(c.Name) == nil {
			names = append(names, c.Name)
		}
	}
	return names
}
