package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/lore-agents/lore/internal/app/mcpserver"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// MCPCmd serves lore's MCP server over stdio (docs/design.md, MCP server).
type MCPCmd struct{}

// Run serves until stdin closes or the process is interrupted.
func (c *MCPCmd) Run(g *Globals, s *gitstore.Store) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return mcpserver.Serve(ctx, s, g.Stdin, g.Stdout)
}
