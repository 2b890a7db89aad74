package interop

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/testrepo"
)

func plan(t *testing.T, root, arg string) Plan {
	t.Helper()
	p, err := ReadSource(root, arg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func titles(p Plan) []string {
	var out []string
	for _, d := range p.Drafts {
		out = append(out, d.Spec.Title)
	}
	return out
}

// Cursor's documented unquoted globs ("globs: **/*.go") are not YAML; the
// rule still arrives with its paths (block/ftl's rules).
func TestImportCursorRules(t *testing.T) {
	p := plan(t, "testdata/ftl", "cursor")
	if got := titles(p); !reflect.DeepEqual(got, []string{"Rules for documentation", "Rules for writing Go code"}) {
		t.Fatalf("titles %q", got)
	}
	d := p.Drafts[1]
	if !reflect.DeepEqual(d.Spec.Triggers.Paths, []string{"**/*.go"}) || !reflect.DeepEqual(d.Spec.Triggers.Tools, fileTools) {
		t.Errorf("triggers %+v", d.Spec.Triggers)
	}
	if d.Key != ".cursor/rules/go.mdc" || d.Spec.Status != "draft" || !strings.Contains(d.Spec.Body, "## Injection\nThese rules for writing Go code (*.go):\n\n- Always handle errors") {
		t.Errorf("draft %q %q body %q", d.Key, d.Spec.Status, d.Spec.Body)
	}
	if got := p.Drafts[0].Spec.Triggers.Paths; !reflect.DeepEqual(got, []string{"docs/**/*"}) {
		t.Errorf("docs paths %q", got)
	}
}

// A Claude Code rule (ddev's): paths, its H1 as title, its own H2
// sections kept one level down in the injection.
func TestImportClaudeRule(t *testing.T) {
	p := plan(t, "testdata/ddev", "claude-rules")
	if len(p.Drafts) != 1 {
		t.Fatalf("%d drafts", len(p.Drafts))
	}
	d := p.Drafts[0]
	if d.Spec.Title != "Go code in DDEV" || !reflect.DeepEqual(d.Spec.Triggers.Paths, []string{"**/*.go"}) {
		t.Errorf("%q %+v", d.Spec.Title, d.Spec.Triggers)
	}
	if !strings.HasPrefix(d.Spec.Body, "## Injection\n### Windows compatibility\n") || strings.Count(d.Spec.Body, "\n## ") != 0 {
		t.Errorf("body %q", d.Spec.Body[:80])
	}
}

// Copilot: applyTo becomes paths; copilot-instructions.md is one item per
// H2 section (github/awesome-copilot's own files).
func TestImportCopilot(t *testing.T) {
	p := plan(t, "testdata/awesome-copilot", "copilot")
	var inst *Draft
	sections := 0
	for i, d := range p.Drafts {
		if d.Key == ".github/instructions/go.instructions.md" {
			inst = &p.Drafts[i]
		} else if strings.HasPrefix(d.Key, ".github/copilot-instructions.md#") {
			sections++
		}
	}
	if inst == nil || inst.Spec.Title != "Go Development Instructions" ||
		!reflect.DeepEqual(inst.Spec.Triggers.Paths, []string{"**/*.go", "**/go.mod", "**/go.sum"}) {
		t.Fatalf("instructions draft %+v", inst)
	}
	if sections != 6 {
		t.Errorf("%d sections of copilot-instructions.md, want 6", sections)
	}
}

// CLAUDE.md, AGENTS.md, GEMINI.md: one item per H2 outside code fences;
// commands in backticks are suggested as triggers in the report.
func TestImportSections(t *testing.T) {
	for _, tc := range []struct {
		root, kind string
		n          int
		suggest    string
	}{
		{"testdata/ddev", "claude", 7, `--command '\bddev\s+start\b'`},
		{"testdata/gemini-cli", "gemini", 6, `--command '\bnpm\s+run\b'`},
		{"testdata/lessons-learned-repo", "agents", 17, ""},
	} {
		p := plan(t, tc.root, tc.kind)
		if len(p.Drafts) != tc.n {
			t.Errorf("%s: %d drafts %q, want %d", tc.root, len(p.Drafts), titles(p), tc.n)
		}
		var notes []string
		for _, n := range p.Notes {
			notes = append(notes, n.Msg)
		}
		if tc.suggest != "" && !strings.Contains(strings.Join(notes, "\n"), tc.suggest) {
			t.Errorf("%s: no suggestion %s in %q", tc.root, tc.suggest, notes)
		}
		for _, d := range p.Drafts {
			if d.Spec.Body == "" || !strings.Contains(d.Key, "#") || !d.Spec.Triggers.Empty() {
				t.Errorf("%s: %+v", tc.root, d)
			}
		}
	}
}

// adr-tools' own records and MADR's: numbers kept, statuses mapped,
// sections named as lore names them.
func TestImportADR(t *testing.T) {
	p := plan(t, "testdata/adr-tools", "adr")
	if len(p.Drafts) != 9 || p.Drafts[8].Ref != "ADR-0009" || p.Drafts[8].Spec.Title != "Help scripts" {
		t.Fatalf("%d drafts, last %+v", len(p.Drafts), p.Drafts[len(p.Drafts)-1])
	}
	for _, d := range p.Drafts {
		if d.Spec.Kind != markdown.KindDecision || d.Spec.Status != "proposed" || !strings.Contains(d.Spec.Body, "## Context\n") || !strings.Contains(d.Spec.Body, "## Decision\n") {
			t.Errorf("%s: %+v", d.Key, d.Spec)
		}
	}
	m := plan(t, "testdata/madr", "adr")
	if len(m.Drafts) != 4 || m.Drafts[1].Spec.Title != "Write Own MADR Tooling" || !strings.HasPrefix(m.Drafts[1].Spec.Body, "## Context\nDevelopers seem") {
		t.Fatalf("madr %+v", m.Drafts)
	}
	onHold := false
	for _, n := range m.Notes {
		onHold = onHold || strings.Contains(n.Msg, `status "on hold" has no lore equivalent`)
	}
	if !onHold {
		t.Errorf("no note for the on-hold record: %+v", m.Notes)
	}
}

// treeSum hashes every file under dir (paths and bytes).
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(p, "/cache/") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	for _, f := range files {
		b, _ := os.ReadFile(f)
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// adr-tools' `adr new -s 2` output: the superseding record links the one
// it replaces; both arrive with their numbers; a second import adds
// nothing and changes no byte.
func TestApplyADRSupersedesAndIdempotence(t *testing.T) {
	s := testrepo.NewStore(t)
	p := plan(t, s.Root, mustAbs(t, "testdata/adr-tools-supersede/doc/adr"))
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	dry, err := Apply(s, p, true, now)
	if err != nil || len(dry.Created) != 3 {
		t.Fatalf("dry run: %v %+v", err, dry)
	}
	if files, _ := s.ItemFiles(); len(files) != 0 {
		t.Fatalf("dry run wrote %q", files)
	}
	res, err := Apply(s, p, false, now)
	if err != nil || len(res.Created) != 3 {
		t.Fatalf("%v %+v", err, res)
	}
	items, errs := s.Load()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	byRef := map[string]*markdown.Item{}
	for _, it := range items {
		byRef[it.Ref] = it
	}
	old, repl := byRef["ADR-0002"], byRef["ADR-0003"]
	if old == nil || repl == nil || old.Status != "superseded" || !reflect.DeepEqual(repl.Supersedes, []string{old.ID}) {
		t.Fatalf("supersedes not carried: %+v", byRef)
	}
	if filepath.Base(repl.Path) != "ADR-0003-implement-in-go.md" {
		t.Errorf("file %s", repl.Path)
	}
	before := treeSum(t, s.Dir)
	again, err := Apply(s, p, false, now.Add(time.Hour))
	if err != nil || len(again.Created) != 0 || again.Present != 3 {
		t.Fatalf("second import: %v %+v", err, again)
	}
	if treeSum(t, s.Dir) != before {
		t.Error("a second import changed the store")
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The fixture store of lessons-learned's own tests: the trailing negative
// lookahead becomes commands + unless.
func TestImportLessonsLearnedStore(t *testing.T) {
	data, err := os.ReadFile("testdata/lessons-learned/lessons-store.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadLessonsLearned("lessons-store.json", data)
	if err != nil || len(p.Drafts) != 1 {
		t.Fatalf("%v %+v", err, p)
	}
	tr := p.Drafts[0].Spec.Triggers
	want := markdown.Triggers{Tools: []string{"Bash"}, Commands: []string{`\bgit\s+stash\b`}, Unless: []string{"-u", "--include-untracked", "--all"}}
	if !reflect.DeepEqual(tr, want) {
		t.Errorf("triggers %+v, want %+v", tr, want)
	}
}

func TestJSPathGlob(t *testing.T) {
	for _, tc := range []struct {
		src, flags    string
		globs, unless []string
	}{
		{`.*/[^/]*\.ts`, "", []string{"**/*.ts*", "**/*.ts*/**"}, nil},
		{`.*/webhooks/.*`, "", []string{"**/webhooks/**"}, nil},
		{`\.env$`, "", []string{"**/*.env"}, nil},
		{`.*/Dockerfile`, "i", []string{"**/[dD][oO][cC][kK][eE][rR][fF][iI][lL][eE]*", "**/[dD][oO][cC][kK][eE][rR][fF][iI][lL][eE]*/**"}, nil},
		{`^(?!.*/\.worktrees/).*docs/superpowers/(plans|specs)/.*\.md$`, "", []string{"**/*docs/superpowers/{plans,specs}/**/*.md"}, []string{`(?:^|/)\.worktrees/`}},
	} {
		g, u, err := jsPathGlob(tc.src, tc.flags)
		if err != nil || !reflect.DeepEqual(g, tc.globs) || !reflect.DeepEqual(u, tc.unless) {
			t.Errorf("%s: %q %q %v", tc.src, g, u, err)
		}
	}
	if _, _, err := jsPathGlob(`^/Users/joe/.*`, ""); err == nil {
		t.Error("an absolute anchor was carried")
	}
}

// Devflow's knowledge files, rendered by Devflow's own formatter
// (testdata/devflow/gen.cjs): numbers kept, sections named as lore names
// them, a pitfall's Area a path trigger.
func TestImportDevflow(t *testing.T) {
	p := plan(t, "testdata/devflow", "devflow")
	if len(p.Drafts) != 3 {
		t.Fatalf("%d drafts %q", len(p.Drafts), titles(p))
	}
	adr, pf := p.Drafts[1], p.Drafts[2]
	if adr.Ref != "ADR-0007" || adr.Spec.Kind != markdown.KindDecision || adr.Spec.Status != "proposed" ||
		adr.Spec.Body != "## Context\nadding debug tracing to sidecar-capture\n\n## Decision\nimplement DEVFLOW_HOOK_DEBUG=1\n\n## Consequences\ncross-hook interaction visibility\n\n" {
		t.Errorf("decision %+v", adr)
	}
	if pf.Ref != "PF-0007" || pf.Spec.Kind != markdown.KindPitfall || pf.Spec.Status != "draft" ||
		!reflect.DeepEqual(pf.Spec.Triggers.Paths, []string{"src/assets/scripts/hooks/**"}) ||
		!strings.Contains(pf.Spec.Body, "## Avoid\nedit source + rebuild + reinstall") {
		t.Errorf("pitfall %+v", pf)
	}
}

// Claude Code's auto memory of this repository, found where Claude Code
// keeps it (~/.claude/projects/<root, dashed>/memory): the MEMORY.md
// index's sections and each topic file (frontmatter name, description,
// metadata.type, as Claude Code writes them). No public repository with
// a licence publishes its auto memory, so the files are written here.
func TestImportClaudeMemory(t *testing.T) {
	s := testrepo.NewStore(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := filepath.Join(home, ".claude", "projects", strings.NewReplacer("/", "-", ".", "-").Replace(s.Root), "memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"MEMORY.md":        "# Memory\n\n- [Squash merges](squash-merges.md) — bisect granularity\n\n## Build\n\nRun `make test` before every commit.\n",
		"squash-merges.md": "---\nname: squash-merge-loses-intermediate-history\ndescription: \"squash merges collapse intermediate commits so bisect loses per-step granularity\"\nmetadata:\n  type: feedback\n---\n\nPrefer merge commits or rebase-and-merge on branches where later bisection across\nindividual steps matters; squash is fine for small single-purpose PRs.\n",
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := plan(t, s.Root, "claude-memory")
	got := map[string]string{}
	for _, d := range p.Drafts {
		got[d.Key] = d.Spec.Title
	}
	want := map[string]string{"memory/MEMORY.md#build": "Build", "memory/squash-merges.md": "squash merges collapse intermediate commits so bisect loses per-step granularity"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("drafts %q, want %q", got, want)
	}
	if res, err := Apply(s, p, false, time.Now()); err != nil || len(res.Created) != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	data, _ := os.ReadFile(filepath.Join(s.Dir, "lessons", "build.md"))
	if strings.Contains(string(data), home) || !strings.Contains(string(data), "imported: claude-memory:memory/MEMORY.md#build") {
		t.Errorf("item names a home folder or lacks its key:\n%s", data)
	}
}

// Rule-file globs read as gitignore reads them map to globs lore's
// matcher, which tries the whole repo-relative path, reads the same way.
func TestAnyDepth(t *testing.T) {
	got := anyDepth([]string{"*.spec.tsx", "Makefile", "/README.md", "build/", "/dist/", "src/**/*.ts", "**/*.go", "docs/*.md", "*.{ts,tsx}", "**"})
	want := []string{"**/*.spec.tsx", "**/Makefile", "README.md", "**/build/**", "dist/**", "src/**/*.ts", "**/*.go", "docs/*.md", "**/*.{ts,tsx}", "**"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("anyDepth %q, want %q", got, want)
	}
}

// A Cursor rule with alwaysApply: true is included everywhere whatever
// its globs (the shape public rules often have: globs and alwaysApply
// both set); it arrives without triggers, for session start, and a note
// names the globs left unused.
func TestImportCursorAlwaysWithGlobs(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".cursor", "rules")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rule := "---\ndescription: Token & auth safety in browser code\nglobs: src/**/*.ts,src/**/*.tsx\nalwaysApply: true\n---\n# Tokens in httpOnly cookies\nNever keep tokens in localStorage.\n"
	if err := os.WriteFile(filepath.Join(dir, "auth.mdc"), []byte(rule), 0o644); err != nil {
		t.Fatal(err)
	}
	p := plan(t, root, "cursor")
	if len(p.Drafts) != 1 || !p.Drafts[0].Spec.Triggers.Empty() {
		t.Fatalf("drafts %+v", p.Drafts)
	}
	if n := notesWith(p, "alwaysApply: true, so Cursor applies it everywhere: imported without triggers (globs unused: src/**/*.ts, src/**/*.tsx)"); len(n) != 1 {
		t.Errorf("notes %+v", p.Notes)
	}
}
