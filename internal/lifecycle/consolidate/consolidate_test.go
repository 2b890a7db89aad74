package consolidate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

const rel = ".lore/learnings.md"

// repo commits one day after another (2026-01-01 is day 0).
type repo struct {
	*testrepo.Repo
	t   *testing.T
	day int
}

func newRepo(t *testing.T) *repo { return &repo{Repo: testrepo.New(t), t: t} }

// commit commits everything on the next day.
func (r *repo) commit(msg string) {
	r.t.Helper()
	date := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, r.day).Format(time.RFC3339)
	r.day++
	r.Commit(date, msg)
}

func (r *repo) today() string {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.day-1).Format(ages.DateLayout)
}

const preamble = "# Learnings\n\nStaging.\n\n\n\n\n\n\n\n"

func entries(list ...[2]string) string {
	var b strings.Builder
	for _, e := range list {
		fmt.Fprintf(&b, "## %s\n%s\n\n", e[0], e[1])
	}
	return b.String()
}

var old = [][2]string{
	{"Pytest hangs", "Bare pytest hangs in agent shells without a TTY."},
	{"Pytest no longer hangs", "Bare pytest no longer hangs in agent shells without a TTY since the TERM fix."},
	{"Deploy migrations order", "Run the database migrations before the deploy script."},
	{"Deploy needs a tag", "The deploy script needs a git tag on HEAD."},
	{"Flaky network tests", "kind: pitfall\nNetwork tests flake on CI runners; mark them with the network tag."},
	{"Lint before commit", "Run make lint before each commit."},
}

var recent = [][2]string{
	{"Recent one", "Cache go modules in CI."},
	{"Recent two", "Prefer table tests."},
	{"Recent three", "Keep fixtures small."},
}

const deployDoc = `# Deployment

How we deploy.

## Migrations
Never run the database migrations before the deploy script; run them after it.

## Tags
The deploy script needs a git tag on HEAD to name the release.
`

// fixture: six old entries (and any more given), ten more active days,
// three recent entries.
func fixture(t *testing.T, cfg string, more ...[2]string) (*repo, *gitstore.Store, config.Config) {
	r := newRepo(t)
	r.Write(".lore/config.yaml", cfg)
	r.Write("docs/deploy.md", deployDoc)
	r.history(append(append([][2]string{}, old...), more...), recent)
	s := r.Store()
	c, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	return r, s, c
}

// history commits the older entries, fourteen more active days, then
// the newer entries.
func (r *repo) history(older, newer [][2]string) {
	r.Write(rel, preamble+entries(older...))
	r.commit("old entries")
	for i := 0; i < 14; i++ {
		r.Write("work.txt", fmt.Sprint(i))
		r.commit("work")
	}
	r.Write(rel, preamble+entries(older...)+entries(newer...))
	r.commit("recent entries")
}

const routes = "consolidate:\n  routes:\n    - match: deploy\n      target: docs/deploy.md\n"

