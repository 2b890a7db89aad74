package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/app/doctor"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/store/sources"
	"github.com/lore-agents/lore/internal/testrepo"
)

// scopedLesson is an item every scope can hold: the same trigger and
// priority, so the scores tie and only the origin orders them.
func scopedLesson(id, title, status string) string {
	return fmt.Sprintf(`---
id: %s
kind: lesson
title: %q
status: %s
priority: high
triggers:
  tools: [Bash]
  commands: ['\bterraform\s+apply\b']
---

## Mistake
Applied without a plan.

## Fix
%s: run terraform plan first.
`, id, title, status, title)
}

const (
	idProject = "01JRQABE0000000000000000P1"
	idOrg     = "01JRQABE0000000000000000G1"
	idShared  = "01JRQABE0000000000000000S1" // in the project and the org store
	idUser    = "01JRQABE0000000000000000V1"
)

// hermetic points HOME and the XDG folders at the test's own, so nothing
// reads or writes the developer's stores, config or cache.
func hermetic(t *testing.T) (config, cache string) {
	t.Helper()
	home := t.TempDir()
	config, cache = filepath.Join(home, "config"), filepath.Join(home, "cache")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("XDG_CACHE_HOME", cache)
	return config, cache
}

// orgSource is an organisation's store repository and its bare remote
// (file://): an active lesson, a draft, a malformed item, and one whose
// id a project also has.
func orgSource(t *testing.T) (*testrepo.Repo, string) {
	t.Helper()
	work := testrepo.New(t)
	work.Write(".lore/lessons/plan.md", scopedLesson(idOrg, "Org plan", "active"))
	work.Write(".lore/lessons/draft.md", scopedLesson("01JRQABE0000000000000000D1", "Org draft", "draft"))
	work.Write(".lore/lessons/broken.md", "---\nid: 01JRQABE0000000000000000B1\nkind: lesson\nstatus: active\n---\n\n## Fix\nno title\n")
	work.Write(".lore/lessons/shared.md", scopedLesson(idShared, "Org shared", "active"))
	work.Commit("2026-01-05T10:00:00Z", "org store")
	bare := filepath.Join(t.TempDir(), "org.git")
	work.Git("clone", "-q", "--bare", work.Dir, bare)
	work.Git("remote", "add", "origin", bare)
	return work, "file://" + bare
}

// projectNaming is a project whose config names the source (extra config
// lines after it), with its own lesson on the same trigger and one that
// shares an id with the org store.
func projectNaming(t *testing.T, url, extra string) *gitstore.Store {
	t.Helper()
	s := newStore(t)
	write(t, s, ".lore/config.yaml", "sources:\n  - name: acme\n    url: "+url+"\n    ref: main\n"+extra)
	write(t, s, ".lore/lessons/plan.md", scopedLesson(idProject, "Project plan", "active"))
	write(t, s, ".lore/lessons/shared.md", scopedLesson(idShared, "Project shared", "active"))
	return s
}

