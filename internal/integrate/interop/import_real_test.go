package interop

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

// copyTree copies the files under src to dst, keeping their paths.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// notesWith are the notes whose message contains s.
func notesWith(p Plan, s string) []Note {
	var out []Note
	for _, n := range p.Notes {
		if strings.Contains(n.Msg, s) {
			out = append(out, n)
		}
	}
	return out
}

// importTwice imports arg into s: a dry run that writes nothing, the
// import, and a second import that adds nothing and changes no byte.
func importTwice(t *testing.T, s *gitstore.Store, arg string, want int) (Plan, Result) {
	t.Helper()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	before := treeSum(t, s.Dir)
	p, dry, err := Import(s, s.Root, arg, true, now)
	if err != nil || len(dry.Created) != want {
		t.Fatalf("dry run: %v, %d created, want %d", err, len(dry.Created), want)
	}
	if treeSum(t, s.Dir) != before {
		t.Fatal("a dry run changed the store")
	}
	_, res, err := Import(s, s.Root, arg, false, now)
	if err != nil || len(res.Created) != want {
		t.Fatalf("import: %v, %d created, want %d", err, len(res.Created), want)
	}
	for i := range res.Created {
		if res.Created[i].Path != dry.Created[i].Path {
			t.Errorf("dry run said %s, import wrote %s", dry.Created[i].Path, res.Created[i].Path)
		}
	}
	if _, errs := s.Load(); len(errs) > 0 {
		t.Fatalf("imported items do not load: %v", errs)
	}
	lintClean(t, s)
	deliveries(t, s, res)
	after := treeSum(t, s.Dir)
	_, again, err := Import(s, s.Root, arg, false, now.Add(time.Hour))
	if err != nil || len(again.Created) != 0 || again.Present != want {
		t.Fatalf("second import: %v %+v", err, again)
	}
	if treeSum(t, s.Dir) != after {
		t.Error("a second import changed the store")
	}
	return p, res
}

// lintClean fails the test on any lint error in the store's items: an
// import must not write what lore's own lint (and so its build) rejects.
func lintClean(t *testing.T, s *gitstore.Store) {
	t.Helper()
	var st lint.Store
	for _, kind := range markdown.Kinds {
		dir := filepath.Join(s.Dir, markdown.Folder(kind))
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			st.Items = append(st.Items, lint.File{Path: ".lore/" + markdown.Folder(kind) + "/" + e.Name(), Data: data})
		}
	}
	for _, f := range lint.Check(st) {
		if f.Severity == lint.Error {
			t.Errorf("lint: %s", f)
		}
	}
}

// deliveries checks the delivery the import reported for each created
// item against the item: session-start ones have no triggers, before-call
// ones can reach the threshold at their priority once promoted, and a
// never has a note saying why.
func deliveries(t *testing.T, s *gitstore.Store, res Result) {
	t.Helper()
	items, _ := s.Load()
	byPath := map[string]*markdown.Item{}
	for _, it := range items {
		byPath[it.Path] = it
	}
	for _, c := range res.Created {
		it := byPath[c.Path]
		tr := it.Triggers
		mt := manifest.Triggers{Tools: tr.Tools, Commands: tr.Commands, Paths: tr.Paths, Content: tr.Content, Keywords: tr.Keywords, Topics: tr.Topics}
		switch why := match.Never(mt, int(it.Priority), 0.7); c.Delivery {
		case compile.SessionStart:
			if len(tr.Tools)+len(tr.Commands)+len(tr.Paths)+len(tr.Content)+len(tr.Keywords)+len(tr.Topics) > 0 {
				t.Errorf("%s: session-start with triggers %+v", c.Path, tr)
			}
		case compile.BeforeCall:
			if why != "" {
				t.Errorf("%s: before-call, but %s", c.Path, why)
			}
		case compile.Never:
			if why == "" || len(notesWith(Plan{Notes: res.Notes}, why)) == 0 {
				t.Errorf("%s: never, and no note says why", c.Path)
			}
		default:
			t.Errorf("%s: delivery %q", c.Path, c.Delivery)
		}
	}
}

