package lint

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// Matcher is the hook's decision for a context shown nothing yet, over a
// set of items: compile.Matcher. lint cannot import compile (compile
// imports lint), so its caller passes a NewMatcher.
type Matcher interface {
	Decide(match.Call) (match.Decision, error)
	DecidePrompt(prompt string) (match.Decision, error)
	Explain(match.Call) (match.Decision, error)
}

// NewMatcher compiles items under cfg as the hook does, drafts included
// (compile.NewMatcher).
type NewMatcher func(items []*markdown.Item, cfg config.Config) (Matcher, error)

// Examples runs each item's examples through the matcher (docs/design.md,
// Item format): a fire example must make the item fire (injected, held,
// or dropped only by the item or byte cap; a deny item's must be denied),
// a quiet example must not. Each item is judged as if it were active and
// confident enough, at its own priority: the examples test its
// triggers, not its review state. An item the build leaves out (it has
// errors, reported elsewhere) is not run. Each disagreement is an error
// naming the file, the example's line and the example.
func Examples(items []*markdown.Item, cfg config.Config, newMatcher NewMatcher) []Finding {
	var run []*markdown.Item
	for _, it := range items {
		if it.Examples.Empty() {
			continue
		}
		if cp, err := asActive(it); err == nil {
			run = append(run, cp)
		}
	}
	if len(run) == 0 {
		return nil
	}
	cfg.Inject.MinConfidence = 0
	mt, err := newMatcher(run, cfg)
	var compiled map[string]bool
	if err == nil {
		compiled, err = compiledPaths(mt)
	}
	if err != nil {
		return []Finding{{Path: run[0].Path, Line: run[0].KeyLine("examples"), Key: "examples", Msg: fmt.Sprintf("the examples could not be run: %v", err), Severity: Error}}
	}
	var out []Finding
	for _, it := range run {
		if !compiled[it.Path] {
			continue
		}
		for _, e := range it.Examples.Fire {
			out = append(out, checkExample(mt, it, e, true)...)
		}
		for _, e := range it.Examples.Quiet {
			out = append(out, checkExample(mt, it, e, false)...)
		}
	}
	return out
}

// asActive is a copy of it with the status promote would give it.
func asActive(it *markdown.Item) (*markdown.Item, error) {
	status := "active"
	if it.Kind == markdown.KindDecision {
		status = "accepted"
	}
	cp, err := markdown.Parse(it.Path, it.Raw())
	if err != nil || cp.Status == status {
		return cp, err
	}
	return cp, cp.Set("status", status)
}

// compiledPaths are the files of the items the matcher compiled: Explain
// scores every one of them, for any call.
func compiledPaths(mt Matcher) (map[string]bool, error) {
	d, err := mt.Explain(match.Call{})
	out := map[string]bool{}
	for _, list := range [][]match.Result{d.Injected, d.Dropped, d.Rejected} {
		for _, r := range list {
			out[r.File] = true
		}
	}
	return out, err
}

// checkExample decides one example and returns the finding when the
// item's answer is not the one the example wants.
func checkExample(mt Matcher, it *markdown.Item, e markdown.Example, fire bool) []Finding {
	key := "examples.quiet"
	if fire {
		key = "examples.fire"
	}
	bad := func(format string, args ...any) []Finding {
		return []Finding{{Path: it.Path, Line: e.Line, Key: key, Msg: fmt.Sprintf("`%s` ", e) + fmt.Sprintf(format, args...), Severity: Error}}
	}
	c, prompt, wrong := exampleCall(e)
	if wrong != "" {
		return bad("%s", wrong)
	}
	decide := func() (match.Decision, error) { return mt.Decide(c) }
	if prompt {
		decide = func() (match.Decision, error) { return mt.DecidePrompt(c.Prompt) }
	}
	d, err := decide()
	if err != nil {
		return bad("could not be decided: %v", err)
	}
	r, matched := find(d, it.Path)
	deny := it.Enforce == markdown.EnforceDeny
	switch {
	case fire && matched && (!deny || r.Deny), !fire && !matched:
		return nil
	case fire && matched:
		return bad("should be denied and is not: %s", why(mt, c, prompt, it.Path))
	case fire:
		return bad("should fire this item and does not: %s", why(mt, c, prompt, it.Path))
	}
	return bad("should leave this item quiet and fires it: %s", why(mt, c, prompt, it.Path))
}