// userLesson puts the user's own lesson on the shared trigger in the
// user's store under the config folder.
func userLesson(t *testing.T, cfgHome string) {
	t.Helper()
	user := filepath.Join(cfgHome, "lore", "lessons")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, "plan.md"), []byte(scopedLesson(idUser, "User plan", "active")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustSync syncs s's sources and fails the test when one failed.
func mustSync(t *testing.T, s *gitstore.Store) {
	t.Helper()
	if r, err := Sync(context.Background(), s, SyncOptions{}); err != nil || r.Failed() {
		t.Fatalf("sync: %+v, %v", r, err)
	}
}

func write(t *testing.T, s *gitstore.Store, rel, data string) {
	t.Helper()
	if err := s.WriteFile(rel, []byte(data)); err != nil {
		t.Fatal(err)
	}
}

func injectedFor(t *testing.T, s *gitstore.Store, command string) []string {
	t.Helper()
	m, err := Match(s, MatchOptions{Tool: "Bash", Command: command, Dir: s.Root})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, r := range m.Decision.Injected {
		files = append(files, r.File)
	}
	return files
}

func TestSyncScopesPrecedenceAndDisable(t *testing.T) {
	cfgHome, _ := hermetic(t)
	_, url := orgSource(t)
	userLesson(t, cfgHome)
	s := projectNaming(t, url, "inject:\n  drafts: true\n  maxItems: 5\n")

	// Before a sync the org store is not there: the build never fetches.
	if got := injectedFor(t, s, "terraform apply"); strings.Join(got, " ") != ".lore/lessons/plan.md .lore/lessons/shared.md user:lessons/plan.md" {
		t.Fatalf("before sync: %v", got)
	}
	r, err := Sync(context.Background(), s, SyncOptions{})
	if err != nil || r.Failed() || len(r.Sources) != 1 || !r.Sources[0].Changed || r.Sources[0].Origin != ".lore/config.yaml" {
		t.Fatalf("Sync = %+v, %v", r, err)
	}
	// The malformed org item is reported with its origin; the build succeeds.
	if probs := strings.Join(r.Built.Problems(), "\n"); !strings.Contains(probs, "acme:lessons/broken.md") {
		t.Errorf("build problems do not name the org item's origin:\n%s", probs)
	}
	// Equal scores: project, then org, then user; the org draft never
	// compiles (drafts: true is the project's), the shared id is the
	// project's.
	want := ".lore/lessons/plan.md .lore/lessons/shared.md acme:lessons/plan.md user:lessons/plan.md"
	if got := injectedFor(t, s, "terraform apply"); strings.Join(got, " ") != want {
		t.Fatalf("after sync: %v, want %s", got, want)
	}
	if r.Built.Report.Shadowed != 1 {
		t.Errorf("shadowed %d, want 1 (the org's copy of the shared id)", r.Built.Report.Shadowed)
	}

	// disable switches the org item (and the user's) off for this project.
	write(t, s, ".lore/config.yaml", "sources:\n  - name: acme\n    url: "+url+"\n    ref: main\ninject:\n  maxItems: 5\ndisable: ["+idOrg+", "+idUser+"]\n")
	if got := injectedFor(t, s, "terraform apply"); strings.Join(got, " ") != ".lore/lessons/plan.md .lore/lessons/shared.md" {
		t.Fatalf("disabled: %v", got)
	}

	// A project whose config does not name the source never sees its
	// items, though the copy is in this user's cache.
	other := newStore(t)
	if got := injectedFor(t, other, "terraform apply"); strings.Join(got, " ") != "user:lessons/plan.md" {
		t.Fatalf("a project not naming acme: %v", got)
	}
}

// A config that does not parse in one key keeps its sources, and their
// items; a source with a problem is left out, and sync --check fails on
// it, naming it.
func TestSyncKeepsTheSourcesOfABrokenConfig(t *testing.T) {
	hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "  - {name: Infra, url: "+url+"}\ndisable: [01JRQABE0000000000000000G1\n")
	if r, err := Sync(context.Background(), s, SyncOptions{}); err != nil || len(r.Sources) != 1 || r.Sources[0].Name != "acme" {
		t.Fatalf("Sync = %+v, %v", r, err)
	}
	if got := injectedFor(t, s, "terraform apply"); !slices.Contains(got, "acme:lessons/plan.md") {
		t.Fatalf("with the disable list broken, injected %v", got)
	}
	r, err := Sync(context.Background(), s, SyncOptions{Check: true})
	if err != nil || !r.Failed() || len(r.Problems) != 1 || !strings.HasPrefix(r.Problems[0], ".lore/config.yaml:5: sources[1].name: ") ||
		!strings.HasSuffix(r.Problems[0], "; source Infra is left out: its items reach no agent until it is fixed") || r.Sources[0].Behind {
		t.Fatalf("sync --check = %+v, %v", r, err)
	}
	// doctor asks for the source left out to be fixed, beside the one in use.
	var said []string
	for _, f := range Doctor(s, os.Getenv).Findings {
		if f.Check == "sources" {
			said = append(said, fmt.Sprintf("%s %s", f.Level, f.Message))
		}
	}
	if len(said) != 2 || !strings.Contains(said[0], "source Infra is left out") || !strings.HasPrefix(said[0], string(doctor.Action)) || !strings.Contains(said[1], "acme at ") {
		t.Fatalf("doctor's sources: %q", said)
	}
}

