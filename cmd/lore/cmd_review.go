package main

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/lore-agents/lore/markdown"
	"github.com/lore-agents/lore/review"
)

// ReviewCmd lists the drafts awaiting review, interactively on a terminal.
type ReviewCmd struct {
	JSON bool `name:"json" help:"Print the drafts with their evidence as JSON."`
}

type draftJSON struct {
	ID         string   `json:"id"`
	Path       string   `json:"path"`
	Kind       string   `json:"kind"`
	Title      string   `json:"title"`
	Priority   int      `json:"priority"`
	Confidence float64  `json:"confidence"`
	Signal     string   `json:"signal"`
	Sessions   []string `json:"sessions"`
	Mistake    string   `json:"mistake"`
	Fix        string   `json:"fix"`
	Evidence   []string `json:"evidence"`
}

// Run prints the drafts, or walks through them when stdin and stdout are a
// terminal.
func (c *ReviewCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	drafts, err := review.Drafts(s)
	if err != nil {
		return err
	}
	if c.JSON {
		out := make([]draftJSON, 0, len(drafts))
		for _, it := range drafts {
			out = append(out, toDraftJSON(it))
		}
		return g.printJSON(out)
	}
	if len(drafts) == 0 {
		fmt.Fprintln(g.Stdout, "no drafts to review")
		return nil
	}
	cfg, err := s.Config()
	if err != nil {
		return err
	}
	minConf := cfg.Inject.MinConfidence
	interactive := g.Interactive
	in := bufio.NewReader(g.Stdin)
	for i, it := range drafts {
		d := toDraftJSON(it)
		fmt.Fprintf(g.Stdout, "%d/%d %s  %s\n  %s, priority %d, confidence %.2f, from %s\n",
			i+1, len(drafts), d.Path, d.Title, d.Kind, d.Priority, d.Confidence, d.Signal)
		if d.Mistake != "" {
			fmt.Fprintf(g.Stdout, "  mistake: %s\n", indent(d.Mistake))
		}
		if d.Fix != "" {
			fmt.Fprintf(g.Stdout, "  fix: %s\n", indent(d.Fix))
		}
		for _, e := range d.Evidence {
			fmt.Fprintf(g.Stdout, "  %s\n", e)
		}
		if !interactive {
			continue
		}
		for {
			fmt.Fprint(g.Stdout, "[p]romote, [a]rchive, [r]eject, [s]kip, [q]uit? ")
			line, err := in.ReadString('\n')
			if err != nil {
				return nil
			}
			var actErr error
			switch strings.TrimSpace(strings.ToLower(line)) {
			case "p", "promote":
				var notes []string
				_, notes, actErr = review.Promote(s, it.Path, review.Refinement{}, minConf, time.Now())
				for _, n := range notes {
					fmt.Fprintf(g.Stdout, "  %s\n", n)
				}
			case "a", "archive":
				_, actErr = review.SetStatus(s, it.Path, "archived", review.Refinement{}, time.Now())
			case "r", "reject":
				actErr = review.Reject(s, it)
			case "s", "skip", "":
			case "q", "quit":
				return nil
			default:
				continue
			}
			if actErr != nil {
				return actErr
			}
			break
		}
	}
	if !interactive {
		fmt.Fprintln(g.Stdout, "promote with `lore promote <id|slug>`, or `lore archive` / `lore reject`")
	}
	return nil
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

func toDraftJSON(it *markdown.Item) draftJSON {
	d := draftJSON{ID: it.ID, Path: it.Path, Kind: it.Kind, Title: it.Title, Priority: int(it.Priority),
		Confidence: it.Confidence, Signal: "manual", Sessions: []string{}, Evidence: []string{}}
	if it.Source != nil {
		d.Signal = it.Source.Type
		if it.Source.Sessions != nil {
			d.Sessions = it.Source.Sessions
		}
	}
	if n := it.Node("source"); n != nil {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "signal" {
				d.Signal = n.Content[i+1].Value
			}
		}
	}
	d.Mistake = firstSection(it, "Mistake", "Issue")
	d.Fix = firstSection(it, "Fix", "Avoid")
	for _, l := range strings.Split(it.Section("Evidence"), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")); l != "" {
			d.Evidence = append(d.Evidence, l)
		}
	}
	return d
}