// find is the item's result in a decision: injected (held, denied) or
// dropped by the item or byte cap.
func find(d match.Decision, file string) (match.Result, bool) {
	for _, list := range [][]match.Result{d.Injected, d.Dropped} {
		for _, r := range list {
			if r.File == file {
				return r, true
			}
		}
	}
	return match.Result{}, false
}

// why is the matcher's account of the item for the call.
func why(mt Matcher, c match.Call, prompt bool, file string) string {
	if prompt {
		return "the prompt is decided on the item's keywords (items with keywords and no tools or targets)"
	}
	d, err := mt.Explain(c)
	if err != nil {
		return err.Error()
	}
	for _, list := range [][]match.Result{d.Injected, d.Dropped, d.Rejected} {
		for _, r := range list {
			if r.File == file {
				return reasons(r.Reasons)
			}
		}
	}
	return "the item is not compiled"
}

// reasons joins the matcher's notes, without those of triggers the item
// does not set.
func reasons(notes []string) string {
	var out []string
	for _, n := range notes {
		if !strings.HasSuffix(n, "none set (0.5)") {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// exampleCall is the tool call an example stands for (docs/design.md,
// Item format): `Bash: cmd` is a shell command; `Read|Edit|Write|
// NotebookEdit|Glob|Grep: path` a call on a repo-relative path, and an
// edit may add text after ` | ` (`Edit: src/a.py | import os`) for
// content triggers; `Prompt: text` a user prompt (keyword triggers);
// any other tool, with no input, a call of that tool. prompt says the
// call is a prompt; wrong, when not "", says why the example is not a
// call lore can decide.
func exampleCall(e markdown.Example) (c match.Call, prompt bool, wrong string) {
	tool := match.Tool(e.Tool)
	switch {
	case strings.EqualFold(e.Tool, "Prompt"):
		if e.Input == "" {
			return c, true, "needs the prompt's text: `Prompt: cut a release`"
		}
		return match.Call{Prompt: e.Input}, true, ""
	case tool == "Bash":
		if e.Input == "" {
			return c, false, "needs a command: `Bash: pytest -x tests`"
		}
		return match.Call{Tool: tool, Command: e.Input}, false, ""
	case match.HasTarget(tool):
		return fileCall(tool, e.Input)
	case e.Input != "":
		return c, false, fmt.Sprintf("has an input, and triggers match no command or path of a %s call: write `%s:` alone", tool, e.Tool)
	}
	return match.Call{Tool: tool}, false, ""
}

// fileCall is the call of a file tool on `path` or `path | added text`.
func fileCall(tool, input string) (match.Call, bool, string) {
	p, added, _ := strings.Cut(input, " | ")
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return match.Call{}, false, fmt.Sprintf("needs a repo-relative path: `%s: src/app.py`", tool)
	case added != "" && !match.Edits(tool):
		return match.Call{}, false, fmt.Sprintf("adds text, and a %s call adds none (only Edit, Write and NotebookEdit do): write `%s: %s`", tool, tool, p)
	}
	return match.Call{Tool: tool, Path: p, Content: added}, false, ""
}

// denyExamples warns about a deny item without a fire and a quiet
// example: what it blocks, and what it lets through, should be shown.
func denyExamples(it *markdown.Item) []Finding {
	ex := it.Examples
	if it.Enforce != markdown.EnforceDeny || len(ex.Fire) > 0 && len(ex.Quiet) > 0 {
		return nil
	}
	line := it.KeyLine("enforce")
	if it.Has("examples") {
		line = it.KeyLine("examples")
	}
	return []Finding{{Path: it.Path, Line: line, Key: "examples", Severity: Warning,
		Msg: "enforce: deny blocks calls, and this item does not show which: add examples with a fire call it must deny and a quiet near miss it must let through, e.g. examples: {fire: ['Bash: git push --force origin main'], quiet: ['Bash: git push origin feature']}"}}
}
