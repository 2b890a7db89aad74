package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/lore-agents/lore/compile"
	"github.com/lore-agents/lore/manifest"
	"github.com/lore-agents/lore/match"
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
// from an in-memory build (the same bytes lore build writes), so that it
// can also name the items left out.
func (c *MatchCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	b, err := buildManifest(s, true, false, g.Stderr)
	if err != nil {
		return err
	}
	defer b.m.Close()
	// The hook's path handling: absolute, or relative to the current
	// directory (-C), made relative to the repository.
	path := c.Path
	if path != "" {
		cwd, err := filepath.Abs(g.Dir)
		if err != nil {
			return err
		}
		if path = match.RelPath(s.Root, cwd, c.Path); path == "" {
			fmt.Fprintf(g.Stderr, "lore match: --path %s is outside the repository %s: the call has no path target\n", c.Path, s.Root)
		}
	}
	call := match.Call{Tool: c.Tool, Command: c.Command, Path: path, Content: c.Content, Prompt: c.Prompt,
		Recent: append(append([]string(nil), c.Recent...), c.Prompt)}
	d, err := match.Explain(b.m, call)
	if err != nil {
		return err
	}
	if c.JSON {
		return printMatchJSON(g, d)
	}
	printMatch(g, b.m, call, d, c.All)
	printUnsafe(g, b.report.Excluded)
	return nil
}

// printUnsafe lists the items lint rejects for safety: they never match,
// whatever the call.
func printUnsafe(g *Globals, excluded []compile.Excluded) {
	title := "\nnot compiled, never injected (lore lint rejects them for safety):\n"
	for _, x := range excluded {
		if !x.Unsafe {
			continue
		}
		fmt.Fprintf(g.Stdout, "%s  %s\n", title, x.Path)
		title = ""
		for _, e := range x.Errors {
			fmt.Fprintf(g.Stdout, "         - %v\n", e)
		}
	}
}

type matchJSON struct {
	ID        string   `json:"id"`
	Score     float64  `json:"score"`
	Relevance float64  `json:"relevance"`
	Priority  int      `json:"priority"`
	Reasons   []string `json:"reasons"`
}

func printMatchJSON(g *Globals, d match.Decision) error {
	conv := func(rs []match.Result) []matchJSON {
		out := make([]matchJSON, 0, len(rs))
		for _, r := range rs {
			out = append(out, matchJSON{ID: r.ID, Score: round4(r.Score), Relevance: round4(r.Relevance), Priority: r.Priority, Reasons: r.Reasons})
		}
		return out
	}
	return g.printJSON(struct {
		Injected   []matchJSON `json:"injected"`
		Dropped    []matchJSON `json:"dropped"`
		Considered int         `json:"considered"`
	}{conv(d.Injected), conv(d.Dropped), d.Considered})
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

func printMatch(g *Globals, m *manifest.Manifest, c match.Call, d match.Decision, all bool) {
	w := g.Stdout
	set := m.Settings()
	target := c.Command
	if target == "" {
		target = c.Path
	}
	fmt.Fprintf(w, "%s %s\n", match.Tool(c.Tool), target)
	fmt.Fprintf(w, "threshold %.2f, maxItems %d, budget %d bytes; %d of %d items considered\n",
		set.Threshold, set.MaxItems, set.BudgetBytes, d.Considered, m.Len())
	table := func(title string, rs []match.Result) {
		if len(rs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n  %-6s %-6s %-4s %-26s %s\n", title, "SCORE", "REL", "PRIO", "ID", "TITLE")
		for _, r := range rs {
			flag := ""
			if r.Deny {
				flag = " [deny]"
			}
			if r.Fallback {
				flag += " [title only]"
			}
			fmt.Fprintf(w, "  %-6.2f %-6.2f %-4d %-26s %s%s\n", r.Score, r.Relevance, r.Priority, r.ID, r.Title, flag)
			fmt.Fprintf(w, "         %s\n", r.File)
			for _, why := range r.Reasons {
				fmt.Fprintf(w, "         - %s\n", why)
			}
		}
	}
	if len(d.Injected) == 0 {
		fmt.Fprintln(w, "\nnothing to inject")
	}
	table("injected", d.Injected)
	table("dropped", d.Dropped)
	var rejected []match.Result
	for _, r := range d.Rejected {
		if all || !strings.HasPrefix(r.Reasons[len(r.Reasons)-1], "not injected: tool ") {
			rejected = append(rejected, r)
		}
	}
	title := "not injected (for this tool; --all for every item)"
	if all {
		title = "not injected"
	}
	table(title, rejected)
}
