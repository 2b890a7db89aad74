package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// MatchCmd shows what the hook would inject for one tool call.
type MatchCmd struct {
	Tool    string   `required:"" placeholder:"TOOL" help:"The tool: Bash, Read, Edit, Write, Glob, Grep, NotebookEdit, or any other name."`
	Command string   `placeholder:"CMD" xor:"target" help:"The shell command (Bash)."`
	Path    string   `placeholder:"PATH" xor:"target" help:"The file path (file tools): repo-relative, absolute, or relative to the current directory, as the hook reads it."`
	Content string   `placeholder:"TEXT" help:"The text the call adds (Edit new_string, Write content), for content triggers."`
	Prompt  string   `placeholder:"TEXT" help:"The latest user prompt (keywords; topics too)."`
	Recent  []string `sep:"none" placeholder:"TEXT" help:"Earlier prompts of the session, for topics (repeatable)."`
	All     bool     `help:"Also list every item that was not selected, with why."`
	JSON    bool     `name:"json" help:"Print the decision as JSON."`
}

// Run prints the decision the hook makes for this call in a fresh session,
// with every score and reason.
func (c *MatchCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Match(s, app.MatchOptions{Tool: c.Tool, Command: c.Command, Content: c.Content, Prompt: c.Prompt,
		Path: c.Path, Dir: g.Dir, Recent: c.Recent, All: c.All})
	printBuildProblems(g, r.Built)
	if r.Outside {
		fmt.Fprintf(g.Stderr, "lore match: --path %s is outside the repository %s: the call has no path target\n", c.Path, s.Root)
	}
	if err != nil {
		return err
	}
	if c.JSON {
		return g.printJSON(r.Report())
	}
	printMatch(g, r, c.All)
	if len(r.Unsafe) > 0 {
		fmt.Fprint(g.Stdout, "\nnot compiled, never injected (lore lint rejects them for safety):\n")
	}
	for _, x := range r.Unsafe {
		fmt.Fprintf(g.Stdout, "  %s\n", visible(x.Path))
		for _, e := range x.Errors {
			fmt.Fprintf(g.Stdout, "         - %s\n", visible(e.Error()))
		}
	}
	return nil
}

func printMatch(g *Globals, r app.Matched, all bool) {
	w, set, d := g.Stdout, r.Settings, r.Decision
	target := r.Call.Command
	if target == "" {
		target = r.Call.Path
	}
	fmt.Fprintf(w, "%s %s\n", match.Tool(r.Call.Tool), target)
	// Considered counts what the manifest's index offered the hook for
	// this tool and text; the lists below explain every item.
	fmt.Fprintf(w, "threshold %.2f, maxItems %d, budget %d bytes; %d of %d items were candidates (the index's for this call)\n",
		set.Threshold, set.MaxItems, set.BudgetBytes, d.Considered, r.Items)
	if len(d.Injected) == 0 {
		fmt.Fprintln(w, "\nnothing to inject")
	}
	printResults(g, r, "injected", d.Injected)
	printResults(g, r, "dropped", d.Dropped)
	title := "not injected (for this tool; --all for every item)"
	if all {
		title = "not injected"
	}
	printResults(g, r, title, d.Rejected)
	if len(r.Never) > 0 {
		fmt.Fprintln(w, "\nnever delivered to an agent:")
	}
	for _, n := range r.Never {
		fmt.Fprintf(w, "  %-26s %s\n         %s\n         - %s\n", visible(n.ID), visible(n.Title), visible(n.Path), visible(n.Reason))
	}
}

func printResults(g *Globals, m app.Matched, title string, rs []match.Result) {
	if len(rs) == 0 {
		return
	}
	w := g.Stdout
	fmt.Fprintf(w, "\n%s:\n  %-6s %-6s %-4s %-26s %s\n", title, "SCORE", "REL", "PRIO", "ID", "TITLE")
	for _, r := range rs {
		flag := ""
		if r.Deny {
			flag = " [deny]"
		}
		if r.Hold {
			flag = " [hold once]"
		}
		if r.Fallback {
			flag += " [title only]"
		}
		fmt.Fprintf(w, "  %-6.2f %-6.2f %-4d %-26s %s%s\n", r.Score, r.Relevance, r.Priority, visible(r.ID), visible(r.Title), flag)
		fmt.Fprintf(w, "         %s\n", visible(r.File))
		if d, ok := m.Delivery[r.ID]; ok {
			fmt.Fprintf(w, "         delivery: %s\n", d.Kind)
		}
		for _, why := range r.Reasons {
			fmt.Fprintf(w, "         - %s\n", visible(why))
		}
	}
}