// Devflow's own knowledge (dean0x/devflow, .devflow/decisions/ as it
// committed it): every ADR-/PF- entry arrives with its number, an
// amendment kept, Active and Accepted arrive for review; the ledger beside
// them adds nothing twice and says which entries Devflow retired.
func TestImportDevflowReal(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/devflow-repo/.devflow", filepath.Join(s.Root, ".devflow"))
	p, res := importTwice(t, s, "devflow", 29)
	kinds := map[string]int{}
	for _, d := range p.Drafts {
		kinds[d.Spec.Kind+" "+d.Spec.Status]++
	}
	if want := map[string]int{"decision proposed": 19, "pitfall draft": 10}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
	if n := len(notesWith(p, "accepted in its folder: imported proposed, for review")); n != 19 {
		t.Errorf("%d notes on accepted decisions, want 19", n)
	}
	var retired []string
	for _, n := range notesWith(p, "was retired in Devflow: not imported") {
		retired = append(retired, strings.Fields(n.Msg)[0])
	}
	if !reflect.DeepEqual(retired, []string{"ADR-002", "PF-003", "PF-005"}) {
		t.Errorf("retired %q", retired)
	}
	if n := notesWith(p, "29 observations are entries of decisions.md or pitfalls.md (ADR-001 … PF-013)"); len(n) != 1 {
		t.Errorf("no note on the ledger's promoted observations: %+v", p.Notes)
	}

	byRef := map[string]*markdown.Item{}
	items, _ := s.Load()
	for _, it := range items {
		byRef[it.Ref] = it
	}
	if len(byRef) != 29 || byRef["ADR-0002"] != nil || byRef["ADR-0020"] == nil || byRef["PF-0013"] == nil {
		t.Fatalf("refs %v", reflect.ValueOf(byRef).MapKeys())
	}
	adr := byRef["ADR-0016"]
	if adr == nil || !strings.HasPrefix(adr.Section("Amendments"), "**Amendment (2026-06-07, PR #239)**: Memory is no longer a Dream task.") ||
		adr.Section("Context") != "the single Dream agent ran all task procedures in one context window" {
		t.Errorf("ADR-0016 %+v", adr)
	}
	pf := byRef["PF-0006"]
	if pf == nil || !reflect.DeepEqual(pf.Triggers.Paths, []string{"scripts/hooks/sidecar-capture"}) || !reflect.DeepEqual(pf.Triggers.Tools, fileTools) ||
		pf.Section("Area") != "`sidecar-capture` Stop hook, Claude Code hook API compatibility, `scripts/hooks/sidecar-capture`" ||
		!strings.HasPrefix(pf.Section("Issue"), "Claude Code renamed") {
		t.Errorf("PF-0006 %+v", pf)
	}
	if pf := byRef["PF-0008"]; pf == nil || !pf.Triggers.Empty() || pf.Section("Avoid") != "anchor critical directives to hook events where no user task competes (SessionStart is the correct hook)" {
		t.Errorf("PF-0008 %+v", pf)
	}
	if got := res.Created[0].Path; got != ".lore/decisions/ADR-0001-no-migration-code-for-devflow-refactors-clean-break.md" {
		t.Errorf("first item %s", got)
	}
	// The report's figures (cmd/lore prints them: TestPrintImport).
	adr2 := Note{From: ".devflow/decisions/decisions-ledger.jsonl:27", Title: "Migrations must leave a clean house — delete all legacy artifacts, not just move new-path files",
		Msg: "ADR-002 was retired in Devflow: not imported"}
	if !slices.Contains(append(p.Notes, res.Notes...), adr2) || p.Source != "devflow" || len(res.Created) != 29 || res.Present != 0 {
		t.Errorf("report: %s, %d created, %d present, notes %+v %+v", p.Source, len(res.Created), res.Present, p.Notes, res.Notes)
	}
}

