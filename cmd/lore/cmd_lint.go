package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/lore-agents/lore/gitstore"
	"github.com/lore-agents/lore/lint"
	"github.com/lore-agents/lore/markdown"
)

// LintCmd checks the whole store and optionally fixes what it can.
type LintCmd struct {
	Fix    bool `help:"Rewrite what lint can fix by itself: a trailing (?!.*(A|B)) into unless, duplicate PF-/ADR- numbers."`
	Strict bool `help:"Exit 1 on warnings too."`
	JSON   bool `name:"json" help:"Print the findings (and fixes) as JSON."`
}

type lintJSON struct {
	Findings []lint.Finding `json:"findings"`
	Fixed    []fixJSON      `json:"fixed"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
}

type fixJSON struct {
	Path    string   `json:"path"`
	From    string   `json:"from,omitempty"`
	Changes []string `json:"changes"`
}

// Run lints; with --fix it first rewrites under the store lock, then lints
// the result.
func (c *LintCmd) Run(g *Globals) error {
	s, err := g.InitializedStore()
	if err != nil {
		return err
	}
	fixed := []fixJSON{}
	if c.Fix {
		if fixed, err = c.fix(g, s); err != nil {
			return err
		}
	}
	st, err := lintInput(s)
	if err != nil {
		return err
	}
	findings := lint.Check(st)
	nerr, nwarn := lint.Count(findings)
	if c.JSON {
		if findings == nil {
			findings = []lint.Finding{}
		}
		if err := g.printJSON(lintJSON{findings, fixed, nerr, nwarn}); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			line := f.String()
			if g.Color {
				line = colorize(line, f.Severity)
			}
			fmt.Fprintln(g.Stdout, line)
		}
		if len(findings) > 0 {
			fmt.Fprintf(g.Stderr, "lint: %d error(s), %d warning(s)\n", nerr, nwarn)
		}
	}
	if nerr > 0 || (c.Strict && nwarn > 0) {
		return errFindings
	}
	return nil
}

func colorize(line string, sev lint.Severity) string {
	if sev == lint.Warning {
		return "\x1b[33m" + line + "\x1b[0m"
	}
	return "\x1b[31m" + line + "\x1b[0m"
}

// fix writes lint's rewrites, in lint.Fix's order, while holding the store
// lock (which also removes stray temp files): each file atomically, a
// renamed file's old name removed only after the new one is written.
func (c *LintCmd) fix(g *Globals, s *gitstore.Store) ([]fixJSON, error) {
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := lintInput(s)
	if err != nil {
		return nil, err
	}
	changes, err := lint.Fix(st)
	if err != nil {
		return nil, err
	}
	out := []fixJSON{}
	for _, ch := range changes {
		if ch.From != "" {
			if _, err := os.Lstat(s.Path(ch.Path)); err == nil {
				return out, fmt.Errorf("--fix: %s: %w", ch.Path, fs.ErrExist)
			}
		}
		if !ch.Remove {
			if err := gitstore.WriteAtomic(s.Path(ch.Path), ch.Data); err != nil {
				return out, err
			}
		}
		rm := ch.From
		if ch.Remove {
			rm = ch.Path
		}
		if rm != "" {
			if err := gitstore.Remove(s.Path(rm)); err != nil {
				return out, fmt.Errorf("--fix: %w", err)
			}
		}
		out = append(out, fixJSON{ch.Path, ch.From, ch.What})
		if !c.JSON {
			for _, w := range ch.What {
				fmt.Fprintf(g.Stdout, "fixed %s: %s\n", ch.Path, w)
			}
		}
	}
	return out, nil
}

// lintInput reads every regular file of the kind folders (not only .md:
// a stray file is worth a warning), config.yaml and the learnings file.
func lintInput(s *gitstore.Store) (lint.Store, error) {
	var st lint.Store
	for _, kind := range markdown.Kinds {
		dir := path.Join(gitstore.DirName, markdown.Folder(kind))
		entries, err := os.ReadDir(s.Path(dir))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return st, err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			rel := path.Join(dir, e.Name())
			data, err := s.ReadFile(rel)
			if err != nil {
				return st, err
			}
			st.Items = append(st.Items, lint.File{Path: rel, Data: data})
		}
	}
	temps, err := s.TempFiles()
	if err != nil {
		return st, err
	}
	st.Temps = temps
	learnings := ".lore/learnings.md"
	if data, err := s.ReadFile(gitstore.ConfigPath); err == nil {
		st.Config = &lint.File{Path: gitstore.ConfigPath, Data: data}
		if cfg, err := s.Config(); err == nil {
			learnings = cfg.Learnings
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return st, err
	}
	links, err := s.Links(learnings)
	if err != nil {
		return st, err
	}
	st.Links = links
	if data, err := s.ReadFile(learnings); err == nil {
		st.Learnings = &lint.File{Path: learnings, Data: data}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return st, err
	}
	return st, nil
}
