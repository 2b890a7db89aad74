package interop

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/oklog/ulid/v2"
	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/testrepo"
)

// The Windsurf rule of the path-triggered item, byte for byte: trigger,
// description and globs as a YAML list of quoted globs.
func TestExportWindsurfRuleBytes(t *testing.T) {
	s, items := exportStore(t)
	e, err := PlanExport(s.Root, TargetWindsurf, items)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	wrap := byTitle(items, "Wrap errors with %w")
	for _, c := range e.Changes {
		if c.Path == ".windsurf/rules/lore-wrap-errors-with-w.md" {
			got = c.Data
		}
	}
	want := "---\ntrigger: glob\ndescription: \"Wrap errors with %w\"\nglobs:\n  - \"**/*.go\"\n  - \"cmd/**/main.go\"\n---\n" +
		"# Wrap errors with %w\n<!-- lore:item " + wrap.ID + " -->\n\n## Mistake\nErrors lost their cause.\n\n## Fix\nUse `fmt.Errorf(\"x: %w\", err)`.\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// clineFrontmatterRe is the frontmatter pattern of Cline's frontmatter.ts.
var clineFrontmatterRe = regexp.MustCompile(`^---\r?\n((?s:.*?))\r?\n---\r?\n?((?s:.*))$`)

func byTitle(items []*markdown.Item, title string) *markdown.Item {
	for _, it := range items {
		if it.Title == title {
			return it
		}
	}
	return nil
}

// frontmatter parses a rule file's frontmatter as YAML (nil: none).
func frontmatter(t *testing.T, rel string, data []byte) map[string]any {
	t.Helper()
	text := string(data)
	if !strings.HasPrefix(text, "---\n") {
		return nil
	}
	block, _, ok := strings.Cut(text[4:], "---\n")
	if !ok {
		t.Fatalf("%s: unclosed frontmatter", rel)
	}
	var fm map[string]any
	if err := yaml.Unmarshal([]byte(block), &fm); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return fm
}

// stringList reads a YAML list of strings, failing on anything else (Devin
// CLI refuses a scalar: "expected a sequence"; Cline's paths is an array).
func stringList(t *testing.T, rel string, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("%s: %#v is not a list", rel, v)
	}
	var out []string
	for _, g := range list {
		s, ok := g.(string)
		if !ok || !doublestar.ValidatePattern(s) {
			t.Fatalf("%s: %#v is not a valid glob", rel, g)
		}
		out = append(out, s)
	}
	return out
}

// The exported rules parse as the tools parse them: YAML frontmatter with
// only the documented keys; Windsurf's trigger always_on or glob, its
// description a string, its globs a list; Cline's paths a list, and no
// frontmatter for an always-on rule; every glob valid (doublestar, which
// has Cline's documented * ** ? [abc] {a,b}).
func TestExportedRuleFoldersParse(t *testing.T) {
	for target, keys := range map[string][]string{TargetWindsurf: {"description", "globs", "trigger"}, TargetCline: {"paths"}} {
		t.Run(target, func(t *testing.T) {
			s, items := exportStore(t)
			e, err := PlanExport(s.Root, target, items)
			if err != nil {
				t.Fatal(err)
			}
			scoped := map[string][]string{}
			for _, c := range e.Changes {
				fm := frontmatter(t, c.Path, c.Data)
				if m := clineFrontmatterRe.FindSubmatch(c.Data); (m != nil) != (fm != nil) || m != nil && !bytes.HasPrefix(m[2], []byte("# ")) {
					t.Errorf("%s: Cline's frontmatter pattern reads %q", c.Path, m)
				}
				for k := range fm {
					if !slices.Contains(keys, k) {
						t.Errorf("%s: key %q is not one %s documents", c.Path, k, target)
					}
				}
				switch {
				case target == TargetCline && fm == nil:
				case target == TargetCline:
					scoped[c.Path] = stringList(t, c.Path, fm["paths"])
				case fm["trigger"] == "glob":
					scoped[c.Path] = stringList(t, c.Path, fm["globs"])
				case fm["trigger"] != "always_on" || fm["globs"] != nil:
					t.Errorf("%s: %v", c.Path, fm)
				}
				if d, ok := fm["description"].(string); target == TargetWindsurf && (!ok || d == "") {
					t.Errorf("%s: description %#v", c.Path, fm["description"])
				}
			}
			if len(e.Changes) != 4 || len(scoped) != 1 {
				t.Fatalf("%d files, scoped %v", len(e.Changes), scoped)
			}
			for _, globs := range scoped {
				if want := byTitle(items, "Wrap errors with %w").Triggers.Paths; !reflect.DeepEqual(globs, want) {
					t.Errorf("globs %q, want %q", globs, want)
				}
			}
		})
	}
}