func TestSyncOfflineAndSharedCopy(t *testing.T) {
	_, cache := hermetic(t)
	work, url := orgSource(t)
	a := projectNaming(t, url, "")
	b := projectNaming(t, url, "")
	mustSync(t, a)
	// The second repository finds the copy the first fetched: nothing new
	// is cloned, and both read the one folder.
	r, err := Sync(context.Background(), b, SyncOptions{})
	if err != nil || r.Failed() || r.Sources[0].Changed {
		t.Fatalf("sync b: %+v, %v", r, err)
	}
	dirs, _ := filepath.Glob(filepath.Join(cache, "lore", "sources", "acme-*", "[0-9a-f]*"))
	dirs = slices.DeleteFunc(dirs, func(p string) bool { fi, err := os.Stat(p); return err != nil || !fi.IsDir() }) // and its parts
	if len(dirs) != 1 {
		t.Fatalf("checkouts %v, want one shared by both repositories", dirs)
	}
	if got := injectedFor(t, b, "terraform apply"); !strings.Contains(strings.Join(got, " "), "acme:lessons/plan.md") {
		t.Fatalf("b does not see the shared copy: %v", got)
	}

	// --check: reachable and current passes; a new commit upstream is behind.
	if r, err := Sync(context.Background(), a, SyncOptions{Check: true}); err != nil || r.Failed() {
		t.Fatalf("check when current: %+v, %v", r, err)
	}
	work.Write(".lore/lessons/new.md", scopedLesson("01JRQABE0000000000000000N1", "Org new", "active"))
	work.Commit("2026-01-06T10:00:00Z", "new")
	work.Git("push", "-q", "origin", "main")
	if r, err := Sync(context.Background(), a, SyncOptions{Check: true}); err != nil || !r.Failed() || !r.Sources[0].Behind {
		t.Fatalf("check when behind: %+v, %v", r, err)
	}

	// Offline: the remote is gone. The sync fails for the source but keeps
	// its copy; the build still has the org items.
	if err := os.RemoveAll(strings.TrimPrefix(url, "file://")); err != nil {
		t.Fatal(err)
	}
	r, err = Sync(context.Background(), a, SyncOptions{})
	if err != nil || !r.Failed() || !strings.HasPrefix(r.Sources[0].Error, "list file://") || r.Sources[0].Commit == "" {
		t.Fatalf("offline sync (its error not repeating the source's name): %+v, %v", r, err)
	}
	if got := injectedFor(t, a, "terraform apply"); !strings.Contains(strings.Join(got, " "), "acme:lessons/plan.md") {
		t.Fatalf("offline: the last copy is not used: %v", got)
	}
	if r, err := Sync(context.Background(), a, SyncOptions{Check: true}); err != nil || !r.Failed() || r.Sources[0].Error == "" {
		t.Fatalf("check when unreachable: %+v, %v", r, err)
	}
	st, _ := sources.ReadState(r.Sources[0].Dir)
	if st.Error == "" || st.Fetched.IsZero() {
		t.Fatalf("state after the failed sync: %+v", st)
	}
	// lore doctor says since when the copy in use is.
	since := "acme cannot be fetched since " + st.Fetched.Local().Format("2006-01-02 15:04")
	var found bool
	for _, f := range Doctor(a, os.Getenv).Findings {
		found = found || f.Check == "sources" && strings.HasPrefix(f.Message, since) && f.Level == doctor.Info
	}
	if !found {
		t.Fatalf("doctor does not say %q: %+v", since, Doctor(a, os.Getenv).Findings)
	}
}