// Devflow's observation log (the learning-log.jsonl schema of its
// src/core/observations.ts; the rows follow its tests' makeObsRow, as no
// public repository commits a log): what Devflow still watches arrives,
// rendered as Devflow's formatter would; what it promoted, deprecated or
// cannot read does not.
func TestImportDevflowLearningLog(t *testing.T) {
	s := testrepo.NewStore(t)
	log := strings.Join([]string{
		`{"id":"obs_obs001","type":"decision","pattern":"Use Result types everywhere","confidence":0.9,"observations":1,"first_seen":"2026-01-01T00:00:00Z","last_seen":"2026-01-01T00:00:00Z","status":"observing","evidence":[],"details":"context: TypeScript project; decision: return Result<T,E>; rationale: functional error handling","quality_ok":true}`,
		`{"id":"obs_pf007","type":"pitfall","pattern":"Editing installed hook scripts directly","confidence":0.8,"observations":2,"first_seen":"2026-01-01T00:00:00Z","last_seen":"2026-01-02T00:00:00Z","status":"ready","evidence":["edited ~/.devflow/scripts"],"details":"area: src/assets/scripts/hooks/; issue: edits to installed copies; impact: silently overwritten; resolution: edit source + rebuild + reinstall"}`,
		`{"id":"obs_abc123","type":"workflow","pattern":"PR merge flow","confidence":0.66,"observations":2,"first_seen":"2026-03-20T00:00:00Z","last_seen":"2026-03-22T00:00:00Z","status":"observing","evidence":["merge PR"],"details":"steps"}`,
		`{"id":"obs_done01","type":"decision","pattern":"Promoted already","status":"created","artifact_path":"/home/u/p/.memory/knowledge/decisions.md#ADR-003","details":"context: x"}`,
		`{"id":"obs_old","type":"procedural","pattern":"Debug hooks","status":"deprecated","details":"steps"}`,
		`invalid json`,
		`{"id":"obs_2","type":"procedural"}`,
	}, "\n") + "\n"
	dir := filepath.Join(s.Root, ".memory")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "learning-log.jsonl"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := importTwice(t, s, ".memory/learning-log.jsonl", 3)
	got := map[string]string{}
	for _, d := range p.Drafts {
		got[d.Key] = d.Spec.Kind + " " + d.Spec.Status + " " + d.Spec.Title
	}
	want := map[string]string{
		".memory/learning-log.jsonl#obs_obs001": "decision proposed Use Result types everywhere",
		".memory/learning-log.jsonl#obs_pf007":  "pitfall draft Editing installed hook scripts directly",
		".memory/learning-log.jsonl#obs_abc123": "lesson draft PR merge flow",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("drafts %q, want %q", got, want)
	}
	if b := p.Drafts[0].Spec.Body; b != "## Context\nTypeScript project\n\n## Decision\nreturn Result<T,E>\n\n## Consequences\nfunctional error handling\n\n" {
		t.Errorf("decision body %q", b)
	}
	if tr := p.Drafts[1].Spec.Triggers; !reflect.DeepEqual(tr.Paths, []string{"src/assets/scripts/hooks/**"}) {
		t.Errorf("pitfall triggers %+v", tr)
	}
	for _, want := range []string{"1 observations are entries of decisions.md or pitfalls.md (ADR-003 … ADR-003)", "deprecated in Devflow: not imported",
		"2 line(s) are not Devflow observations"} {
		if len(notesWith(p, want)) != 1 {
			t.Errorf("no note %q in %+v", want, p.Notes)
		}
	}
	if n := notesWith(p, "line(s) are not Devflow observations"); len(n) == 1 && n[0].From != ".memory/learning-log.jsonl:6" {
		t.Errorf("bad lines noted at %s", n[0].From)
	}
}

