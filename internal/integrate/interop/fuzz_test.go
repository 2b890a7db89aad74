package interop

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// FuzzReaders feeds any bytes to every file reader of lore import: none
// may panic or loop, and every draft it plans must be a valid item, since
// one invalid draft would stop the whole import.
func FuzzReaders(f *testing.F) {
	for _, seed := range []string{
		"ftl/.cursor/rules/go.mdc", "ddev/.claude/rules/go.md", "ddev/CLAUDE.md",
		"awesome-copilot/.github/instructions/go.instructions.md", "adr-tools/doc/adr/0009-help-scripts.md",
		"madr/docs/decisions/0003-provide-own-madr-tools.md", "devflow/.memory/knowledge/pitfalls.md",
		"lessons-learned/lessons-store.json", "devflow-repo/.devflow/decisions/decisions.md", "claude-memory/memory/MEMORY.md",
		"otter/.windsurf/rules/code-style-typescript.md", "cap-js-ord/.clinerules/testing.md",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", seed))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("---\nglobs: [\n---\n## \n##\t\n## ADR-0: \n```\n## in a fence\n"))
	f.Add([]byte("---\r\npaths: **/*.go, \"\"\r\n---\r\n# \r\n"))
	f.Add([]byte(`{"id":"o","type":"pitfall","pattern":"\u0000","details":"area: ; issue:"}` + "\n{\"id\":\"p\",\"type\":\"workflow\",\"pattern\":\" \"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Plan
		p.ReadCursorRule(".cursor/rules/x.mdc", data)
		p.ReadClaudeRule(".claude/rules/x.md", data)
		p.ReadWindsurfRule(".windsurf/rules/x.md", data)
		p.ReadClineRule(".clinerules/x.txt", data)
		p.ReadCopilotInstructions(".github/instructions/x.instructions.md", data)
		p.ReadSections("AGENTS.md", data)
		p.ReadADR("doc/adr/0001-x.md", data)
		p.ReadDevflow(".memory/knowledge/decisions.md", data)
		p.ReadDevflowLog(".memory/learning-log.jsonl", data)
		p.ReadClaudeMemory("memory/x.md", data)
		p.ReadClaudeMemory("memory/MEMORY.md", data)
		if ll, err := ReadLessonsLearned("x.json", data); err == nil {
			p.Drafts = append(p.Drafts, ll.Drafts...)
		}
		for _, d := range p.Drafts {
			raw, err := d.Spec.Compose("01ARZ3NDEKTSV4RRFFQ69G5FAV", markdown.FormatRef(d.Spec.Kind, 1), time.Unix(0, 0))
			if err != nil {
				t.Fatalf("%s: compose: %v", d.Key, err)
			}
			it, err := markdown.Parse("x.md", raw)
			if err != nil {
				t.Fatalf("%s: %v\n%s", d.Key, err, raw)
			}
			if errs := markdown.Validate(it); len(errs) > 0 {
				t.Fatalf("%s: %v\n%s", d.Key, errs[0], raw)
			}
		}
	})
}

// FuzzJSRegex: whatever a lessons-learned regex holds, what it converts
// to compiles (RE2) or is a valid glob; anything else is an error.
func FuzzJSRegex(f *testing.F) {
	for _, s := range []string{`.*/[^/]*\.ts`, `\bgit\s+stash\b(?!.*(-u|--all))`, `^(?!.*/\.worktrees/).*docs/(plans|specs)/.*\.md$`, `(a|(b`, `.*/[x]`, `\`} {
		f.Add(s, "i")
	}
	f.Fuzz(func(t *testing.T, source, flags string) {
		if pat, unless, err := jsCommand(source, flags); err == nil {
			for _, p := range append([]string{pat}, unless...) {
				if markdown.CheckRegex(p) != nil {
					t.Fatalf("%q -> %q does not compile", source, p)
				}
			}
		}
		if globs, unless, err := jsPathGlob(source, flags); err == nil {
			for _, g := range globs {
				if !doublestar.ValidatePattern(g) {
					t.Fatalf("%q -> invalid glob %q", source, g)
				}
			}
			for _, u := range unless {
				if markdown.CheckRegex(u) != nil {
					t.Fatalf("%q -> unless %q does not compile", source, u)
				}
			}
		}
	})
}