func TestListShowsEveryScope(t *testing.T) {
	hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "")
	if _, err := Sync(context.Background(), s, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := List(s, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]string{}
	for _, e := range r.Items {
		origins[e.Path] = e.Origin
	}
	if origins["acme:lessons/plan.md"] != "acme" || origins[".lore/lessons/plan.md"] != compile.Project.String() {
		t.Fatalf("list origins: %v", origins)
	}
	sh, err := Show(s, "acme:lessons/plan.md")
	if err != nil || sh.Item.ID != idOrg {
		t.Fatalf("show an org item: %+v, %v", sh, err)
	}
	found, err := Search(s, "plan", 10) // lore_search, for hookless agents
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range found {
		paths = append(paths, f.Path)
	}
	if !slices.Contains(paths, "acme:lessons/plan.md") {
		t.Fatalf("search for plan found %v, not the org item", paths)
	}
}

// Status counts the stores outside the project: an organisation source
// with no copy here says so, one synced names its files and commit, and
// the user's store shows once it has an item.
func TestStatusCountsEveryStore(t *testing.T) {
	cfgHome, _ := hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "")
	stores := func() []StoreFiles {
		t.Helper()
		r, err := Status(s, StatusOptions{StaleDays: 90, Today: "2026-06-01"})
		if err != nil {
			t.Fatal(err)
		}
		return r.Stores
	}
	if got := stores(); !reflect.DeepEqual(got, []StoreFiles{{Name: "acme", Scope: "org"}}) {
		t.Fatalf("before the sync: %+v", got)
	}
	mustSync(t, s)
	userLesson(t, cfgHome)
	got := stores()
	if len(got) != 2 || got[0].Name != "acme" || !got[0].Copy || got[0].Files != 4 || len(got[0].Commit) != 40 ||
		got[1] != (StoreFiles{Name: "user", Scope: "user", Files: 1, Copy: true}) {
		t.Fatalf("after the sync: %+v", got)
	}
}

