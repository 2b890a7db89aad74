package app

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lore-agents/lore/internal/app/doctor"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// LintOptions says whether lint first rewrites what it can fix.
type LintOptions struct {
	Fix bool
}

// LintReport is `lore lint --json`: the findings over the store (after the
// fixes, with Fix) and the fixes applied.
type LintReport struct {
	Findings []lint.Finding `json:"findings"`
	Fixed    []Fixed        `json:"fixed"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
}

// Fixed is one file lint --fix rewrote (From: its old name, when renamed).
type Fixed struct {
	Path    string   `json:"path"`
	From    string   `json:"from,omitempty"`
	Changes []string `json:"changes"`
}

// Failed says whether the findings fail the check: any error, or with
// strict any warning.
func (r LintReport) Failed(strict bool) bool {
	return r.Errors > 0 || strict && r.Warnings > 0
}

// Lint checks the whole store; with Fix it first applies lint's rewrites
// under the store lock, then checks the result. When a fix fails, the
// report lists the fixes already applied.
func Lint(s *gitstore.Store, o LintOptions) (LintReport, error) {
	r := LintReport{Fixed: []Fixed{}}
	if o.Fix {
		var err error
		if r.Fixed, err = fix(s); err != nil {
			return r, err
		}
	}
	st, err := lintInput(s)
	if err != nil {
		return r, err
	}
	r.Findings = lint.Check(st)
	others, _, err := scopeFindings(s)
	if err != nil {
		return r, err
	}
	r.Findings = append(r.Findings, others...)
	if r.Findings == nil {
		r.Findings = []lint.Finding{}
	}
	r.Errors, r.Warnings = lint.Count(r.Findings)
	return r, nil
}

// scopeFindings lints the org and user stores the project reads, each on
// its own, and reports what they hold that the project shares an id with.
// Their findings are warnings naming the item's origin
// (acme:lessons/x.md): a broken org item is its own repository's to fix
// and never fails this project's lint, unless --strict. guards are the
// files of those stores that declare enforce: deny or once and have an
// error: guards that act nowhere, which doctor asks to have fixed.
func scopeFindings(s *gitstore.Store) (out []lint.Finding, guards []string, err error) {
	own, err := s.Config()
	if !config.Usable(err) {
		return nil, nil, nil // the project's own findings name it
	}
	sc, err := LoadScopes(s)
	if err != nil {
		return nil, nil, err
	}
	if problems := lint.ConfigFindings(sc.UserErr, lint.Warning); problems != nil {
		out = append(out, problems...)
	} else if sc.UserErr != nil {
		out = append(out, lint.Finding{Path: filepath.Join(compile.UserDir(), "config.yaml"), Msg: sc.UserErr.Error(), Severity: lint.Warning})
	}
	project, _ := s.Load()
	holder := map[string]string{} // id -> the path that has it first
	for _, it := range project {
		holder[it.ID] = it.Path
	}
	var global []*markdown.Item // every org and user item, when every store was fetched
	fetched := true
	for _, st := range sc.Stores {
		if st.Dir == "" {
			// A fresh machine's pre-commit run would otherwise pass
			// having checked none of the source's items.
			f := lint.Finding{Path: lorepath.Config, Msg: NoCopy(st.Name) + ", and lint checked none of them", Severity: lint.Warning}
			if i := slices.IndexFunc(sc.Config.Sources, func(src config.Source) bool { return src.Name == st.Name }); i >= 0 {
				f.Path, f.Line = sc.Config.Sources[i].File, sc.Config.Sources[i].Line
			}
			out = append(out, f)
			fetched = false
			continue
		}
		files, err := storeFiles(st)
		if err != nil {
			return out, guards, err
		}
		broken := map[string]bool{}
		for _, f := range lint.Check(withMatcher(lint.Store{Items: files})) {
			broken[f.Path] = broken[f.Path] || f.Severity == lint.Error
			f.Severity = lint.Warning
			out = append(out, f)
		}
		for _, f := range files {
			if broken[f.Path] && guardRe().Match(f.Data) {
				guards = append(guards, f.Path)
			}
		}
		items, _ := compile.LoadDir(st.Dir, st.Name)
		global = append(global, items...)
		for _, it := range items {
			prev, dup := holder[it.ID]
			if dup && strings.HasPrefix(prev, st.Name+":") {
				continue // two files of one store: lint.Check above reports both, and neither compiles
			}
			if dup {
				out = append(out, lint.Finding{Path: it.Path, Line: it.KeyLine("id"), Key: "id",
					Msg: "id also in " + prev + ", which is used instead", Severity: lint.Warning})
				continue
			}
			holder[it.ID] = it.Path
		}
	}
	if fetched {
		data, _ := s.ReadFile(lorepath.Config)
		out = append(out, disableFindings(own.Disable, data, global)...)
	}
	return out, guards, nil
}

// guardRe finds an item's enforce: deny or once, in its frontmatter or
// not: a file that does not parse is still known to be a guard.
var guardRe = lazyre.New(`(?m)^enforce:[ \t]*["']?(deny|once)\b`)

// disableFindings warns of each id the project's disable list has that no
// org or user item has: a typo, a ref, a lower-cased id would otherwise
// leave the item on without a word. (The user's list spans repositories,
// whose sources differ: it is not checked.)
func disableFindings(disable []string, config []byte, global []*markdown.Item) []lint.Finding {
	var out []lint.Finding
	for i, id := range disable {
		if slices.ContainsFunc(global, func(it *markdown.Item) bool { return it.ID == id }) {
			continue
		}
		msg := fmt.Sprintf("%q is the id of no org or user item this project reads: nothing is switched off", id)
		for _, it := range global {
			if strings.EqualFold(it.ID, id) || it.Ref != "" && strings.EqualFold(it.Ref, id) {
				msg += fmt.Sprintf(" (did you mean %s, the id of %s?)", it.ID, it.Path)
				break
			}
		}
		line := 1 + bytes.Count(config[:max(bytes.Index(config, []byte(id)), 0)], []byte("\n"))
		out = append(out, lint.Finding{Path: lorepath.Config, Line: line, Key: fmt.Sprintf("disable[%d]", i), Msg: msg, Severity: lint.Warning})
	}
	return out
}

// storeFiles reads every regular file of a store's kind folders, by the
// path its items show (origin:folder/name).
func storeFiles(st compile.Store) ([]lint.File, error) {
	files, err := kindFiles(gitstore.OpenFolder(st.Dir, ""))
	for i := range files {
		files[i].Path = st.Name + ":" + strings.TrimPrefix(files[i].Path, lorepath.Dir+"/")
	}
	return files, err
}

// fix plans lint's rewrites and applies them, both under one hold of the
// store lock (which also removes stray temp files).
func fix(s *gitstore.Store) ([]Fixed, error) {
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := lintInput(s)
	if err != nil {
		return nil, err
	}
	plan, err := lint.Fix(st)
	if err != nil {
		return nil, err
	}
	return applyFixes(s, plan)
}

// applyFixes writes the changes in lint.Fix's order: each file atomically,
// a renamed file's old name removed only after the new one is written. The
// caller holds the store lock, so the store's own WriteFile (which takes
// it) cannot be used.
func applyFixes(s *gitstore.Store, plan []lint.Change) ([]Fixed, error) {
	out := []Fixed{}
	for _, ch := range plan {
		if ch.From != "" {
			if _, err := os.Lstat(s.Path(ch.Path)); err == nil {
				return out, fmt.Errorf("--fix: %s: %w", ch.Path, fs.ErrExist)
			}
		}
		if !ch.Remove {
			if err := s.WriteLocked(ch.Path, ch.Data); err != nil {
				return out, err
			}
		}
		rm := ch.From
		if ch.Remove {
			rm = ch.Path
		}
		if rm != "" {
			if err := s.RemoveLocked(rm); err != nil {
				return out, fmt.Errorf("--fix: %w", err)
			}
		}
		out = append(out, Fixed{ch.Path, ch.From, ch.What})
	}
	return out, nil
}

// lintCounts is the number of lint errors and warnings lore lint reports,
// the project's and those of the stores it reads, and the guards of
// those stores that act nowhere for their errors (scopeFindings).
func lintCounts(s *gitstore.Store) (doctor.LintCounts, error) {
	st, err := lintInput(s)
	if err != nil {
		return doctor.LintCounts{}, err
	}
	others, guards, err := scopeFindings(s) // doctor's "no lint findings" is lore lint's
	if err != nil {
		return doctor.LintCounts{}, err
	}
	c := doctor.LintCounts{BrokenGuards: guards}
	c.Errors, c.Warnings = lint.Count(append(lint.Check(st), others...))
	return c, nil
}

// lintInput reads every regular file of the kind folders (not only .md:
// a stray file is worth a warning), config.yaml and the learnings file.
func lintInput(s *gitstore.Store) (lint.Store, error) {
	var st lint.Store
	items, err := kindFiles(s)
	if err != nil {
		return st, err
	}
	st.Items = items
	if st.Temps, err = s.TempFiles(); err != nil {
		return st, err
	}
	learnings := lorepath.Learnings
	if st.Config, err = optionalFile(s, lorepath.Config); err != nil {
		return st, err
	}
	if st.Config != nil {
		if cfg, err := s.Config(); err == nil {
			learnings = cfg.Learnings
		}
	}
	if st.Links, err = s.Links(learnings); err != nil {
		return st, err
	}
	if st.Learnings, err = optionalFile(s, learnings); err != nil {
		return st, err
	}
	return grounded(s, st)
}

// grounded gives lint what its examples and stale checks need: the hook's
// matcher (drafts included) and HEAD's files.
func grounded(s *gitstore.Store, st lint.Store) (lint.Store, error) {
	st = withMatcher(st)
	var err error
	st.Files, err = s.HeadFiles()
	return st, err
}

// withMatcher gives lint the hook's matcher (drafts included) for the
// items' examples; without HEAD's files no item is judged stale (an org
// item's paths are not this repository's to check).
func withMatcher(st lint.Store) lint.Store {
	st.NewMatcher = func(items []*markdown.Item, cfg config.Config) (lint.Matcher, error) {
		return compile.NewMatcher(items, cfg, true)
	}
	return st
}

// kindFiles reads every regular file in the lessons, pitfalls and
// decisions folders.
func kindFiles(s *gitstore.Store) ([]lint.File, error) {
	var files []lint.File
	for _, kind := range markdown.Kinds {
		dir := path.Join(lorepath.Dir, markdown.Folder(kind))
		entries, err := os.ReadDir(s.Path(dir))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return files, err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			rel := path.Join(dir, e.Name())
			data, err := s.ReadFile(rel)
			if err != nil {
				return files, err
			}
			files = append(files, lint.File{Path: rel, Data: data})
		}
	}
	return files, nil
}

// optionalFile reads rel; nil when it does not exist.
func optionalFile(s *gitstore.Store, rel string) (*lint.File, error) {
	data, err := s.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &lint.File{Path: rel, Data: data}, nil
}