// --check: stale before the export (and nothing written), fresh after it;
// exporting again changes no byte; the tool's own rules in the folder stay
// as they are; a lore rule whose item is no longer active is removed.
func TestExportRuleFoldersCheck(t *testing.T) {
	for _, target := range []string{TargetWindsurf, TargetCline} {
		t.Run(target, func(t *testing.T) {
			s, _ := exportStore(t)
			dir := filepath.Join(s.Root, filepath.FromSlash(ruleDirs[target][0]))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			theirs := []byte("---\ntrigger: always_on\n---\n\n# Team rule\nOurs.\n")
			old := []byte("# Gone\n<!-- lore:item 01ARZ3NDEKTSV4RRFFQ69G5FAV -->\n")
			for name, data := range map[string][]byte{"team.md": theirs, "lore-gone.md": old} {
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := treeSum(t, s.Root)
			stale, _, err := Run(s, target, true, nil)
			if err != nil || len(stale.Changes) != 5 || treeSum(t, s.Root) != before {
				t.Fatalf("check: %v, %d changes", err, len(stale.Changes))
			}
			gone := slices.ContainsFunc(stale.Changes, func(c Change) bool { return c.Path == ruleDirs[target][0]+"/lore-gone.md" && c.Data == nil })
			if !gone || stale.Items != 4 {
				t.Errorf("report: %d items, changes %+v", stale.Items, stale.Changes)
			}
			if _, _, err := Run(s, target, false, nil); err != nil {
				t.Fatal(err)
			}
			fresh, _, err := Run(s, target, true, nil)
			if err != nil || len(fresh.Changes) != 0 {
				t.Fatalf("after export: %v %+v", err, fresh.Changes)
			}
			after := treeSum(t, s.Root)
			if _, _, err := Run(s, target, false, nil); err != nil || treeSum(t, s.Root) != after {
				t.Errorf("a second export changed a file: %v", err)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "team.md")); !bytes.Equal(got, theirs) {
				t.Errorf("team.md changed: %q", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "lore-gone.md")); !os.IsNotExist(err) {
				t.Errorf("lore-gone.md kept: %v", err)
			}
		})
	}
}

// Windsurf reads 12,000 characters of a rule file: a longer one is named
// in the report.
func TestExportWindsurfLimit(t *testing.T) {
	s := testrepo.NewStore(t)
	sp := markdown.Spec{Kind: "lesson", Title: "Long", Status: "active", Body: "## Injection\n" + strings.Repeat("x", windsurfLimit) + "\n"} // under lint's 16 KiB
	id := ulid.MustNew(1, strings.NewReader(strings.Repeat("y", 16))).String()
	if _, _, err := s.Create(sp.Kind, "", func(ref string) ([]byte, error) { return sp.Compose(id, ref, time.Unix(0, 0)) }); err != nil {
		t.Fatal(err)
	}
	items, _ := s.Load()
	for _, target := range []string{TargetWindsurf, TargetCline} {
		e, err := PlanExport(s.Root, target, items)
		if err != nil {
			t.Fatal(err)
		}
		n := notesWith(Plan{Notes: e.Notes}, "Windsurf reads the first 12000")
		if target == TargetWindsurf && (len(n) != 1 || n[0].From != ".windsurf/rules/lore-long.md") || target == TargetCline && len(n) != 0 {
			t.Errorf("%s: notes %+v", target, e.Notes)
		}
	}
}

// A real Windsurf rule folder (AmadeusITGroup/otter, BSD-3-Clause): seven
// always_on rules arrive without triggers, the glob rule with its bare
// `globs: **/*.ts` (not YAML) as paths; titles are the rules' H1s.
func TestImportWindsurfReal(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/otter", s.Root)
	p, _ := importTwice(t, s, "windsurf", 8)
	got := map[string]string{}
	for _, d := range p.Drafts {
		got[d.Key] = d.Spec.Title
		want := markdown.Triggers{}
		if d.Key == ".windsurf/rules/code-style-typescript.md" {
			want = markdown.Triggers{Tools: fileTools, Paths: []string{"**/*.ts"}}
		}
		if !reflect.DeepEqual(d.Spec.Triggers, want) || d.Spec.Status != "draft" || !strings.HasPrefix(d.Spec.Body, "## Injection\n") {
			t.Errorf("%s: %+v", d.Key, d.Spec)
		}
	}
	if got[".windsurf/rules/code-style-typescript.md"] != "Otter Framework - TypeScript/JavaScript Code Style" ||
		got[".windsurf/rules/testing.md"] != "Otter Framework - Testing Requirements" {
		t.Errorf("titles %q", got)
	}
	if len(p.Notes) != 0 {
		t.Errorf("notes %+v", p.Notes)
	}
	if p2 := plan(t, s.Root, ".windsurf/rules/testing.md"); p2.Source != "windsurf" || len(p2.Drafts) != 1 {
		t.Errorf("one file: %+v", p2)
	}
}

