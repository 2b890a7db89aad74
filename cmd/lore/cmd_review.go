package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// ReviewCmd lists the drafts awaiting review, interactively on a terminal.
type ReviewCmd struct {
	JSON bool `name:"json" help:"Print the drafts with their evidence as JSON."`
}

// Run prints the drafts, or walks through them when stdin and stdout are a
// terminal.
func (c *ReviewCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.OpenReview(s)
	if err != nil {
		return err
	}
	if c.JSON {
		return g.printJSON(r.Drafts)
	}
	if len(r.Drafts) == 0 {
		fmt.Fprintln(g.Stdout, "no drafts to review")
		return nil
	}
	in := bufio.NewReader(g.Stdin)
	for i, d := range r.Drafts {
		printDraft(g, i, len(r.Drafts), d)
		if !g.Interactive {
			continue
		}
		if quit, err := decide(g, in, r, i); quit || err != nil {
			return err
		}
	}
	if !g.Interactive {
		fmt.Fprintln(g.Stdout, "promote with `lore promote <id|slug>`, or `lore archive` / `lore reject`")
	}
	return nil
}

func printDraft(g *Globals, i, n int, d app.Draft) {
	fmt.Fprintf(g.Stdout, "%d/%d %s  %s\n  %s, priority %d, confidence %.2f, from %s\n",
		i+1, n, visible(d.Path), visible(d.Title), visible(d.Kind), d.Priority, d.Confidence, visible(d.Signal))
	if d.Enforce != "" {
		fmt.Fprintf(g.Stdout, "  enforce: %s\n", enforceWords[d.Enforce])
	}
	if d.Mistake != "" {
		fmt.Fprintf(g.Stdout, "  mistake: %s\n", indent(visible(d.Mistake)))
	}
	if d.Fix != "" {
		fmt.Fprintf(g.Stdout, "  fix: %s\n", indent(visible(d.Fix)))
	}
	for _, e := range d.Evidence {
		fmt.Fprintf(g.Stdout, "  %s\n", visible(e))
	}
	if d.OnPromote != "" {
		fmt.Fprintf(g.Stdout, "  on promote: %s\n", d.OnPromote)
	}
}

// enforceWords say what a draft's enforcement will do once promoted.
var enforceWords = map[string]string{
	"once": "once: the first matching call of each session is held with this lesson; the same call again proceeds",
	"deny": "deny: every matching call is blocked",
}

// decide asks what to do with draft i until it gets an answer; quit ends
// the review (so does the end of the input).
func decide(g *Globals, in *bufio.Reader, r *app.Review, i int) (quit bool, err error) {
	for {
		fmt.Fprint(g.Stdout, "[p]romote, [a]rchive, [r]eject, [s]kip, [q]uit? ")
		line, err := in.ReadString('\n')
		if err != nil {
			return true, nil
		}
		switch strings.TrimSpace(strings.ToLower(line)) {
		case "p", "promote":
			notes, err := r.Promote(i)
			printNotes(g, notes)
			if errors.Is(err, app.ErrRefused) {
				fmt.Fprintf(g.Stdout, "  %v\n", err) // archive, reject or skip it instead
				continue
			}
			return false, err
		case "a", "archive":
			return false, r.Archive(i)
		case "r", "reject":
			return false, r.Reject(i)
		case "s", "skip", "":
			return false, nil
		case "q", "quit":
			return true, nil
		}
	}
}

func printNotes(g *Globals, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(g.Stdout, "  %s\n", n)
	}
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// PromoteCmd makes a draft active, or refines an active item (--enforce).
type PromoteCmd struct {
	Item     string   `arg:"" help:"The draft: id (or unique prefix), ref, slug or path."`
	Title    string   `help:"A better title."`
	Priority string   `help:"critical, high, medium, low or 1-10 (scan drafts start low)."`
	Tools    []string `help:"Replace the trigger's tools."`
	Commands []string `sep:"none" name:"command" help:"Replace the trigger's command regexes (RE2; repeatable)."`
	Unless   []string `sep:"none" help:"Add a veto regex to the trigger (repeatable)."`
	Paths    []string `sep:"none" name:"path" help:"Replace the trigger's path globs (repeatable)."`
	Content  []string `sep:"none" name:"content" help:"Replace the trigger's content regexes (RE2 over the text an edit adds; repeatable)."`
	Enforce  string   `enum:",once,deny,none" default:"" help:"once: hold the first matching call of each session with the lesson, then let it run; deny: block every matching call (critical only); none: context only."`

	// Examples added to the item's (docs/design.md, Item format).
	ExampleFire  []string `sep:"none" name:"example-fire" placeholder:"CALL" help:"Add a call the item must fire on, 'Tool: input' (e.g. 'Bash: pytest tests'; repeatable)."`
	ExampleQuiet []string `sep:"none" name:"example-quiet" placeholder:"CALL" help:"Add a call the item must stay quiet on, 'Tool: input' (repeatable)."`
}

// Run sets status: active, after the reviewer's refinements; only the keys
// it changes are rewritten, and an invalid result writes nothing.
func (c *PromoteCmd) Run(g *Globals, s *gitstore.Store) error {
	ch, err := app.Promote(s, c.Item, app.Refinement{
		Title: c.Title, Priority: c.Priority, Tools: c.Tools, Commands: c.Commands, Unless: c.Unless, Paths: c.Paths, Content: c.Content,
		Enforce: c.Enforce, ExampleFire: c.ExampleFire, ExampleQuiet: c.ExampleQuiet,
	})
	return printChange(g, ch, err)
}

// ArchiveCmd archives an item.
type ArchiveCmd struct {
	Item string `arg:"" help:"The item: id (or unique prefix), ref, slug or path."`
}

// Run sets status: archived.
func (c *ArchiveCmd) Run(g *Globals, s *gitstore.Store) error {
	ch, err := app.Archive(s, c.Item)
	return printChange(g, ch, err)
}

// printChange prints a status change, or returns its error.
func printChange(g *Globals, ch app.Change, err error) error {
	warnSkipped(g, ch.Skipped)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s %s: status %s\n", ch.Item.Path, ch.Item.Title, ch.Status)
	printNotes(g, ch.Notes)
	return nil
}

// RejectCmd removes a draft and remembers it so scans do not propose it again.
type RejectCmd struct {
	Item string `arg:"" help:"The draft: id (or unique prefix), ref, slug or path."`
}

// Run records the draft's content hash in the cache and removes the draft.
func (c *RejectCmd) Run(g *Globals, s *gitstore.Store) error {
	ch, err := app.Reject(s, c.Item)
	warnSkipped(g, ch.Skipped)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "rejected %s (%s); scans will not propose it again\n", ch.Item.Path, ch.Item.Title)
	return nil
}

// Capture groups the capture and review commands, embedded in the CLI so
// they are registered with one line.
type Capture struct {
	Scan    ScanCmd    `cmd:"" help:"Mine agent transcripts for draft lessons (incremental; --json lists candidates)."`
	Review  ReviewCmd  `cmd:"" help:"List drafts awaiting review with their evidence (interactive on a terminal)."`
	Promote PromoteCmd `cmd:"" help:"Make a draft active (refinements apply to an active item too)."`
	Archive ArchiveCmd `cmd:"" help:"Archive a lesson or pitfall."`
	Reject  RejectCmd  `cmd:"" help:"Reject a draft: remove it and never propose it again."`
}