// Claude Code's auto memory of vidarc/recommendarr (committed as
// .claude/memory/), found where Claude Code keeps it: every topic file is
// one draft titled by its description; MEMORY.md's index lines add
// nothing, its one section with more than links arrives.
func TestImportClaudeMemoryReal(t *testing.T) {
	s := testrepo.NewStore(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	dir := filepath.Join(home, ".claude", "projects", strings.NewReplacer("/", "-", ".", "-").Replace(s.Root), "memory")
	copyTree(t, "testdata/claude-memory/memory", dir)
	p, res := importTwice(t, s, "claude-memory", 14)
	titles := map[string]string{}
	for _, d := range p.Drafts {
		titles[d.Key] = d.Spec.Title
		if d.Spec.Kind != markdown.KindLesson || d.Spec.Status != "draft" || !d.Spec.Triggers.Empty() || !strings.HasPrefix(d.Spec.Body, "## Injection\n") {
			t.Errorf("%s: %+v", d.Key, d.Spec)
		}
	}
	for key, title := range map[string]string{
		"memory/MEMORY.md#references": "References",
		"memory/feedback_zod_mini.md": "Always import zod as `import * as z from \"zod/mini\"` and use its functional API",
		"memory/project_status.md":    "Current focus and what's next — not a feature ledger",
		// unquoted, so YAML reads " #44 review)" as a comment
		"memory/project_metadata_route_followups.md": "Two remaining cleanups on src/server/routes/metadata.ts (PR #44 review)",
	} {
		if titles[key] != title {
			t.Errorf("%s: title %q, want %q", key, titles[key], title)
		}
	}
	if len(titles) != 14 {
		t.Errorf("%d drafts: %q", len(titles), titles)
	}
	for _, d := range p.Drafts {
		if d.Key == "memory/MEMORY.md#references" && (strings.Contains(d.Spec.Body, "project_conversation_url_loading.md") ||
			!strings.Contains(d.Spec.Body, "- `docs/superpowers/HISTORY.md` — chronological log")) {
			t.Errorf("references body %q", d.Spec.Body)
		}
	}
	var empty []string
	for _, n := range notesWith(p, "empty section: nothing imported") {
		empty = append(empty, n.Title)
	}
	if !reflect.DeepEqual(empty, []string{"Project", "User", "Feedback", "Decisions", "TODOs"}) {
		t.Errorf("empty sections %q", empty)
	}
	if len(notesWith(p, "13 index line(s) point at topic files")) != 1 {
		t.Errorf("notes %+v", p.Notes)
	}
	data, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(res.Created[1].Path)))
	if err != nil || strings.Contains(string(data), home) || !strings.Contains(string(data), "\nimported: claude-memory:memory/feedback_db_transactions.md\n") {
		t.Errorf("%v\n%s", err, data)
	}
}

// Every source lore imports, on its real files: a dry run writes nothing
// and names what the import then creates; importing again adds nothing
// and changes no byte.
func TestImportEverySourceTwice(t *testing.T) {
	for _, tc := range []struct {
		dir, arg string
		left     int // drafts lint would reject, left out
	}{
		{"testdata/ftl", "cursor", 0},
		{"testdata/ddev", "claude-rules", 0},
		{"testdata/ddev", "claude", 0},
		{"testdata/awesome-copilot", "copilot", 1}, // go.instructions.md: 16435 bytes
		{"testdata/gemini-cli", "gemini", 0},
		{"testdata/lessons-learned-repo", "agents", 0},
		{"testdata/adr-tools", "adr", 0},
		{"testdata/madr", "adr", 0},
		{"testdata/devflow", "devflow", 0},
		{"testdata/devflow-repo", "devflow", 0},
		{"testdata/lessons-learned", "lesson-manifest.json", 0},
		{"testdata/lessons-learned", "lessons-store.json", 0},
	} {
		t.Run(filepath.Base(tc.dir)+"/"+tc.arg, func(t *testing.T) {
			s := testrepo.NewStore(t)
			copyTree(t, tc.dir, s.Root)
			p := plan(t, s.Root, tc.arg)
			if len(p.Drafts) == 0 {
				t.Fatal("nothing to import")
			}
			_, res := importTwice(t, s, tc.arg, len(p.Drafts)-tc.left)
			var left []Note
			for _, n := range res.Notes {
				if strings.HasPrefix(n.Msg, "not imported: lint would reject it: ") {
					left = append(left, n)
				}
			}
			if len(left) != tc.left {
				t.Errorf("left out %+v, want %d", left, tc.left)
			}
		})
	}
}