func firstSection(it *markdown.Item, names ...string) string {
	for _, n := range names {
		if s := it.Section(n); s != "" {
			return s
		}
	}
	return ""
}

// PromoteCmd makes a draft active.
type PromoteCmd struct {
	Item     string   `arg:"" help:"The draft: id (or unique prefix), ref, slug or path."`
	Title    string   `help:"A better title."`
	Priority string   `help:"critical, high, medium, low or 1-10 (scan drafts start low)."`
	Tools    []string `help:"Replace the trigger's tools."`
	Commands []string `sep:"none" name:"command" help:"Replace the trigger's command regexes (RE2; repeatable)."`
	Unless   []string `sep:"none" help:"Add a veto regex to the trigger (repeatable)."`
	Paths    []string `sep:"none" name:"path" help:"Replace the trigger's path globs (repeatable)."`
	Content  []string `sep:"none" name:"content" help:"Replace the trigger's content regexes (RE2 over the text an edit adds; repeatable)."`
}

// Run sets status: active, after the reviewer's refinements; only the keys
// it changes are rewritten, and an invalid result writes nothing.
func (c *PromoteCmd) Run(g *Globals) error {
	return setStatusRefined(g, c.Item, "active", review.Refinement{
		Title: c.Title, Priority: c.Priority, Tools: c.Tools, Commands: c.Commands, Unless: c.Unless, Paths: c.Paths, Content: c.Content,
	})
}

// ArchiveCmd archives an item.
type ArchiveCmd struct {
	Item string `arg:"" help:"The item: id (or unique prefix), ref, slug or path."`
}

// Run sets status: archived.
func (c *ArchiveCmd) Run(g *Globals) error { return setStatus(g, c.Item, "archived") }

// RejectCmd removes a draft and remembers it so scans do not propose it again.
type RejectCmd struct {
	Item string `arg:"" help:"The draft: id (or unique prefix), ref, slug or path."`
}

// Run records the draft's content hash in the cache and removes the draft.
func (c *RejectCmd) Run(g *Globals) error {
	items, err := loadItems(g)
	if err != nil {
		return err
	}
	it, err := resolve(items, c.Item)
	if err != nil {
		return err
	}
	s, _ := g.Store()
	if err := review.Reject(s, it); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "rejected %s (%s); scans will not propose it again\n", it.Path, it.Title)
	return nil
}

func setStatus(g *Globals, q, status string) error {
	return setStatusRefined(g, q, status, review.Refinement{})
}

func setStatusRefined(g *Globals, q, status string, r review.Refinement) error {
	items, err := loadItems(g)
	if err != nil {
		return err
	}
	it, err := resolve(items, q)
	if err != nil {
		return err
	}
	if it.Kind == markdown.KindDecision {
		return fmt.Errorf("%s is a decision: its statuses are %s", it.Path, strings.Join(markdown.Statuses(it.Kind), ", "))
	}
	s, _ := g.Store()
	var notes []string
	if status == "active" {
		cfg, err := s.Config()
		if err != nil {
			return err
		}
		if it, notes, err = review.Promote(s, it.Path, r, cfg.Inject.MinConfidence, time.Now()); err != nil {
			return err
		}
	} else if it, err = review.SetStatus(s, it.Path, status, r, time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s %s: status %s\n", it.Path, it.Title, status)
	for _, n := range notes {
		fmt.Fprintf(g.Stdout, "  %s\n", n)
	}
	return nil
}

// Capture groups the capture and review commands, embedded in the CLI so
// they are registered with one line.
type Capture struct {
	Scan    ScanCmd    `cmd:"" help:"Mine agent transcripts for draft lessons (incremental; --json lists candidates)."`
	Review  ReviewCmd  `cmd:"" help:"List drafts awaiting review with their evidence (interactive on a terminal)."`
	Promote PromoteCmd `cmd:"" help:"Make a draft active."`
	Archive ArchiveCmd `cmd:"" help:"Archive a lesson or pitfall."`
	Reject  RejectCmd  `cmd:"" help:"Reject a draft: remove it and never propose it again."`
}
