package main

import (
	"errors"
	"os"
	"os/exec"
	"path"
	"sort"

	"github.com/lore-agents/lore/agent"
	"github.com/lore-agents/lore/consolidate"
	"github.com/lore-agents/lore/gitstore"
)

// agentFiles are the files lore installs besides the slash commands: the
// consolidation sub-agents.
func agentFiles() []agent.File {
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

func installAgent(g *Globals, s *gitstore.Store, name string) error {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	return agent.InstallClaude(s.Root, agent.HookCommand(exe, exec.LookPath), agentFiles(), g.Stdout)
}

func uninstallAgent(g *Globals, s *gitstore.Store, name string) error {
	if name == "" {
		return errors.New("init: --uninstall needs --agent claude")
	}
	return agent.UninstallClaude(s.Root, agentFiles(), g.Stdout)
}