// The lessons-learned manifest's five lessons with content triggers
// arrive as two items each; the second carries the reference
// lessons-learned:<ULID>/edits, which the secret check once took for a
// high-entropy secret, so lint rejected the five (importTwice lints).
func TestImportLessonsLearnedEditsLint(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/lessons-learned", s.Root)
	_, res := importTwice(t, s, "lesson-manifest.json", 123)
	edits := 0
	for _, c := range res.Created {
		if strings.HasPrefix(c.Key, "lessons-learned:01") && strings.HasSuffix(c.Key, "/edits") {
			edits++
		}
	}
	if edits != 5 {
		t.Errorf("%d /edits items", edits)
	}
	for _, n := range res.Notes {
		if !strings.HasPrefix(n.Msg, "priority low raised to medium") && !strings.Contains(n.Msg, "lint: a high item with tools but no commands or paths") &&
			!strings.HasPrefix(n.Msg, "lint: enforce: deny blocks calls, and this item does not show which") { // its deny blocks have no examples yet
			t.Errorf("note %+v", n)
		}
	}
}

// ethersync's MADR folder: two-digit numbers and an SPDX comment above
// each record's frontmatter. The folder is known as one of decision
// records by its files; every record keeps its number (00- takes the
// next free one, as lore's refs start at 1) and its status; the folder's
// README and template are no records.
func TestImportEthersyncMADR(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/ethersync", s.Root)
	if p := plan(t, s.Root, "docs/decisions/05-crdt-library.md"); len(p.Drafts) != 1 || p.Drafts[0].Ref != "ADR-0005" ||
		p.Drafts[0].Spec.Title != "Which CRDT library to use for the Rust-based Daemon" || strings.Contains(p.Drafts[0].Spec.Body, "SPDX") {
		t.Fatalf("one record: %+v", p.Drafts)
	}
	p, res := importTwice(t, s, "docs/decisions", 11)
	byRef := map[string]string{}
	for _, c := range res.Created {
		byRef[strings.Split(filepath.Base(c.Path), "-")[1]] = c.Key
	}
	for ref, key := range map[string]string{
		"0005": "adr:docs/decisions/05-crdt-library.md",
		"0010": "adr:docs/decisions/10-cursor-positions-ephemeral.md",
		"0011": "adr:docs/decisions/00-use-markdown-any-decision-records.md",
	} {
		if byRef[ref] != key {
			t.Errorf("ADR-%s is %q, want %q", ref, byRef[ref], key)
		}
	}
	status := map[string]int{}
	for _, d := range p.Drafts {
		status[d.Spec.Status]++
	}
	if want := map[string]int{"proposed": 10, "superseded": 1}; !reflect.DeepEqual(status, want) {
		t.Errorf("statuses %v, want %v", status, want)
	}
	if len(notesWith(p, "record number 0 is no lore ref")) != 1 {
		t.Errorf("notes %+v", p.Notes)
	}
	var unread []string
	for _, n := range notesWith(p, "not read as a decision record") {
		unread = append(unread, n.From)
	}
	if want := []string{"docs/decisions/README.md", "docs/decisions/adr-template.md"}; !reflect.DeepEqual(unread, want) {
		t.Errorf("unread %q, want %q", unread, want)
	}
	items, _ := s.Load()
	for _, it := range items {
		if it.Ref == "ADR-0005" && (!strings.HasPrefix(it.Section("Context"), "We have already decided to use the CRDT approach") ||
			strings.Contains(string(it.Raw()), "SPDX")) {
			t.Errorf("ADR-0005 body:\n%s", it.Raw())
		}
	}
}

