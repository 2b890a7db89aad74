package interop

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/oklog/ulid/v2"
	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

// exportStore is a store with what export must handle: a path-triggered
// lesson, a critical deny lesson on a command, an always-on pitfall, an
// accepted decision, and a draft (not exported).
func exportStore(t *testing.T) (*gitstore.Store, []*markdown.Item) {
	t.Helper()
	s := testrepo.NewStore(t)
	specs := []markdown.Spec{
		{Kind: "lesson", Title: "Wrap errors with %w", Status: "active", Priority: "high",
			Triggers: markdown.Triggers{Tools: fileTools, Paths: []string{"**/*.go", "cmd/**/main.go"}},
			Body:     "## Mistake\nErrors lost their cause.\n\n## Fix\nUse `fmt.Errorf(\"x: %w\", err)`.\n"},
		{Kind: "lesson", Title: "Never force-push main", Status: "active", Priority: "critical", Enforce: "deny",
			Triggers: markdown.Triggers{Tools: []string{"Bash"}, Commands: []string{`\bgit\s+push\b.*--force`}, Unless: []string{"--force-with-lease"}},
			Body:     "## Mistake\nHistory was lost.\n\n## Fix\nUse `--force-with-lease` on your own branch.\n"},
		{Kind: "pitfall", Title: "Disk fills with logs", Status: "active",
			Body: "## Issue\nLogs grow.\n\n## Avoid\nRotate them.\n"},
		{Kind: "decision", Title: "Use go-git", Status: "accepted",
			Body: "## Context\nNo git CLI at run time.\n\n## Decision\ngo-git.\n\n## Consequences\nSlower blame.\n"},
		{Kind: "lesson", Title: "A draft", Status: "draft", Body: "## Mistake\nx\n"},
	}
	for i, sp := range specs {
		id := ulid.MustNew(uint64(i+1), strings.NewReader(strings.Repeat("y", 16))).String()
		if _, _, err := s.Create(sp.Kind, "", func(ref string) ([]byte, error) { return sp.Compose(id, ref, time.Unix(0, 0)) }); err != nil {
			t.Fatal(err)
		}
	}
	items, errs := s.Load()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return s, items
}

// importKind is the import source that reads a target's files.
var importKind = map[string]string{
	TargetAgents: "agents", TargetClaudeMD: "claude", TargetGemini: "gemini", TargetCopilot: "copilot",
	TargetClaudeRules: "claude-rules", TargetCursor: "cursor", TargetInstructions: "copilot",
	TargetWindsurf: "windsurf", TargetCline: "cline",
}

// Every target: export writes the active items; importing the files into
// a fresh store gives back the same titles, sections and paths; into the
// store they came from, nothing; exporting again changes no byte; a
// changed item makes the export out of date.
func TestExportRoundTrip(t *testing.T) {
	for _, target := range Targets {
		t.Run(target, func(t *testing.T) {
			s, items := exportStore(t)
			e, err := PlanExport(s.Root, target, items)
			if err != nil {
				t.Fatal(err)
			}
			if e.Items != 4 || len(e.Changes) == 0 {
				t.Fatalf("%d items, %d changes", e.Items, len(e.Changes))
			}
			if err := Write(s, e.Changes); err != nil {
				t.Fatal(err)
			}
			notes := ""
			for _, n := range e.Notes {
				notes += n.Title + ": " + n.Msg + "\n"
			}
			if !strings.Contains(notes, "Never force-push main: enforce: deny becomes a plain \"never do this\" rule") ||
				!strings.Contains(notes, "Never force-push main: not expressible in "+target+": command triggers, unless") {
				t.Errorf("notes:\n%s", notes)
			}

			p := plan(t, s.Root, importKind[target])
			byTitle := map[string]Draft{}
			for _, d := range p.Drafts {
				byTitle[d.Spec.Title] = d
			}
			for _, it := range items {
				d, ok := byTitle[it.Title]
				if !it.Injectable(false) {
					if ok {
						t.Errorf("%s exported", it.Title)
					}
					continue
				}
				if !ok {
					t.Fatalf("%s: not imported back from %q", it.Title, titles(p))
				}
				back, err := markdown.Parse("x.md", mustCompose(t, d.Spec))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(sections(back), sections(it)) {
					t.Errorf("%s: sections %q, want %q", it.Title, sections(back), sections(it))
				}
				if !reflect.DeepEqual(back.Triggers.Paths, it.Triggers.Paths) {
					t.Errorf("%s: paths %q, want %q", it.Title, back.Triggers.Paths, it.Triggers.Paths)
				}
			}
			if res, err := Apply(s, p, false, time.Now()); err != nil || len(res.Created) != 0 || res.Present != 4 {
				t.Errorf("import into the exporting store: %v %+v", err, res)
			}

			before := treeSum(t, s.Root)
			again, err := PlanExport(s.Root, target, items)
			if err != nil || len(again.Changes) != 0 {
				t.Fatalf("second export: %v %+v", err, again.Changes)
			}
			if treeSum(t, s.Root) != before {
				t.Error("second export changed a file")
			}
			items[0].Title = "Wrap every error with %w"
			stale, err := PlanExport(s.Root, target, items)
			if err != nil || len(stale.Changes) == 0 {
				t.Errorf("--check misses a changed item: %v", err)
			}
		})
	}
}