func TestChecksRoutingAndRemoval(t *testing.T) {
	r, s, cfg := fixture(t, routes)
	before := r.Read(rel)
	dry, err := consolidate.Run(s, cfg, consolidate.Options{DryRun: true, Today: r.today()})
	if err != nil {
		t.Fatal(err)
	}
	if r.Read(rel) != before || r.Read("docs/deploy.md") != deployDoc {
		t.Fatal("dry run changed files")
	}
	if !strings.Contains(r.Read("tmp/consolidation-report.md"), "dry run") {
		t.Fatal("dry run wrote no report")
	}
	res, err := consolidate.Run(s, cfg, consolidate.Options{Today: r.today()})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Triggered || !res.Ran || !strings.HasPrefix(res.Reason, "staleness: no prior consolidation") {
		t.Fatalf("trigger: %+v", res)
	}
	wantBatch := []string{"Pytest hangs", "Pytest no longer hangs", "Deploy migrations order", "Deploy needs a tag", "Flaky network tests", "Lint before commit"}
	if !reflect.DeepEqual(res.Batch, wantBatch) || !reflect.DeepEqual(dry.Batch, wantBatch) {
		t.Fatalf("batch %v / dry %v", res.Batch, dry.Batch)
	}
	one := func(name string, fs []consolidate.Finding, title, against string, min float64) {
		t.Helper()
		if len(fs) != 1 || fs[0].Title != title || fs[0].Against != against || fs[0].Score < min {
			t.Fatalf("%s: %+v", name, fs)
		}
	}
	one("superseded", res.Superseded, "Pytest hangs", "Pytest no longer hangs", consolidate.TopicMin)
	one("contradictions", res.Contradictions, "Deploy migrations order", "docs/deploy.md § Migrations", consolidate.TopicMin)
	one("redundant", res.Redundant, "Deploy needs a tag", "docs/deploy.md § Tags", consolidate.RedundantMin)
	if !reflect.DeepEqual(dry.Superseded, res.Superseded) || !reflect.DeepEqual(dry.Routed, res.Routed) {
		t.Fatalf("dry run decided differently: %+v vs %+v", dry, res)
	}
	want := []consolidate.Routed{
		{Title: "Pytest no longer hangs", Target: ".lore/lessons/pytest-no-longer-hangs.md"},
		{Title: "Flaky network tests", Target: ".lore/pitfalls/PF-0001-flaky-network-tests.md"},
		{Title: "Lint before commit", Target: ".lore/lessons/lint-before-commit.md"},
	}
	if !reflect.DeepEqual(res.Routed, want) {
		t.Fatalf("routed %+v", res.Routed)
	}
	for _, ro := range res.Routed {
		it, err := markdown.Parse(ro.Target, []byte(r.Read(ro.Target)))
		if err != nil {
			t.Fatal(err)
		}
		if errs := markdown.Validate(it); len(errs) > 0 || it.Status != "draft" || it.Source == nil || it.Source.Type != "consolidation" {
			t.Fatalf("%s: %v %+v", ro.Target, errs, it)
		}
	}
	if it, _ := markdown.Parse("x", []byte(r.Read(want[1].Target))); it.Kind != "pitfall" || it.Ref != "PF-0001" ||
		!strings.Contains(it.Section("Issue"), "Network tests flake") || strings.Contains(string(it.Body()), "kind:") {
		t.Fatalf("pitfall %+v", it)
	}
	// Staging keeps the escalated entry and the three newest.
	l, err := markdown.ParseLearnings(rel, []byte(r.Read(rel)))
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range l.Entries {
		left = append(left, e.Title)
	}
	if want := []string{"Deploy migrations order", "Recent one", "Recent two", "Recent three"}; !reflect.DeepEqual(left, want) {
		t.Fatalf("staging keeps %v, want %v", left, want)
	}
	if !strings.HasPrefix(r.Read(rel), preamble) || r.Read("docs/deploy.md") != deployDoc {
		t.Fatal("preamble or contradicting target touched")
	}
	report := r.Read("tmp/consolidation-report.md")
	for _, s := range []string{"superseded by Pytest no longer hangs (score", "contradicts docs/deploy.md § Migrations (score",
		"already said by docs/deploy.md § Tags (score 1.00)", "Flaky network tests -> .lore/pitfalls/PF-0001-flaky-network-tests.md"} {
		if !strings.Contains(report, s) {
			t.Errorf("report lacks %q:\n%s", s, report)
		}
	}
	// The consolidation commit is the next staleness anchor.
	r.commit("consolidate")
	rep, err := ages.Load(s, rel, r.today())
	if err != nil || rep.LastConsolidation == nil || rep.LastConsolidation.ActiveDays != 0 {
		t.Fatalf("anchor: %+v %v", rep, err)
	}
	again, err := consolidate.Run(s, cfg, consolidate.Options{Today: r.today()})
	if err != nil || again.Triggered || !strings.Contains(again.Reason, "last consolidation was 0 active days ago") {
		t.Fatalf("second run: %+v %v", again, err)
	}
}

func TestAgentModeWritesTaskOnly(t *testing.T) {
	r, s, cfg := fixture(t, routes)
	before := r.Read(rel)
	res, err := consolidate.Run(s, cfg, consolidate.Options{Agent: true, Today: r.today()})
	if err != nil {
		t.Fatal(err)
	}
	task := r.Read(consolidate.TaskPath)
	if res.Task != consolidate.TaskPath || r.Read(rel) != before || len(res.Removed) != 0 {
		t.Fatalf("agent mode: %+v", res)
	}
	for _, s := range []string{"lore-remember-task", "### Lint before commit", "- Age: 15 active days", "contradiction: Deploy migrations order"} {
		if !strings.Contains(task, s) {
			t.Errorf("task lacks %q:\n%s", s, task)
		}
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".lore/lessons")); err == nil {
		t.Fatal("agent mode wrote items")
	}
}

// A dry run, routing or writing the agent's task, decides what the real
// run would and writes its report, nothing else.
func TestDryRunWritesOnlyTheReport(t *testing.T) {
	for _, agent := range []bool{false, true} {
		r, s, cfg := fixture(t, routes)
		before := tree(t, r.Dir)
		res, err := consolidate.Run(s, cfg, consolidate.Options{DryRun: true, Agent: agent, Today: r.today()})
		if err != nil || !res.Ran || len(res.Routed) == 0 {
			t.Fatalf("agent %v: %v %+v", agent, err, res)
		}
		after := tree(t, r.Dir)
		if !strings.Contains(after[res.Report], "- Mode: dry run") {
			t.Fatalf("agent %v: no dry-run report at %s", agent, res.Report)
		}
		delete(after, res.Report)
		if !reflect.DeepEqual(after, before) {
			t.Errorf("agent %v: a dry run wrote more than its report", agent)
		}
	}
}

