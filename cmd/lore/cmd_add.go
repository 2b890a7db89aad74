package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/lint"
	"github.com/lore-agents/lore/markdown"
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
	Scope      string   `help:"project or global." group:"Frontmatter"`
	Enforce    string   `help:"deny: block the matching call (critical items only)." group:"Frontmatter"`
	Tags       []string `help:"category:value tags (repeatable)." group:"Frontmatter"`
	Tools      []string `help:"Trigger: tool names (Bash, Read, Edit, ...)." group:"Triggers"`
	Commands   []string `sep:"none" name:"command" help:"Trigger: RE2 regex over a shell command (repeatable)." group:"Triggers"`
	Unless     []string `sep:"none" help:"Trigger: RE2 regex that vetoes (repeatable)." group:"Triggers"`
	Paths      []string `sep:"none" name:"path" help:"Trigger: glob over the repo-relative path (repeatable)." group:"Triggers"`
	Content    []string `sep:"none" name:"content" help:"Trigger: RE2 regex over the text an edit adds (repeatable)." group:"Triggers"`
	Keywords   []string `sep:"none" name:"keyword" help:"Trigger: phrase in the latest user prompt (repeatable)." group:"Triggers"`
	Topics     []string `sep:"none" name:"topic" help:"Trigger: phrase in recent conversation (repeatable)." group:"Triggers"`
}

// Run validates the new item fully before anything is written.
func (c *AddCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	if c.Stdin {
		b, err := io.ReadAll(g.Stdin)
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		c.Body = string(b)
	}
	if c.Kind == "learning" {
		return c.addLearning(g, s)
	}
	if c.Title == "" && !c.Edit {
		return usagef("a title is required: lore add %s \"Title\" ...", c.Kind)
	}
	// The editor runs before the lock is taken (the lock is held for
	// writes, not for as long as an editor stays open); the number is
	// decided under the lock, and replaces the one the editor showed unless
	// the user chose another that is still free.
	shown, err := s.NextRef(c.Kind)
	if err != nil {
		return err
	}
	data, err := c.spec().Compose(ulid.Make().String(), shown, time.Now())
	if err != nil {
		return err
	}
	want := ""
	if c.Edit {
		if data, err = editInEditor(g, data); err != nil {
			return err
		}
		if it, err := markdown.Parse("", data); err == nil && it.Ref != shown {
			want = it.Ref
		}
	}
	rel, it, err := s.Create(c.Kind, want, func(ref string) ([]byte, error) { // under the store lock
		return markdown.WithRef(data, ref)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "created %s (%s %s)\n", rel, it.Kind, displayID(it))
	// The item is written; what lint would warn about its triggers (it can
	// never fire, or fires on almost every call) is said now, not at review.
	if cfg, err := s.Config(); err == nil {
		for _, f := range lint.Triggers(it, cfg.Inject.Threshold) {
			fmt.Fprintf(g.Stderr, "%s\n", f)
		}
	}
	return nil
}

func displayID(it *markdown.Item) string {
	if it.Ref != "" {
		return it.Ref + " " + it.ID
	}
	return it.ID
}

func (c *AddCmd) spec() markdown.Spec {
	status := c.Status
	if status == "" {
		status = "active"
		if c.Kind == markdown.KindDecision {
			status = "accepted"
		}
	}
	return markdown.Spec{
		Kind: c.Kind, Title: c.Title, Status: status, Priority: c.Priority, Confidence: c.Confidence,
		Form: c.Form, Scope: c.Scope, Enforce: c.Enforce, Tags: c.Tags, Body: c.body(),
		Triggers: markdown.Triggers{Tools: c.Tools, Commands: c.Commands, Unless: c.Unless,
			Paths: c.Paths, Content: c.Content, Keywords: c.Keywords, Topics: c.Topics},
	}
}

// body renders the kind's sections from the flags, or the given body.
func (c *AddCmd) body() string {
	if strings.TrimSpace(c.Body) != "" {
		return c.Body
	}
	var secs [][2]string
	switch c.Kind {
	case markdown.KindLesson:
		var list []string
		for _, x := range c.Checklist {
			list = append(list, "- "+x)
		}
		secs = [][2]string{{"Mistake", c.Mistake}, {"Fix", c.Fix}, {"Checklist", strings.Join(list, "\n")}, {"Why", c.Why}}
	case markdown.KindPitfall:
		secs = [][2]string{{"Issue", c.Issue}, {"Impact", c.Impact}, {"Avoid", c.Avoid}}
	case markdown.KindDecision:
		secs = [][2]string{{"Context", c.Context}, {"Decision", c.Decision}, {"Consequences", c.Consequences}}
	}
	return markdown.SectionsBody(secs, c.Edit)
}

// editInEditor lets the user edit draft in $VISUAL/$EDITOR and returns the
// result; an unchanged or emptied file aborts.
func editInEditor(g *Globals, draft []byte) ([]byte, error) {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	dir, err := os.MkdirTemp("", "lore-add-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "item.md")
	if err := os.WriteFile(file, draft, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "editor", file)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, g.Stderr, g.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("editor %q: %w", editor, err)
	}
	out, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, errors.New("the edited file is empty: nothing added")
	}
	return out, nil
}

// addLearning appends an H2 entry to the learnings file under the lock.
func (c *AddCmd) addLearning(g *Globals, s *gitstore.Store) error {
	title := strings.TrimSpace(c.Title)
	if title == "" || strings.ContainsAny(title, "\r\n") {
		return usagef("a one-line title is required: lore add learning \"Title\" --body \"...\"")
	}
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	data, err := os.ReadFile(s.Path(cfg.Learnings))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	l, err := markdown.ParseLearnings(cfg.Learnings, data)
	if err != nil {
		return err
	}
	for _, e := range l.Entries {
		if e.Title == title {
			return fmt.Errorf("%s:%d: an entry titled %q already exists", cfg.Learnings, e.Line, title)
		}
	}
	body := strings.TrimSpace(c.Body)
	if c.As != "" {
		body = strings.TrimSpace("kind: " + c.As + "\n" + body)
	}
	if err := gitstore.WriteAtomic(s.Path(cfg.Learnings), markdown.AppendEntry(data, title, body)); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "added learning %q to %s\n", title, cfg.Learnings)
	return nil
}