// A real Cline rule folder (cap-js/ord, Apache-2.0): rules without
// frontmatter, always on, arrive without triggers, titled by their H1.
func TestImportClineReal(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/cap-js-ord", s.Root)
	p, res := importTwice(t, s, "cline", 2)
	// testing.md's example `const TEST_USER_PASSWORD = 'password123'`
	// and its 4,916-byte body, over the injection budget
	if n := res.Notes; len(n) != 2 || n[0].From != ".clinerules/testing.md" || !strings.HasPrefix(n[0].Msg, "what looks like a secret is imported as [REDACTED:") ||
		!strings.HasPrefix(n[1].Msg, "lint: the body is 4916 bytes, over inject.budgetBytes (4096): only the title will be injected") {
		t.Errorf("notes %+v", n)
	}
	if got := titles(p); !reflect.DeepEqual(got, []string{"Here are code quality and tool use rules", "Testing Rules and Standards"}) {
		t.Errorf("titles %q", got)
	}
	for _, d := range p.Drafts {
		if !d.Spec.Triggers.Empty() || !strings.Contains(d.Spec.Body, "\n## Injection\n") && !strings.HasPrefix(d.Spec.Body, "## Injection\n") {
			t.Errorf("%s: %+v", d.Key, d.Spec)
		}
	}
	if p2 := plan(t, s.Root, ".clinerules"); p2.Source != "cline" || len(p2.Drafts) != 2 {
		t.Errorf("the folder as a path: %+v", p2)
	}
}

// Cline's own rules (cline/cline, Apache-2.0): the four rules arrive; its
// workflows and hooks folders, which Cline does not read as rules, add
// nothing.
func TestImportClineOwnRules(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/cline", s.Root)
	p, res := importTwice(t, s, "cline", 4)
	// storage.md's "## ⚠️ Do NOT Use ...": the emoji's U+FE0F goes
	if n := res.Notes; len(n) != 1 || n[0].From != ".clinerules/storage.md" || n[0].Msg != "1 invisible or bidi character(s) taken out (lint rejects them)" {
		t.Errorf("notes %+v", n)
	}
	want := []string{"Bun (tooling) and Node (runtime)", "Networking & Proxy Support", "SDK Adapter", "Storage Architecture"}
	if got := titles(p); !reflect.DeepEqual(got, want) {
		t.Errorf("titles %q, want %q", got, want)
	}
	for _, d := range p.Drafts {
		if strings.Contains(d.Key, "/workflows/") || strings.Contains(d.Key, "/hooks/") || !d.Spec.Triggers.Empty() {
			t.Errorf("%s: %+v", d.Key, d.Spec)
		}
	}
}