// tree is every file of the work tree but .git and the cache, by path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case err != nil:
			return err
		case rel == ".git" || rel == ".lore/cache":
			return filepath.SkipDir
		case d.IsDir():
			return nil
		}
		data, err := os.ReadFile(p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFileLimitSplitAndRetry(t *testing.T) {
	var doc strings.Builder
	doc.WriteString("# Guide\n\nIntro.\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&doc, "\n## Topic %d\n", i)
		for j := 0; j < 5; j++ {
			fmt.Fprintf(&doc, "Line %d of topic %d about widgets.\n", j, i)
		}
	}
	cfg := "consolidate:\n  fileLimit: 40\n  keepRecent: 0\n  routes:\n    - match: guide\n      target: docs/guide.md\n"
	r := newRepo(t)
	r.Write(".lore/config.yaml", cfg)
	r.Write("docs/guide.md", doc.String())
	r.Write(rel, preamble+entries(
		[2]string{"Guide alpha", "The guide needs alpha notes on gadgets."},
		[2]string{"Guide beta", "The guide needs beta notes on sprockets."},
		[2]string{"Guide gamma", "The guide needs gamma notes on gizmos."},
	))
	for i := 0; i < 15; i++ {
		r.commit("day")
	}
	s := r.Store()
	c, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	res, err := consolidate.Run(s, c, consolidate.Options{Today: r.today()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Splits) != 1 || len(res.Splits[0].Files) < 2 || len(res.FileLimit) != 0 {
		t.Fatalf("split: %+v", res)
	}
	retried := 0
	var all strings.Builder
	for _, f := range res.Splits[0].Files {
		data := r.Read(f)
		all.WriteString(data)
		if n := markdown.CountLines([]byte(data)); n > 40 {
			t.Errorf("%s has %d lines", f, n)
		}
		for _, g := range res.Splits[0].Files {
			if g != f && !strings.Contains(data, "("+filepath.Base(g)+")") {
				t.Errorf("%s does not link to %s", f, g)
			}
		}
	}
	for _, ro := range res.Routed {
		if ro.Retried {
			retried++
		}
	}
	if retried == 0 {
		t.Fatalf("no entry retried: %+v", res.Routed)
	}
	for i := 1; i <= 6; i++ {
		for j := 0; j < 5; j++ {
			if !strings.Contains(all.String(), fmt.Sprintf("Line %d of topic %d about widgets.", j, i)) {
				t.Fatalf("line %d of topic %d lost", j, i)
			}
		}
	}
	for _, e := range []string{"## Guide alpha", "## Guide beta", "## Guide gamma"} {
		if strings.Count(all.String(), e) != 1 {
			t.Fatalf("%s placed %d times", e, strings.Count(all.String(), e))
		}
	}
}

// TestRerunAfterAKill: a consolidation killed after it wrote its first
// draft, before it rewrote learnings.md, run again: the entry with a draft
// is recognised by the draft's source.hash (not written twice, not dropped
// as redundant), an entry that shares its words is checked against the
// knowledge there was before the killed run, not against that draft, and
// the end is the clean run's.
func TestRerunAfterAKill(t *testing.T) {
	r, s, cfg := fixture(t, "", [2]string{"Pytest hangs in CI too", "Bare pytest hangs in agent shells and CI without a TTY."})
	before := r.Read(rel)
	clean, err := consolidate.Run(s, cfg, consolidate.Options{Today: r.today()})
	if err != nil {
		t.Fatal(err)
	}
	after := r.Read(rel)
	first := clean.Routed[0]
	if first.Title != "Pytest no longer hangs" {
		t.Fatalf("routed %+v", clean.Routed)
	}
	draft := r.Read(first.Target)
	// The killed run's state: learnings.md as before, only the first draft.
	for _, ro := range clean.Routed[1:] {
		if err := os.Remove(filepath.Join(r.Dir, ro.Target)); err != nil {
			t.Fatal(err)
		}
	}
	r.Write(rel, before)
	res, err := consolidate.Run(s, cfg, consolidate.Options{Today: r.today()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Routed[0] != (consolidate.Routed{Title: first.Title, Target: first.Target, Earlier: true}) || r.Read(first.Target) != draft {
		t.Fatalf("the first entry: %+v", res.Routed[0])
	}
	if len(res.Routed) != len(clean.Routed) || !reflect.DeepEqual(res.Redundant, clean.Redundant) || r.Read(rel) != after {
		t.Fatalf("rerun %+v\nclean %+v", res, clean)
	}
	items, _ := s.Load()
	if len(items) != len(clean.Routed) {
		t.Fatalf("%d items after the rerun, want %d", len(items), len(clean.Routed))
	}
}
