//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// lore's MCP server in Claude Code (docs/design.md, MCP server), set up as
// a user would: lore init --agent claude --mcp writes .mcp.json, and the
// user approves the project's server and its tools (what Claude Code's
// approval dialog writes to .claude/settings.local.json). The stand-in
// model calls lore_check before a command and lore_record after it.

const mcpRecordTitle = "E2E-MCP-RECORD tag before make release"

func claudeMCP(t *testing.T, cb clientBin) {
	w := claude.world(t)
	w.run("lore", "init", "--agent", "claude", "--mcp", "--no-git-hooks")
	w.write(".claude/settings.local.json", `{"enableAllProjectMcpServers": true, "permissions": {"allow": ["mcp__lore"]}}`+"\n")
	check := call("mcp__lore__lore_check", map[string]any{"tool": "Bash", "command": lessonCommand})
	record := call("mcp__lore__lore_record", map[string]any{"title": mcpRecordTitle,
		"mistake": "make release ran without a tag and published nothing.", "fix": "git tag first, then make release",
		"tool": "Bash", "trigger": "make release"})
	sc := script{"mcp": {check, record, say("recorded")}}
	srv := claude.serve(t, sc)
	newClaude(cb, w, srv).run("-p", "[e2e:mcp] Check lore before make check, then record what you learned.")
	steps := claude.steps(srv, sc)
	if got := at(t, steps, "mcp", 1).toolResult(check.ID); !strings.Contains(got, lessonFix) {
		t.Errorf("lore_check: the model was shown %q, want the lesson (%s)", got, lessonFix)
	}
	if got := at(t, steps, "mcp", 2).toolResult(record.ID); !strings.Contains(got, `"status":"draft"`) {
		t.Errorf("lore_record: the model was shown %q", got)
	}
	drafts, _ := filepath.Glob(filepath.Join(w.repo, ".lore/lessons/*.md"))
	found := false
	for _, d := range drafts {
		data, _ := os.ReadFile(d)
		if strings.Contains(string(data), mcpRecordTitle) && strings.Contains(string(data), "status: draft") {
			found = true
		}
	}
	if !found {
		t.Errorf("lore_record: no draft titled %q in .lore/lessons", mcpRecordTitle)
	}
}

// claudePlugin: claude plugin validate accepts the repository's plugin
// and marketplace (.claude-plugin/), so /plugin marketplace add then
// /plugin install lore works.
func claudePlugin(t *testing.T, cb clientBin) {
	w := newWorld(t)
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	out := w.client("claude", claudeTimeout, nil, cb.Path, "plugin", "validate", root)
	if !strings.Contains(out, "Validation passed") {
		t.Errorf("claude plugin validate %s:\n%s", root, out)
	}
}

// geminiMCP: the same with Gemini CLI, whose MCP client reads the
// project's .gemini/settings.json (lore init --agent gemini --mcp) in a
// trusted folder. Gemini names an MCP tool after its server in some
// versions and not in others, so the stand-in calls the name offered.
func geminiMCP(t *testing.T, cb clientBin) {
	w := gemini.world(t)
	w.run("lore", "init", "--agent", "gemini", "--mcp", "--no-git-hooks")
	args := map[string]map[string]any{
		"lore_check": {"tool": "Bash", "command": lessonCommand},
		"lore_record": {"title": mcpRecordTitle, "mistake": "make release ran without a tag and published nothing.",
			"fix": "git tag first, then make release", "tool": "Bash", "trigger": "make release"},
	}
	var offered []string
	ids := map[string]string{}
	sc := script{"mcp": {say("placeholder: lore_check"), say("placeholder: lore_record"), say("recorded")}}
	srv := newStandIn(t, geminiHandler(func(c *gconv) reply {
		tag, n, r := sc.step(c.msgs())
		if tag != "mcp" || n > 1 {
			return r
		}
		want := []string{"lore_check", "lore_record"}[n]
		for _, tl := range c.body.Tools {
			for _, d := range tl.FunctionDeclarations {
				offered = append(offered, d.Name)
				if strings.HasSuffix(d.Name, want) {
					r = call(d.Name, args[want])
					ids[want] = r.ID
					return r
				}
			}
		}
		return r
	}))
	newGemini(t, cb, w, srv).run("-p", "[e2e:mcp] Check lore before make check, then record what you learned.")
	if ids["lore_check"] == "" {
		t.Fatalf("lore's MCP tools were not offered to the model: %v", offered)
	}
	// The stand-in cannot tag an MCP call's arguments with its id, so the
	// answer is told apart by what the model holds before and after it.
	steps := gemini.steps(srv, sc)
	if strings.Contains(at(t, steps, "mcp", 0).all(), lessonFix) {
		t.Errorf("the lesson was in the model's context before lore_check")
	}
	if got := at(t, steps, "mcp", 1).messages(); !strings.Contains(got, lessonFix) {
		t.Errorf("lore_check: the model was not shown the lesson (%s) after the call:\n%s", lessonFix, tail(got, 2000))
	}
	drafts, _ := filepath.Glob(filepath.Join(w.repo, ".lore/lessons/*.md"))
	found := false
	for _, d := range drafts {
		data, _ := os.ReadFile(d)
		found = found || strings.Contains(string(data), mcpRecordTitle)
	}
	if !found {
		t.Errorf("lore_record: no draft titled %q in .lore/lessons", mcpRecordTitle)
	}
}
