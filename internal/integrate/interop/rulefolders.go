package interop

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

// Windsurf and Cline rule folders, as their makers document them.
//
// Windsurf (now Devin Desktop), "Memories & Rules",
// https://docs.windsurf.com/windsurf/cascade/memories and
// https://docs.devin.ai/desktop/cascade/memories: workspace rules are the
// Markdown files of .windsurf/rules/ (Devin Desktop also reads
// .devin/rules/), each activated by its frontmatter's trigger: always_on,
// glob (the globs it names, e.g. *.js, src/**/*.ts), model_decision (the
// agent judges its description) or manual (@-mention); a rule file is
// read up to 12,000 characters. Windsurf's editor writes the globs as a
// bare comma-separated scalar (`globs: **/*.ts`, AmadeusITGroup/otter's
// rules in testdata/otter), which strict YAML rejects and Devin CLI
// refuses ("expected a sequence"); a YAML list is the form both read
// (skillsaw's devin-rules-valid rule,
// github.com/stbenjam/skillsaw docs/rules/devin-rules-valid.md), so lore
// writes a list of quoted globs and reads either.
//
// Cline, "Rules" and "Conditional Rules",
// https://docs.cline.bot/customization/cline-rules and
// https://docs.cline.bot/features/cline-rules/conditional-rules: the .md
// and .txt files of .clinerules/ (or .cline/rules/; a single .clinerules
// file is the legacy form) are combined into one rule set; a rule with
// YAML frontmatter `paths:` (a list of globs: * ** ? [abc] {a,b}) applies
// only while a matching file is in the task's context, one without it
// always; `paths: []` never applies; frontmatter that does not parse is
// read as part of the rule (it fails open). Cline's source agrees
// (github.com/cline/cline, apps/vscode/src/core/context/instructions/
// user-instructions/: frontmatter.ts reads YAML with js-yaml and fails
// open, rule-conditionals.ts matches with picomatch and ignores a paths
// that is not a list, cline-rules.ts leaves .clinerules/workflows, hooks
// and skills out). That is Claude Code's rule format, so Cline's rules
// are written and read as .claude/rules are.

// The rule-folder targets of Windsurf and Cline.
const (
	TargetWindsurf = "windsurf" // .windsurf/rules/lore-<slug>.md, trigger/description/globs
	TargetCline    = "cline"    // .clinerules/lore-<slug>.md, paths frontmatter
)

// windsurfLimit is the characters of a rule file Windsurf reads.
const windsurfLimit = 12000

// windsurfFrontmatter is an item's Windsurf activation: glob with its
// paths, else always_on; the title as description either way (the
// fallback title when the rule is read back).
func windsurfFrontmatter(it *markdown.Item) string {
	var b strings.Builder
	b.WriteString("---\n")
	if len(it.Triggers.Paths) == 0 {
		b.WriteString("trigger: always_on\n")
	} else {
		b.WriteString("trigger: glob\n")
	}
	b.WriteString("description: " + yamlQuote(it.Title) + "\n")
	if len(it.Triggers.Paths) > 0 {
		b.WriteString("globs:\n")
		for _, p := range it.Triggers.Paths {
			b.WriteString("  - " + yamlQuote(p) + "\n")
		}
	}
	return b.String() + "---\n"
}

// limitNotes says which exported files Windsurf would cut short.
func (e *Export) limitNotes(target string, want map[string][]byte) {
	if target != TargetWindsurf {
		return
	}
	for _, rel := range slices.Sorted(maps.Keys(want)) {
		if n := utf8.RuneCount(want[rel]); n > windsurfLimit {
			e.Notes = append(e.Notes, Note{From: rel, Msg: fmt.Sprintf("%d characters: Windsurf reads the first %d of a rule file; shorten the item", n, windsurfLimit)})
		}
	}
}

