package main

import (
	"fmt"
	"path/filepath"

	"github.com/lore-agents/lore/internal/app"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// LintCmd checks the whole store and optionally fixes what it can.
type LintCmd struct {
	Fix    bool   `help:"Rewrite what lint can fix by itself: a trailing (?!.*(A|B)) into unless, duplicate PF-/ADR- numbers."`
	Strict bool   `help:"Exit 1 on warnings too."`
	JSON   bool   `name:"json" help:"Print the findings (and fixes) as JSON."`
	Format string `enum:"text,github" default:"text" help:"text, or github: GitHub Actions annotations (::error file=...,line=...::message)."`
}

// Run lints; with --fix it first rewrites under the store lock, then lints
// the result.
func (c *LintCmd) Run(g *Globals, s *gitstore.Store) error {
	r, err := app.Lint(s, app.LintOptions{Fix: c.Fix})
	if !c.JSON {
		for _, f := range r.Fixed {
			for _, w := range f.Changes {
				fmt.Fprintf(g.Stdout, "fixed %s: %s\n", f.Path, w)
			}
		}
	}
	if err != nil {
		return err
	}
	switch {
	case c.JSON:
		err = g.printJSON(r)
	case c.Format == "github":
		printAnnotations(g, r)
	default:
		printFindings(g, r)
	}
	if err == nil && r.Failed(c.Strict) {
		err = errFindings
	}
	return err
}

func printFindings(g *Globals, r app.LintReport) {
	for _, f := range r.Findings {
		style := styleRed
		if f.Severity == lint.Warning {
			style = styleYellow
		}
		fmt.Fprintln(g.Stdout, g.paint(style, f.String()))
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(g.Stderr, "lint: %d error(s), %d warning(s)\n", r.Errors, r.Warnings)
	}
}

// printAnnotations prints each finding as a GitHub Actions workflow
// command, which the Actions runner turns into an annotation on the file
// and line (docs.github.com, Workflow commands for GitHub Actions).
func printAnnotations(g *Globals, r app.LintReport) {
	for _, f := range r.Findings {
		level := "error"
		if f.Severity == lint.Warning {
			level = "warning"
		}
		title, msg := "lore lint", f.Msg
		if f.Key != "" {
			title += ": " + f.Key
		}
		// GitHub attaches an annotation to a file of the repository; an
		// org store's file (acme:lessons/x.md) or the user's config is not
		// one, so the message names it and the annotation stays unattached.
		var props string
		if app.Origin(f.Path) == "" && !filepath.IsAbs(f.Path) {
			props = "file=" + ghProperty(f.Path) + ","
			if f.Line > 0 {
				props += fmt.Sprintf("line=%d,", f.Line)
			}
			if f.Col > 0 {
				props += fmt.Sprintf("col=%d,", f.Col)
			}
		} else {
			msg = f.String()
		}
		fmt.Fprintf(g.Stdout, "::%s %stitle=%s::%s\n", level, props, ghProperty(title), ghData(msg))
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(g.Stderr, "lint: %d error(s), %d warning(s)\n", r.Errors, r.Warnings)
	}
}
