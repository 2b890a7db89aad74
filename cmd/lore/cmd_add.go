package main

import (
	"fmt"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// AddCmd creates one knowledge item, or appends a learnings.md entry.
type AddCmd struct {
	Kind  string `arg:"" enum:"lesson,pitfall,decision,learning" help:"What to add: lesson, pitfall, decision or learning."`
	Title string `arg:"" optional:"" help:"One-line title (<= 100 characters). Required unless --edit."`

	Mistake      string   `help:"Lesson: what went wrong." group:"Body"`
	Fix          string   `help:"Lesson: what to do instead." group:"Body"`
	Why          string   `help:"Lesson: why." group:"Body"`
	Checklist    []string `sep:"none" help:"Lesson: checklist entries (repeatable)." group:"Body"`
	Issue        string   `help:"Pitfall: the issue." group:"Body"`
	Impact       string   `help:"Pitfall: its impact." group:"Body"`
	Avoid        string   `help:"Pitfall: how to avoid it." group:"Body"`
	Context      string   `help:"Decision: context." group:"Body"`
	Decision     string   `help:"Decision: the decision." group:"Body"`
	Consequences string   `help:"Decision: consequences." group:"Body"`
	Body         string   `help:"The Markdown body as given (a learning's text, or an item's sections)." group:"Body"`
	Stdin        bool     `help:"Read the body from standard input." group:"Body"`
	Edit         bool     `help:"Write the item in $EDITOR (VISUAL, EDITOR, or vi)." group:"Body"`
	As           string   `name:"as" enum:",lesson,pitfall,decision" default:"" help:"Learning: route it to this kind on consolidation."`

	Status     string   `help:"Status (default: active; decisions: accepted)." group:"Frontmatter"`
	Priority   string   `help:"critical, high, medium, low or 1-10." default:"medium" group:"Frontmatter"`
	Confidence float64  `help:"0..1." default:"1.0" group:"Frontmatter"`
	Form       string   `help:"checklist, pattern, warning or requirement." group:"Frontmatter"`
	Scope      string   `help:"project, or user: the user's own store for every repository ($XDG_CONFIG_HOME/lore; global is an alias)." group:"Frontmatter"`
	Enforce    string   `enum:",once,deny,none" default:"" help:"once: hold the first matching call of each session with the lesson, then let it run; deny: block every matching call (critical only); none: context only." group:"Frontmatter"`
	Tags       []string `help:"category:value tags (repeatable)." group:"Frontmatter"`
	Tools      []string `help:"Trigger: tool names (Bash, Read, Edit, ...)." group:"Triggers"`
	Commands   []string `sep:"none" name:"command" help:"Trigger: RE2 regex over a shell command (repeatable)." group:"Triggers"`
	Unless     []string `sep:"none" help:"Trigger: RE2 regex that vetoes (repeatable)." group:"Triggers"`
	Paths      []string `sep:"none" name:"path" help:"Trigger: glob over the repo-relative path (repeatable)." group:"Triggers"`
	Content    []string `sep:"none" name:"content" help:"Trigger: RE2 regex over the text an edit adds (repeatable)." group:"Triggers"`
	Keywords   []string `sep:"none" name:"keyword" help:"Trigger: phrase in the latest user prompt (repeatable)." group:"Triggers"`
	Topics     []string `sep:"none" name:"topic" help:"Trigger: phrase in recent conversation (repeatable)." group:"Triggers"`

	// Examples: calls lint runs through the matcher (docs/design.md, Item format).
	ExampleFire  []string `sep:"none" name:"example-fire" placeholder:"CALL" help:"Example: a call the item must fire on, 'Tool: input' (e.g. 'Bash: pytest tests'; repeatable)." group:"Examples"`
	ExampleQuiet []string `sep:"none" name:"example-quiet" placeholder:"CALL" help:"Example: a call the item must stay quiet on, 'Tool: input' (repeatable)." group:"Examples"`
}

// Run adds the item and prints what lint warns about its triggers.
func (c *AddCmd) Run(g *Globals, s *gitstore.Store) error {
	o := app.AddOptions{Spec: markdown.Spec{Kind: c.Kind, Title: c.Title, Status: c.Status, Priority: c.Priority,
		Confidence: c.Confidence, Form: c.Form, Scope: c.Scope, Enforce: c.Enforce, Tags: c.Tags,
		Triggers: markdown.Triggers{Tools: c.Tools, Commands: c.Commands, Unless: c.Unless,
			Paths: c.Paths, Content: c.Content, Keywords: c.Keywords, Topics: c.Topics}},
		ExampleFire: c.ExampleFire, ExampleQuiet: c.ExampleQuiet,
		Body: c.Body, Checklist: c.Checklist, As: c.As, Sections: map[string]string{
			"Mistake": c.Mistake, "Fix": c.Fix, "Why": c.Why, "Issue": c.Issue, "Impact": c.Impact, "Avoid": c.Avoid,
			"Context": c.Context, "Decision": c.Decision, "Consequences": c.Consequences}}
	if c.Stdin {
		o.BodyFrom = g.Stdin
	}
	if c.Edit {
		o.Edit = app.ExternalEditor(g.Stderr)
	}
	r, err := app.Add(s, o)
	if err != nil {
		return err
	}
	if r.Item == nil {
		fmt.Fprintf(g.Stdout, "added learning %q to %s\n", r.Title, r.Path)
		return nil
	}
	id := r.Item.ID
	if r.Item.Ref != "" {
		id = r.Item.Ref + " " + id
	}
	fmt.Fprintf(g.Stdout, "created %s (%s %s), delivery %s%s\n", r.Path, r.Item.Kind, id, r.Delivery.Kind, deliveryWhy(r.Delivery))
	for _, f := range r.Warnings {
		fmt.Fprintf(g.Stderr, "%s\n", f)
	}
	return nil
}

// deliveryWhy is ": <reason>" for an item that never reaches an agent, so
// a secret or a bad key that keeps it out of the build is said at once.
func deliveryWhy(d compile.Delivery) string {
	if d.Reason == "" {
		return ""
	}
	return ": " + d.Reason
}