func TestLintReportsOtherScopesAsWarnings(t *testing.T) {
	hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "")
	// Before a sync (a fresh machine's pre-commit run) lint says it could
	// check none of the source's items, where the config names it.
	before, err := Lint(s, LintOptions{})
	if err != nil || before.Failed(false) || len(before.Findings) != 1 || before.Findings[0].Path != ".lore/config.yaml" ||
		before.Findings[0].Line != 2 || !strings.Contains(before.Findings[0].Msg, "source acme has no copy here") {
		t.Fatalf("lint before sync: %+v, %v", before, err)
	}
	if _, err := Sync(context.Background(), s, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := Lint(s, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var broken, shared bool
	for _, f := range r.Findings {
		broken = broken || f.Path == "acme:lessons/broken.md" && f.Key == "title" && f.Severity == lint.Warning
		shared = shared || f.Path == "acme:lessons/shared.md" && f.Key == "id" && strings.Contains(f.Msg, ".lore/lessons/shared.md") && f.Severity == lint.Warning
	}
	if !broken || !shared || r.Failed(false) || !r.Failed(true) {
		t.Fatalf("findings %+v: want the org store's broken item and shared id as warnings, failing only --strict", r.Findings)
	}
}

func TestExportHasTheTeamsScopesOnly(t *testing.T) {
	cfgHome, _ := hermetic(t)
	_, url := orgSource(t)
	userLesson(t, cfgHome)
	s := projectNaming(t, url, "")
	// Before a sync (a teammate's or CI's fresh cache), neither the export
	// nor its check may drop the org's items: both say to sync first.
	for _, check := range []bool{false, true} {
		if _, err := Export(s, ExportOptions{Target: "agents", Check: check}); err == nil || !strings.Contains(err.Error(), "acme") || !strings.Contains(err.Error(), "lore sync") {
			t.Errorf("export (check %v) before a sync: %v", check, err)
		}
	}
	if _, err := s.ReadFile("AGENTS.md"); err == nil {
		t.Error("the refused export wrote AGENTS.md")
	}
	if _, err := Sync(context.Background(), s, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	// What no build compiles is not exported either: a lookbehind.
	bad := strings.Replace(scopedLesson("01JRQABE0000000000000000X1", "Project lookbehind", "active"), `\bterraform\s+apply\b`, `(?<=a)b`, 1)
	write(t, s, ".lore/lessons/bad.md", bad)
	if _, err := Export(s, ExportOptions{Target: "agents"}); err != nil {
		t.Fatal(err)
	}
	data, err := s.ReadFile("AGENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, "Org plan") || strings.Contains(text, "User plan") || strings.Contains(text, "Org shared") ||
		strings.Contains(text, "Org draft") || !strings.Contains(text, "Project shared") || strings.Contains(text, "lookbehind") {
		t.Fatalf("AGENTS.md:\n%s", text)
	}
	if r, err := Export(s, ExportOptions{Target: "agents", Check: true}); err != nil || len(r.Changes) != 0 {
		t.Fatalf("check right after the export: %+v, %v", r.Changes, err)
	}
	// The user's disable list, like the user's sources, is the user's
	// alone: the committed file stays as a teammate's export writes it.
	if err := os.WriteFile(filepath.Join(cfgHome, "lore", "config.yaml"), []byte("disable: ["+idOrg+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := Export(s, ExportOptions{Target: "agents", Check: true}); err != nil || len(r.Changes) != 0 {
		t.Fatalf("check with the user's disable list: %+v, %v", r.Changes, err)
	}
}

func TestAddScopeUserWritesTheUsersStore(t *testing.T) {
	cfgHome, cache := hermetic(t)
	s := newStore(t)
	for _, scope := range []string{"user", "global"} {
		r, err := Add(s, AddOptions{Spec: markdown.Spec{Kind: markdown.KindPitfall, Title: "Mind the " + scope + " quota", Priority: "high", Confidence: 1, Scope: scope},
			Sections: map[string]string{"Issue": "Quota.", "Avoid": "Check it."}})
		if err != nil {
			t.Fatal(err)
		}
		want := "user:pitfalls/PF-0001-mind-the-user-quota.md"
		if scope == "global" {
			want = "user:pitfalls/PF-0002-mind-the-global-quota.md"
		}
		if r.Path != want || r.Item.Scope != "" {
			t.Fatalf("--scope %s: %s (scope %q), want %s", scope, r.Path, r.Item.Scope, want)
		}
		if _, err := os.Stat(filepath.Join(cfgHome, "lore", strings.TrimPrefix(want, "user:"))); err != nil {
			t.Fatalf("not in the user's store: %v", err)
		}
	}
	if items, _ := s.Load(); len(items) != 0 {
		t.Fatalf("the project got %d items", len(items))
	}
	if entries, _ := os.ReadDir(filepath.Join(cfgHome, "lore")); len(entries) != 1 { // pitfalls/: the lock is in the cache folder
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the user's store holds %v", names)
	}
	if _, err := os.Stat(filepath.Join(cache, "lore", "user", "write.lock")); err != nil {
		t.Errorf("the user store's lock: %v", err)
	}
	l, err := List(s, ListOptions{})
	if err != nil || len(l.Items) != 2 || l.Items[0].Origin != "user" {
		t.Fatalf("list: %+v, %v", l.Items, err)
	}
}

// A source in the user's own config serves every repository the user
// works in; a broken source in it is left out, named with its file and
// line, and the project's, the user's and the other source's items still
// compile: a typo in one person's file must not switch off every
// repository's guards.
func TestUserConfigSources(t *testing.T) {
	cfgHome, _ := hermetic(t)
	_, url := orgSource(t)
	userConfig := filepath.Join(cfgHome, "lore", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(userConfig), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(userConfig, []byte("sources:\n  - {name: acme, url: '"+url+"'}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newStore(t)
	r, err := Sync(context.Background(), s, SyncOptions{})
	if err != nil || r.Failed() || len(r.Sources) != 1 || r.Sources[0].Origin != userConfig {
		t.Fatalf("sync from the user's config: %+v, %v", r, err)
	}
	if got := injectedFor(t, s, "terraform apply"); strings.Join(got, " ") != "acme:lessons/plan.md acme:lessons/shared.md" {
		t.Fatalf("injected %v", got)
	}
	if err := os.WriteFile(userConfig, []byte("sources:\n  - {name: infra}\n  - {name: acme, url: '"+url+"'}\ninject:\n  maxItems: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, s, ".lore/lessons/plan.md", scopedLesson(idProject, "Project plan", "active"))
	userLesson(t, cfgHome)
	b, err := Build(s, BuildOptions{})
	if err != nil || len(b.Skipped) != 1 || b.Problems()[0] != userConfig+":2: sources[0].url: must name a git repository (https://, ssh://, git@host:path, file://); source infra is left out: its items reach no agent until it is fixed" {
		t.Fatalf("a broken user config: %q, %v", b.Problems(), err)
	}
	if got := injectedFor(t, s, "terraform apply"); strings.Join(got, " ") != ".lore/lessons/plan.md acme:lessons/plan.md acme:lessons/shared.md" {
		t.Fatalf("with the user's broken source left out, injected %v", got)
	}
	lr, err := Lint(s, LintOptions{})
	if err != nil || lr.Failed(false) || !slices.ContainsFunc(lr.Findings, func(f lint.Finding) bool {
		return f.Path == userConfig && f.Line == 2 && f.Key == "sources[0].url" && f.Severity == lint.Warning &&
			strings.HasSuffix(f.Msg, "; source infra is left out: its items reach no agent until it is fixed")
	}) {
		t.Fatalf("lint of a broken user config: %+v, %v", lr.Findings, err)
	}
}

// A sync that brings a new commit moves the source to a new checkout,
// compiled into a new part, and the manifest is the one a build from
// nothing writes, with the pushed change in the part.
func TestSyncedChangeBuildsAsFromNothing(t *testing.T) {
	_, cache := hermetic(t)
	work, url := orgSource(t)
	s := projectNaming(t, url, "")
	mustSync(t, s)
	work.Write(".lore/lessons/plan.md", scopedLesson(idOrg, "Org plan, revised", "active"))
	work.Write(".lore/lessons/new.md", scopedLesson("01JRQABE0000000000000000N1", "Org new", "active"))
	work.Commit("2026-01-06T10:00:00Z", "revise")
	work.Git("push", "-q", "origin", "main")
	if r, err := Sync(context.Background(), s, SyncOptions{}); err != nil || r.Failed() || !r.Sources[0].Changed {
		t.Fatalf("second sync: %+v, %v", r, err)
	}
	got, err := s.ReadFile(lorepath.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := compileStore(s, true, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the synced build's manifest differs from a build from nothing")
	}
	parts, _ := filepath.Glob(filepath.Join(cache, "lore", "sources", "acme-*", "*.part"))
	if len(parts) != 2 {
		t.Fatalf("parts %v, want the old commit's and the new one's", parts)
	}
	var part []byte
	for _, p := range parts {
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte("acme:lessons/new.md")) {
			part = data
		}
	}
	if !bytes.Contains(part, []byte("Org plan, revised")) || bytes.Contains(got, []byte("acme:lessons/new.md")) {
		t.Fatal("the pushed change is not in the new commit's part alone")
	}
}

// list, show, match and stats say what the build's merge sets aside: an org item
// the project disables, one the project shadows, an org draft; and the
// items list says reach the agent before a call are the ones the build
// injects.
func TestListAgreesWithTheMerge(t *testing.T) {
	cfgHome, _ := hermetic(t)
	_, url := orgSource(t)
	userLesson(t, cfgHome)
	s := projectNaming(t, url, "inject:\n  drafts: true\n  maxItems: 9\ndisable: ["+idOrg+"]\n")
	if r, err := Sync(context.Background(), s, SyncOptions{}); err != nil || r.Failed() {
		t.Fatalf("Sync = %+v, %v", r, err)
	}
	l, err := List(s, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]ListEntry{}
	var before []string
	for _, e := range l.Items {
		got[e.Path] = e
		if e.Delivery.Kind == compile.BeforeCall {
			before = append(before, e.Path)
		}
	}
	for path, reason := range map[string]string{
		"acme:lessons/plan.md":   "disable",
		"acme:lessons/shared.md": "shadowed by .lore/lessons/shared.md",
		"acme:lessons/draft.md":  "status draft: an organisation's item acts only once active (a decision: accepted) in its own store",
	} {
		if d := got[path].Delivery; d.Kind != compile.Never || !strings.Contains(d.Reason, reason) {
			t.Errorf("%s: %s %q, want never: %s", path, d.Kind, d.Reason, reason)
		}
	}
	sort.Strings(before)
	injected := injectedFor(t, s, "terraform apply")
	sort.Strings(injected)
	if strings.Join(before, " ") != strings.Join(injected, " ") {
		t.Errorf("list says before-call for %v; the build injects %v", before, injected)
	}
	if r, err := Show(s, idOrg); err != nil || r.Delivery.Kind != compile.Never || !strings.Contains(r.Delivery.Reason, "disable") {
		t.Errorf("show %s: %+v, %v", idOrg, r.Delivery, err)
	}
	if r, err := Show(s, idShared); err != nil || r.Item.Path != ".lore/lessons/shared.md" || r.Delivery.Kind != compile.BeforeCall {
		t.Errorf("show %s: %+v, %v", idShared, r.Delivery, err)
	}
	m, err := Match(s, MatchOptions{Tool: "Bash", Command: "terraform apply", Dir: s.Root, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := m.Delivery[idShared]; d.Kind != compile.BeforeCall {
		t.Errorf("match's delivery of %s: %+v, want the project's (before-call)", idShared, d)
	}
	st, err := Stats(s, StatsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := st.Report.Deliveries[compile.BeforeCall]; n != len(before) {
		t.Errorf("stats counts %d items delivered before a call, list %d: %v", n, len(before), st.Report.Deliveries)
	}
}

// A disable entry that names no org or user item is a lint warning on
// the config's line, with the id meant when it differs only in case; a
// right one is not, and before a sync nothing is known to warn of. doctor
// counts the same findings.
func TestLintWarnsOfDisableThatMatchesNothing(t *testing.T) {
	hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "disable:\n  - 01JRQABE0000000000000000ZZ\n  - "+strings.ToLower(idOrg)+"\n  - "+idShared+"\n")
	disables := func() []lint.Finding {
		t.Helper()
		r, err := Lint(s, LintOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out []lint.Finding
		for _, f := range r.Findings {
			if strings.HasPrefix(f.Key, "disable") {
				out = append(out, f)
			}
		}
		return out
	}
	if got := disables(); len(got) != 0 {
		t.Fatalf("before a sync: %+v", got)
	}
	if _, err := Sync(context.Background(), s, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	got := disables()
	if len(got) != 2 || got[0].Key != "disable[0]" || got[0].Line != 6 || got[0].Severity != lint.Warning ||
		got[1].Key != "disable[1]" || got[1].Line != 7 || !strings.Contains(got[1].Msg, "did you mean "+idOrg) {
		t.Fatalf("findings %+v", got)
	}
	// doctor counts what lore lint reports, the stores' warnings too.
	r, err := Lint(s, LintOptions{})
	if c, cerr := lintCounts(s); err != nil || cerr != nil || c.Errors != r.Errors || c.Warnings != r.Warnings || c.Warnings < 3 || c.BrokenGuards != nil {
		t.Errorf("doctor counts %+v; lint %d, %d (%v, %v)", c, r.Errors, r.Warnings, err, cerr)
	}
}

// A guard of an org store with an error (a misspelt priority) acts in no
// repository: the project's lint only warns, as for any org item, and
// doctor asks for it to be fixed.
func TestDoctorNamesABrokenOrgGuard(t *testing.T) {
	hermetic(t)
	work, url := orgSource(t)
	guard := strings.Replace(scopedLesson("01JRQABE0000000000000000G9", "Org guard", "active"), "priority: high", "priority: critcal\nenforce: deny", 1)
	work.Write(".lore/lessons/guard.md", guard)
	work.Commit("2026-01-06T10:00:00Z", "a guard")
	work.Git("push", "-q", "origin", "main")
	s := projectNaming(t, url, "")
	if _, err := Sync(context.Background(), s, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if r, err := Lint(s, LintOptions{}); err != nil || r.Failed(false) {
		t.Fatalf("lint: %+v, %v", r, err)
	}
	var found *doctor.Finding
	for _, f := range Doctor(s, os.Getenv).Findings {
		if f.Check == "guards" {
			found = &f
		}
	}
	if found == nil || found.Level != doctor.Action || !strings.Contains(found.Message, "acme:lessons/guard.md") || strings.Contains(found.Message, "broken.md") {
		t.Fatalf("doctor: %+v", found)
	}
}

// Two sources that fetch one repository give each org item twice: show
// by id is the first source's copy, the one the build keeps, not an
// ambiguity between identical ids.
func TestShowOneIDInTwoSources(t *testing.T) {
	hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "  - name: mine\n    url: "+url+"\n    ref: main\n")
	if r, err := Sync(context.Background(), s, SyncOptions{}); err != nil || r.Failed() || len(r.Sources) != 2 {
		t.Fatalf("Sync = %+v, %v", r, err)
	}
	r, err := Show(s, idOrg)
	if err != nil || r.Item.Path != "acme:lessons/plan.md" {
		t.Fatalf("show %s: %v, %v", idOrg, r.Item, err)
	}
	if d := r.Delivery; d.Kind != compile.BeforeCall {
		t.Errorf("delivery %+v", d)
	}
	if r, err := Show(s, "mine:lessons/plan.md"); err != nil || r.Delivery.Kind != compile.Never || !strings.Contains(r.Delivery.Reason, "shadowed by acme:lessons/plan.md") {
		t.Errorf("show mine's copy: %+v, %v", r.Delivery, err)
	}
}

// A command that changes an item, given an org item, says whose it is
// rather than that nothing matches.
func TestPromoteOfAnOrgItemSaysWhose(t *testing.T) {
	hermetic(t)
	_, url := orgSource(t)
	s := projectNaming(t, url, "")
	if _, err := Sync(context.Background(), s, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(*gitstore.Store, string) (Change, error){Archive, Reject} {
		if _, err := f(s, "acme:lessons/draft.md"); err == nil || !strings.HasPrefix(err.Error(), "acme:lessons/draft.md is not this repository's item: it is acme's: change it in acme's repository") {
			t.Errorf("%v", err)
		}
	}
	if _, err := Archive(s, "no-such-item"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown item: %v", err)
	}
}

// Two files that share an id never reach an agent, and status names each.
func TestStatusNamesEachDeadFileOfAnID(t *testing.T) {
	hermetic(t)
	s := newStore(t)
	write(t, s, ".lore/lessons/plan.md", scopedLesson(idProject, "Project plan", "active"))
	write(t, s, ".lore/lessons/a-copy.md", scopedLesson(idProject, "A copy", "active"))
	r, err := Status(s, StatusOptions{Evidence: true})
	if err != nil || r.Evidence == nil || !slices.Equal(r.Evidence.Dead, []string{".lore/lessons/a-copy.md", ".lore/lessons/plan.md"}) {
		t.Fatalf("dead: %+v, %v", r.Evidence, err)
	}
}
