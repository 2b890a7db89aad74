package agent

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/internal/store/gitstore"
)

// MCPClient is an agent that reads MCP servers from a JSON file in the
// project (docs/design.md, MCP server): lore's server is the member
// "lore" of the file's server object, merged as text like the hooks, so
// an uninstall gives back the user's bytes.
type MCPClient struct {
	Name, Title string
	Path        string // the project file; "" when the agent reads only a user file
	Key         string // the object that holds the servers
	Comments    bool   // the file may hold comments
	Entry       any    // lore's server entry
	Manual      string // for an agent with no project file: where the user adds Entry
	Rule        *File  // for an agent without hooks: an always-on rule saying when to call the tools
}

// ruleText tells an agent without hooks when to call lore's tools.
const ruleText = `# lore: this repository's memory

This repository keeps its lessons (mistakes and their fixes) in lore, served by the
MCP server "lore".

- Before a shell command or an edit, call lore_check with the tool (Bash, Edit,
  Write), and the command or the file path, and follow what it returns.
- To look something up, call lore_search with a few words, and lore_show with an id.
- When something went wrong and you found the fix, call lore_record with a title,
  the mistake and the fix. It writes a draft that a person reviews.
`

// rule is the always-on rule file at path, with the tool's frontmatter.
func rule(path, frontmatter string) *File {
	if frontmatter != "" {
		frontmatter = "---\n" + frontmatter + "---\n"
	}
	return &File{Path: path, Content: frontmatter + ruleText}
}

// loreServer is the entry for a client that starts servers in the project.
var loreServer = map[string]any{"command": "lore", "args": []string{"mcp"}}

// inWorkspace is the entry for a client that may start servers elsewhere:
// lore -C names the project folder (the editor's ${workspaceFolder}).
func inWorkspace(typ string) map[string]any {
	e := map[string]any{"command": "lore", "args": []string{"-C", "${workspaceFolder}", "mcp"}}
	if typ != "" {
		e["type"] = typ
	}
	return e
}

// MCPClients are the agents lore registers its MCP server with.
var MCPClients = []*MCPClient{
	{Name: "claude", Title: "Claude Code", Path: ".mcp.json", Key: "mcpServers", Entry: loreServer},
	{Name: "gemini", Title: "Gemini CLI", Path: ".gemini/settings.json", Key: "mcpServers", Comments: true, Entry: loreServer},
	{Name: "codex", Title: "Codex CLI",
		Manual: "Codex CLI reads MCP servers from ~/.codex/config.toml (outside the repository, which lore does not write): " +
			"add [mcp_servers.lore] with command = \"lore\" and args = [\"mcp\"]"},
	// The rule files are named lore.*, never lore-<slug>.* as lore export
	// names an item's rule, so the two never meet.
	{Name: "cursor", Title: "Cursor", Path: ".cursor/mcp.json", Key: "mcpServers", Entry: inWorkspace(""),
		Rule: rule(".cursor/rules/lore.mdc", "description: When to call lore's MCP tools\nalwaysApply: true\n")},
	{Name: "copilot", Title: "GitHub Copilot (VS Code)", Path: ".vscode/mcp.json", Key: "servers", Entry: inWorkspace("stdio"),
		Rule: rule(".github/instructions/lore.instructions.md", "applyTo: \"**\"\n")},
	{Name: "windsurf", Title: "Windsurf", Key: "mcpServers", Entry: inWorkspace(""),
		Manual: "Windsurf reads MCP servers only from ~/.codeium/windsurf/mcp_config.json (outside the repository, which lore does not write)",
		Rule:   rule(".windsurf/rules/lore.md", "trigger: always_on\n")},
	{Name: "cline", Title: "Cline", Key: "mcpServers", Entry: inWorkspace(""),
		Manual: "Cline reads MCP servers only from its own cline_mcp_settings.json (MCP Servers, Configure; outside the repository, which lore does not write)",
		Rule:   rule(".clinerules/lore.md", "")},
}