// folderNotFile refuses a rule folder that is a file: Cline's legacy
// single .clinerules file stands where its folder goes, and Cline reads
// one or the other.
func folderNotFile(root, dir string) error {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir)))
	if err == nil && !fi.IsDir() {
		return fmt.Errorf("export: %s is a file (a legacy single rule file), not the folder lore writes one rule per file into: move its text into %s/<name>.md", dir, dir)
	}
	return nil
}

// windsurfModes are the triggers that attach a rule without a file
// pattern, and what lore can say of them.
var windsurfModes = map[string]string{
	"model_decision": "applied by Windsurf only when its agent judges the description relevant",
	"manual":         "applied by Windsurf only when @-mentioned",
}

// ReadWindsurfRule plans a .windsurf/rules/*.md file: a glob rule's globs
// become paths, an always_on rule has no triggers; model_decision and
// manual rules have no lore equivalent and arrive without triggers, said
// in a note. Without a trigger Windsurf goes by what the rule has: globs,
// else a description, else manual.
func (p *Plan) ReadWindsurfRule(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	f := readRuleFile(data)
	globs := globList(f.meta["globs"])
	fallback := metaString(f.meta, "description")
	trigger := windsurfTrigger(metaString(f.meta, "trigger"), globs, fallback)
	if fallback == "" {
		fallback = strings.TrimSuffix(path.Base(rel), ".md")
	}
	var paths []string
	if trigger == "glob" {
		paths = globs
	}
	d, id := p.ruleDraft(rel, rel, fallback, f.body, paths)
	switch mode, known := windsurfModes[trigger]; {
	case known && len(globs) > 0:
		p.note(rel, d.Spec.Title, "%s: lore has no such mode; imported without triggers (globs unused by trigger %s: %s)", mode, trigger, strings.Join(globs, ", "))
	case known:
		p.note(rel, d.Spec.Title, "%s: lore has no such mode; imported without triggers", mode)
	case trigger != "glob" && trigger != "always_on":
		p.note(rel, d.Spec.Title, "trigger %q is not one Windsurf documents: imported without triggers", trigger)
	}
	p.add(d, id)
}

// windsurfTrigger is the rule's trigger, or the one Windsurf infers.
func windsurfTrigger(trigger string, globs []string, description string) string {
	switch {
	case trigger != "":
		return trigger
	case len(globs) > 0:
		return "glob"
	case description != "":
		return "model_decision"
	}
	return "manual"
}

// ReadClineRule plans a .clinerules/ file: Claude Code's rule format
// (paths frontmatter); where Cline reads paths otherwise (`paths: []`
// never applies, a paths string is ignored: its rule-conditionals.ts) a
// note says so.
func (p *Plan) ReadClineRule(rel string, data []byte) {
	switch v := readRuleFile(data).meta["paths"].(type) {
	case []any:
		if len(v) == 0 {
			p.note(rel, "", "paths: [] (Cline never applies it): imported without triggers")
		}
	case string:
		p.note(rel, "", "paths is not a YAML list: Cline ignores it and applies the rule everywhere; imported with those paths")
	}
	p.ReadClaudeRule(rel, data)
}

// clineNotRules are the folders of .clinerules/ that hold no rules:
// Cline's workflows, hooks and skills (its rule loader leaves them out,
// apps/vscode/src/core/context/instructions/user-instructions/cline-rules.ts).
var clineNotRules = lazyre.New(`/\.clinerules/(workflows|hooks|skills)/`)

// clineRule reports whether a file in Cline's rule folder is a rule: its
// Markdown and text files, outside the folders that hold no rules.
func clineRule(rel string) bool {
	b := path.Base(rel)
	return (strings.HasSuffix(b, ".md") || strings.HasSuffix(b, ".txt")) && !clineNotRules().MatchString("/"+rel)
}

// splitGlobs splits a comma-separated glob list at the commas outside
// braces: Claude Code's and Cline's own examples name
// src/**/*.{ts,tsx} and packages/{web,api}/**.
func splitGlobs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case r == '{':
			depth++
		case r == '}' && depth > 0:
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