// Lines in code fences are text: ddev's CLAUDE.md gives a PR template
// with "## Short Summary (TL;DR)" in a heredoc, otter's Windsurf rule a
// bash block with "# Install dependencies (always first)"; both arrive
// as they were, while the headings around them move under the item's
// Injection section.
func TestImportKeepsFencedHeadings(t *testing.T) {
	for _, tc := range []struct{ dir, arg, key, fenced, heading string }{
		{"testdata/ddev", "claude", "CLAUDE.md#git-workflow", "\n## Short Summary (TL;DR)\n", "\n### Creating Commits with PR Template\n"},
		{"testdata/otter", "windsurf", ".windsurf/rules/runtime-setup.md", "\n# Install dependencies (always first)\nyarn install\n", "\n### Setup and Bootstrap\n"},
	} {
		p := plan(t, tc.dir, tc.arg)
		var body string
		for _, d := range p.Drafts {
			if d.Key == tc.key {
				body = d.Spec.Body
			}
		}
		if !strings.Contains(body, tc.fenced) || !strings.Contains(body, tc.heading) {
			t.Errorf("%s: body:\n%s", tc.key, body)
		}
	}
}

// streamlit's Cursor rules: typescript_tests.mdc's gitignore-style globs
// (*.ts,*.tsx) match a name at any depth, as lore's **/*.ts does and the
// bare glob, tried on the repo-relative path, does not; python_tests.mdc's
// lib/tests/**/*.py stays anchored; overview.mdc (alwaysApply) has no
// triggers and is delivered at session start. The report says each
// item's delivery.
func TestImportStreamlitCursorRules(t *testing.T) {
	s := testrepo.NewStore(t)
	copyTree(t, "testdata/streamlit", s.Root)
	p, res := importTwice(t, s, "cursor", 3)
	paths := map[string][]string{}
	for _, d := range p.Drafts {
		paths[d.Key] = d.Spec.Triggers.Paths
	}
	want := map[string][]string{
		".cursor/rules/overview.mdc":         nil,
		".cursor/rules/python_tests.mdc":     {"lib/tests/**/*.py"},
		".cursor/rules/typescript_tests.mdc": {"**/*.ts", "**/*.tsx"},
	}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	const nested = "frontend/lib/src/components/widgets/Button/Button.test.tsx"
	if ok, _ := doublestar.Match("*.tsx", nested); ok {
		t.Fatal("a bare glob matches a nested path: the mapping is moot")
	}
	if ok, _ := doublestar.Match(want[".cursor/rules/typescript_tests.mdc"][1], nested); !ok {
		t.Errorf("%s does not match %s", want[".cursor/rules/typescript_tests.mdc"][1], nested)
	}
	delivery := map[string]string{}
	for _, c := range res.Created {
		delivery[c.Key] = c.Delivery
	}
	if d := delivery["cursor:.cursor/rules/overview.mdc"]; d != compile.SessionStart || delivery["cursor:.cursor/rules/typescript_tests.mdc"] != compile.BeforeCall {
		t.Errorf("deliveries %v", delivery)
	}
	for _, c := range []Created{
		{Path: ".lore/lessons/streamlit-repo-overview.md", Key: "cursor:.cursor/rules/overview.mdc", Delivery: compile.SessionStart},
		{Path: ".lore/lessons/typescript-test-guide.md", Key: "cursor:.cursor/rules/typescript_tests.mdc", Delivery: compile.BeforeCall},
	} {
		if !slices.ContainsFunc(res.Created, func(got Created) bool { return got.Path == c.Path && got.Key == c.Key && got.Delivery == c.Delivery }) {
			t.Errorf("created has no %+v: %+v", c, res.Created)
		}
	}
}