// What Windsurf and Cline can say and lore cannot is reported: rules the
// agent picks by description or by @-mention, an unknown trigger, a Cline
// rule that never applies; a trigger left out is inferred as Windsurf
// does; the legacy single files are read by sections.
func TestImportRuleFolderModes(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".windsurf/rules/a-model.md":    "---\ntrigger: model_decision\ndescription: When writing SQL\nglobs: db/**\n---\nUse bind parameters.\n",
		".windsurf/rules/b-manual.md":   "---\ntrigger: manual\n---\n# Release steps\nTag, then push.\n",
		".windsurf/rules/c-odd.md":      "---\ntrigger: sometimes\n---\n# Odd\nx\n",
		".windsurf/rules/d-inferred.md": "---\nglobs: [\"web/**/*.tsx\", \"web/**/*.ts\"]\n---\n# Web\nUse hooks.\n",
		".devin/rules/e-devin.md":       "---\ntrigger: always_on\n---\n# Devin\nSame format.\n",
		".windsurfrules":                "# Intro\n\n## Style\nTabs.\n",
		".clinerules/off.md":            "---\npaths: []\n---\n# Off\nNot now.\n",
		".clinerules/web.txt":           "---\npaths:\n  - \"packages/{web,api}/**\"\n---\nKeep handlers thin.\n",
		".clinerules/bad.md":            "---\npaths: [\n---\n# Bad\nFails open.\n",
		".clinerules/str.md":            "---\npaths: \"src/**\"\n---\n# Str\nA string.\n",
		".clinerules/skills/s/SKILL.md": "# Skill\nNot a rule.\n",
	}
	for rel, text := range files {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := plan(t, root, "windsurf")
	got := map[string]string{}
	for _, d := range w.Drafts {
		got[d.Key] = d.Spec.Title + " " + strings.Join(d.Spec.Triggers.Paths, ",")
	}
	want := map[string]string{
		".windsurf/rules/a-model.md": "When writing SQL ", ".windsurf/rules/b-manual.md": "Release steps ",
		".windsurf/rules/c-odd.md": "Odd ", ".windsurf/rules/d-inferred.md": "Web web/**/*.tsx,web/**/*.ts", ".windsurfrules#style": "Style ", ".devin/rules/e-devin.md": "Devin ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("windsurf drafts %q, want %q", got, want)
	}
	var msgs []string
	for _, n := range w.Notes {
		msgs = append(msgs, n.From+": "+n.Msg)
	}
	sort.Strings(msgs)
	wantMsgs := []string{
		".windsurf/rules/a-model.md: applied by Windsurf only when its agent judges the description relevant: lore has no such mode; imported without triggers (globs unused by trigger model_decision: db/**)",
		".windsurf/rules/b-manual.md: applied by Windsurf only when @-mentioned: lore has no such mode; imported without triggers",
		".windsurf/rules/c-odd.md: trigger \"sometimes\" is not one Windsurf documents: imported without triggers",
	}
	if !reflect.DeepEqual(msgs, wantMsgs) {
		t.Errorf("notes %q", msgs)
	}
	c := plan(t, root, "cline")
	got = map[string]string{}
	for _, d := range c.Drafts {
		got[d.Key] = d.Spec.Title + " " + strings.Join(d.Spec.Triggers.Paths, ",")
	}
	want = map[string]string{".clinerules/bad.md": "Bad ", ".clinerules/off.md": "Off ", ".clinerules/str.md": "Str src/**", ".clinerules/web.txt": "web packages/{web,api}/**"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cline drafts %q, want %q", got, want)
	}
	if n := notesWith(c, "paths: [] (Cline never applies it)"); len(n) != 1 || n[0].From != ".clinerules/off.md" {
		t.Errorf("notes %+v", c.Notes)
	}
	// bad.md's frontmatter is not YAML at all: Cline fails open there too.
	if n := notesWith(c, "paths is not a YAML list: Cline ignores it"); len(n) != 2 || n[0].From != ".clinerules/bad.md" || n[1].From != ".clinerules/str.md" {
		t.Errorf("notes %+v", c.Notes)
	}
}

// Claude Code's auto memory committed in the repository (its
// autoMemoryDirectory set to .claude/memory, as vidarc/recommendarr does)
// is the claude-memory kind: the folder and each file of it.
func TestImportClaudeMemoryInRepo(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/claude-memory/memory", filepath.Join(s.Root, ".claude", "memory"))
	p, res := importTwice(t, s, ".claude/memory", 14)
	if p.Source != "claude-memory" || res.Created[0].Key != "claude-memory:.claude/memory/MEMORY.md#references" {
		t.Errorf("source %s, first %+v", p.Source, res.Created[0])
	}
	one := plan(t, s.Root, ".claude/memory/feedback_zod_mini.md")
	if one.Source != "claude-memory" || len(one.Drafts) != 1 ||
		one.Drafts[0].Spec.Title != "Always import zod as `import * as z from \"zod/mini\"` and use its functional API" {
		t.Errorf("one file: %+v", one)
	}
	if kindOf(".claude/memory-bank/x.md") != "" {
		t.Error("a folder named like the memory is not the memory")
	}
}

// A comma inside braces is part of the glob, in a list or a string
// (Claude Code's `paths: src/**/*.{ts,tsx}`, Cursor's comma list).
func TestGlobListKeepsBraces(t *testing.T) {
	for in, want := range map[any][]string{
		"src/**/*.{ts,tsx}, lib/**": {"src/**/*.{ts,tsx}", "lib/**"},
		"a/{b,{c,d}}/*,e,":          {"a/{b,{c,d}}/*", "e"},
		"x}/*,y":                    {"x}/*", "y"},
		"**/*.go":                   {"**/*.go"},
		"":                          nil,
	} {
		if got := globList(in); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if got := globList([]any{"packages/{web,api}/**", "a,b"}); !reflect.DeepEqual(got, []string{"packages/{web,api}/**", "a", "b"}) {
		t.Errorf("list: %q", got)
	}
}

// A legacy .clinerules file where the folder goes is an error that says
// what to do, and nothing is written.
func TestExportClineLegacyFile(t *testing.T) {
	s, items := exportStore(t)
	if err := os.WriteFile(filepath.Join(s.Root, ".clinerules"), []byte("# Ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanExport(s.Root, TargetCline, items); err == nil || !strings.Contains(err.Error(), "export: .clinerules is a file (a legacy single rule file)") {
		t.Errorf("legacy file: %v", err)
	}
}