// MCPNamed returns the MCP client called name, or nil.
func MCPNamed(name string) *MCPClient {
	for _, c := range MCPClients {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Install registers lore's server in the client's project file, or says
// what to add by hand where the client has none.
func (c *MCPClient) Install(root string) ([]Step, error) {
	var log steps
	if c.Rule != nil {
		if err := installFiles(root, []File{*c.Rule}, &log); err != nil {
			return log, err
		}
	}
	if c.Path == "" {
		note := c.Manual
		if c.Key != "" {
			// A user file serves every folder: it names this one.
			entry := strings.ReplaceAll(string(encode(c.Entry)), "${workspaceFolder}", filepath.ToSlash(root))
			note += fmt.Sprintf(": add to %q there: \"lore\": %s", c.Key, entry)
		}
		log.note("note", note)
		return log, nil
	}
	path := filepath.Join(root, filepath.FromSlash(c.Path))
	old, err := readFile(path)
	if err != nil {
		return nil, err
	}
	data, err := c.Merge(old)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(data, old) {
		return log, nil
	}
	if err := writeFile(path, data); err != nil {
		return nil, err
	}
	verb := "updated"
	if old == nil {
		verb = "created"
	}
	log.did(verb, c.Path, "lore's MCP server (lore mcp)")
	return log, nil
}

// Uninstall removes lore's server from the project file, and the file
// and its folders when lore created them.
func (c *MCPClient) Uninstall(root string) ([]Step, error) {
	var log steps
	if c.Rule != nil {
		if err := removeFile(root, *c.Rule, &log); err != nil {
			return log, err
		}
	}
	if c.Path == "" {
		return log, nil
	}
	path := filepath.Join(root, filepath.FromSlash(c.Path))
	old, err := readFile(path)
	if err != nil || old == nil {
		return log, err
	}
	data, err := c.Unmerge(old)
	if err != nil {
		return nil, err
	}
	switch {
	case Empty(data):
		if err := gitstore.Remove(path); err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
		log.did("removed", c.Path, "")
		removeEmptyDirs(root, filepath.Dir(path))
	case !bytes.Equal(old, data):
		if err := writeFile(path, data); err != nil {
			return nil, err
		}
		log.did("updated", c.Path, "lore's MCP server removed")
	}
	return log, nil
}

// Merge returns the file with lore's server entry, replacing one already
// there. data nil: a new file.
func (c *MCPClient) Merge(data []byte) ([]byte, error) {
	if data == nil {
		data = []byte(newFile)
	}
	data, err := c.Unmerge(data)
	if err != nil {
		return nil, err
	}
	root, err := c.parse(data)
	if err != nil {
		return nil, err
	}
	st := styleOf(data, root)
	if _, srv := root.member(c.Key); srv == nil {
		data = insert(data, root, string(encode(c.Key))+": {"+st.indent(1)+"}", st)
		root, _ = parseJSON(data, c.Comments)
	}
	_, srv := root.member(c.Key)
	if srv.kind != '{' {
		return nil, fmt.Errorf("%s:%d: %s: not an object", c.Path, lineOf(data, srv.start), c.Key)
	}
	return insert(data, srv, `"lore": `+render(c.Entry, srv.depth+1, st), st), nil
}

// Unmerge removes lore's server entry, and the server object when lore
// created it, leaving every other byte as it was.
func (c *MCPClient) Unmerge(data []byte) ([]byte, error) {
	root, err := c.parse(data)
	if err != nil {
		return nil, err
	}
	si, srv := root.member(c.Key)
	if srv == nil || srv.kind != '{' {
		return data, nil
	}
	i, _ := srv.member("lore")
	if i < 0 {
		return data, nil
	}
	st := styleOf(data, root)
	data = remove(data, srv, i)
	root, _ = parseJSON(data, c.Comments)
	if _, srv = root.member(c.Key); createdByLore(data, srv, st) {
		data = remove(data, root, si)
	}
	return data, nil
}

func (c *MCPClient) parse(data []byte) (*node, error) {
	root, err := parseJSON(data, c.Comments)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", c.Path, err)
	}
	return root, nil
}
