package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/lore-agents/lore/agent"
	"github.com/lore-agents/lore/config"
	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/markdown"
)

// InitCmd creates the .lore/ layout of DESIGN section 2.
type InitCmd struct {
	NoGitHooks bool     `name:"no-git-hooks" help:"Do not install lore's git hooks (see lore hooks)."`
	Agent      []string `name:"agent" placeholder:"AGENT" help:"Also register lore's hooks and slash commands for these agents: claude, codex, gemini (repeat the flag or separate with commas)."`
	Guards     string   `name:"guards" enum:",open,closed" default:"" help:"When lore-hook cannot run: open lets the tool call through (the default), closed blocks it (Claude Code 2.1.295+ only). Unset: keep what is registered."`
	Uninstall  bool     `name:"uninstall" help:"With --agent: remove exactly what --agent installed, and nothing else."`
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

// Run creates what is missing and leaves every existing file alone.
func (c *InitCmd) Run(g *Globals) error {
	s, err := g.Store()
	if err != nil {
		return err
	}
	agents, err := agentsNamed(c.Agent)
	if err != nil {
		return err
	}
	if c.Guards != "" && len(agents) == 0 {
		return usagef("--guards needs --agent")
	}
	if c.Uninstall {
		return uninstallAgents(g, s, agents)
	}
	files := []struct{ rel, content string }{
		{gitstore.ConfigPath, config.Template},
		{gitstore.DirName + "/learnings.md", learningsPreamble},
		{gitstore.DirName + "/.gitignore", loreGitignore},
	}
	for _, kind := range markdown.Kinds {
		files = append(files, struct{ rel, content string }{path.Join(gitstore.DirName, markdown.Folder(kind), ".gitkeep"), ""})
	}
	created := 0
	for _, f := range files {
		err := createIfMissing(s, f.rel, []byte(f.content))
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return err
		}
		created++
		fmt.Fprintf(g.Stdout, "created %s\n", f.rel)
	}
	if !c.NoGitHooks {
		n, err := initGitHooks(g, s)
		if err != nil {
			return err
		}
		created += n
	}
	if len(agents) > 0 {
		return installAgents(g, s, agents, agent.Guards(c.Guards))
	}
	if created == 0 {
		fmt.Fprintln(g.Stdout, "lore is already initialized here: nothing changed")
	}
	return nil
}

// createIfMissing writes a new file atomically; an existing one (even an
// empty one, or a dangling link) is reported as fs.ErrExist and left alone.
func createIfMissing(s *gitstore.Store, rel string, data []byte) error {
	if _, err := os.Lstat(s.Path(rel)); err == nil {
		return fs.ErrExist
	}
	err := s.CreateExclusive(rel, data)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return err
}