func mustCompose(t *testing.T, sp markdown.Spec) []byte {
	b, err := sp.Compose("01ARZ3NDEKTSV4RRFFQ69G5FAV", "", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sections(it *markdown.Item) [][2]string {
	var out [][2]string
	for _, s := range it.Sections {
		out = append(out, [2]string{s.Title, s.Content})
	}
	return out
}

// The exported rule files parse as each tool documents them: YAML
// frontmatter, Claude Code's paths a list of globs, Cursor's globs a
// comma-separated string with description and a boolean alwaysApply,
// Copilot's applyTo a comma-separated string; every glob valid.
func TestExportedFrontmatterParses(t *testing.T) {
	for target, key := range map[string]string{TargetClaudeRules: "paths", TargetCursor: "globs", TargetInstructions: "applyTo"} {
		s, items := exportStore(t)
		e, err := PlanExport(s.Root, target, items)
		if err != nil {
			t.Fatal(err)
		}
		withPaths := 0
		for _, c := range e.Changes {
			text := string(c.Data)
			if !strings.HasPrefix(text, "---\n") {
				if target != TargetClaudeRules {
					t.Errorf("%s: no frontmatter", c.Path)
				}
				continue
			}
			var fm map[string]any
			if err := yaml.Unmarshal([]byte(strings.SplitN(text, "---\n", 3)[1]), &fm); err != nil {
				t.Fatalf("%s: %v", c.Path, err)
			}
			var globs []string
			switch v := fm[key].(type) {
			case []any:
				for _, g := range v {
					globs = append(globs, g.(string))
				}
			case string:
				globs = strings.Split(v, ",")
			}
			if target == TargetCursor {
				if _, ok := fm["alwaysApply"].(bool); !ok || fm["description"] == "" {
					t.Errorf("%s: %v", c.Path, fm)
				}
			}
			for _, g := range globs {
				if !doublestar.ValidatePattern(g) {
					t.Errorf("%s: invalid glob %q", c.Path, g)
				}
			}
			if len(globs) == 2 && globs[0] == "**/*.go" {
				withPaths++
			}
		}
		if withPaths != 1 {
			t.Errorf("%s: %d files carry the path-triggered item's globs", target, withPaths)
		}
	}
}

// The managed block replaces only itself: every byte before and after it
// stays; a file with half a block is an error, not a guess.
func TestExportManagedBlockKeepsTheRest(t *testing.T) {
	s, items := exportStore(t)
	user := "# Agents\r\n\r\nOur own words, CRLF and all.\r\n"
	after := "\n## Kept after\nStill ours.\n"
	if err := os.WriteFile(filepath.Join(s.Root, "AGENTS.md"), []byte(user+"\n"+markerBegin+"\nold\n"+markerEnd+"\n"+after), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := PlanExport(s.Root, TargetAgents, items)
	if err != nil || len(e.Changes) != 1 {
		t.Fatal(err, e.Changes)
	}
	got := string(e.Changes[0].Data)
	if !strings.HasPrefix(got, user+"\n"+markerBegin+"\n") || !strings.HasSuffix(got, markerEnd+"\n"+after) || strings.Contains(got, "\nold\n") {
		t.Errorf("block not replaced in place:\n%s", got)
	}
	if err := os.WriteFile(filepath.Join(s.Root, "AGENTS.md"), []byte(user+markerBegin+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanExport(s.Root, TargetAgents, items); err == nil || !strings.Contains(err.Error(), "without the other") {
		t.Errorf("half a block: %v", err)
	}
	evil, err := markdown.Parse(items[2].Path, append(items[2].Raw(), []byte("\n<!-- lore:end -->\n")...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlanExport(t.TempDir(), TargetAgents, []*markdown.Item{evil}); err == nil || !strings.Contains(err.Error(), evil.Path) {
		t.Errorf("an item that would end the block early: %v", err)
	}
}

// Export never writes through a symlink, and never over a file of the
// same name that lore did not write.
func TestExportRefusesSymlinksAndForeignFiles(t *testing.T) {
	s, items := exportStore(t)
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(s.Root, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(s.Root, ".cursor", "rules")); err != nil {
		t.Fatal(err)
	}
	e, err := PlanExport(s.Root, TargetCursor, items)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(s, e.Changes); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("wrote through a symlink: %v", err)
	}
	if left, _ := os.ReadDir(outside); len(left) != 0 {
		t.Errorf("files outside the work tree: %v", left)
	}
	dir := filepath.Join(s.Root, ".claude", "rules")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lore-use-go-git.md"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanExport(s.Root, TargetClaudeRules, items); err == nil || !strings.Contains(err.Error(), "lore did not write it") {
		t.Errorf("foreign file: %v", err)
	}
}

// 18 items of the lessons-learned manifest (its five /edits items among
// them) match on the text an edit adds (triggers.content), which no rule
// file can say: exported, each is named in a note, as a deny is.
func TestExportSaysContentIsLost(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/lessons-learned", s.Root)
	if _, _, err := Import(s, s.Root, "lesson-manifest.json", false, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	items, _ := s.Load()
	var edits []*markdown.Item
	for _, it := range items {
		if len(it.Triggers.Content) > 0 {
			it.Status = "active"
			edits = append(edits, it)
		}
	}
	if len(edits) != 18 {
		t.Fatalf("%d items with content triggers, want 18", len(edits))
	}
	edits[0].Enforce = "once" // held before the first call by lore's hook only
	for _, target := range []string{TargetCursor, TargetAgents} {
		e, err := PlanExport(s.Root, target, edits)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, note := range e.Notes {
			if strings.Contains(note.Msg, "content triggers (the rule applies whatever an edit adds)") {
				n++
			}
		}
		if n != len(edits) {
			t.Errorf("%s: %d notes on content, want %d: %+v", target, n, len(edits), e.Notes)
		}
		if len(notesWith(Plan{Notes: e.Notes}, "enforce: once becomes plain guidance")) != 1 {
			t.Errorf("%s: no note on enforce: once: %+v", target, e.Notes)
		}
	}
}
