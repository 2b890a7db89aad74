package observe

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

// newLog makes a throwaway repository with .lore/ (and config.yaml when
// given) and opens its log.
func newLog(t testing.TB, config string) *Log {
	t.Helper()
	r := testrepo.New(t)
	r.Mkdir(".lore")
	if config != "" {
		r.Write(".lore/config.yaml", config)
	}
	return openLog(t, r.Dir)
}

func openLog(t testing.TB, dir string) *Log {
	t.Helper()
	s, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Open(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func observe(t testing.TB, l *Log, typ, title string, count int, at time.Time) {
	t.Helper()
	r, err := Sighting(typ, title, count, at, true, "Details of "+title, "session-1.jsonl:12")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Observe(r); err != nil {
		t.Fatal(err)
	}
}

func load(t testing.TB, l *Log, typ, title string) *Observation {
	t.Helper()
	obs, _, err := l.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range obs {
		if o.ID == ID(typ, title) {
			return o
		}
	}
	t.Fatalf("no observation %s %q", typ, title)
	return nil
}

func TestAppendAfterAKilledWrite(t *testing.T) {
	l := newLog(t, "")
	observe(t, l, Pitfall, "npm ci wipes node_modules", 1, day0)
	f, err := os.OpenFile(l.s.Path(l.Rel()), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"pitfall","pattern":"npm ci wipes`) // the kill
	f.Close()
	observe(t, l, Pitfall, "npm ci wipes node_modules", 1, day0.Add(time.Hour))
	recs, st, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || st.Broken != 1 {
		t.Fatalf("%d records, %d broken; want 2 and 1", len(recs), st.Broken)
	}
	if o := load(t, l, Pitfall, "npm ci wipes node_modules"); o.Count != 2 || o.Status != Ready {
		t.Fatalf("after the broken line: %+v", o)
	}
	if l.Rel() != ".lore/local/observations.jsonl" {
		t.Fatalf("default log path %s", l.Rel())
	}
}

// All four targets, each recorded with its hash; pitfalls and decisions are
// valid items; a second render writes nothing.
func TestRenderTargets(t *testing.T) {
	l := newLog(t, "")
	observe(t, l, Workflow, "Release: tag, push, publish notes", 2, day0)
	observe(t, l, Workflow, "Release: tag, push, publish notes", 1, day0.Add(72*time.Hour))
	observe(t, l, Procedural, "Bisect a flaky test", 3, day0)
	observe(t, l, Procedural, "Bisect a flaky test", 1, day0.Add(5*24*time.Hour))
	observe(t, l, Decision, "Use SQLite for the cache", 2, day0)
	observe(t, l, Pitfall, "go test ./... caches results", 2, day0)
	observe(t, l, Pitfall, "not yet: seen once", 1, day0)
	out, _, err := l.Render(day0.Add(6 * 24 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		".lore/staged/commands/lore/release-tag-push-publish-notes.md": true,
		".lore/staged/skills/bisect-a-flaky-test/SKILL.md":             true,
		".lore/decisions/ADR-0001-use-sqlite-for-the-cache.md":         true,
		".lore/pitfalls/PF-0001-go-test-caches-results.md":             true,
	}
	if len(out) != len(want) {
		t.Fatalf("rendered %d, want %d: %+v", len(out), len(want), out)
	}
	m, err := l.readManifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Entries {
		if !want[e.Path] {
			t.Errorf("unexpected artifact %s", e.Path)
		}
		data, err := os.ReadFile(l.s.Path(e.Path))
		if err != nil || Hash(data) != e.ContentHash {
			t.Errorf("%s: %v, hash %s vs recorded %s", e.Path, err, Hash(data), e.ContentHash)
		}
		if strings.HasPrefix(e.Path, ".lore/") && !strings.HasPrefix(e.Path, StagedDir) {
			it, err := markdown.Parse(e.Path, data)
			if err != nil {
				t.Fatal(err)
			}
			if errs := markdown.Validate(it); len(errs) > 0 {
				t.Errorf("%s: %v", e.Path, errs[0])
			}
		}
	}
	for _, o := range []*Observation{load(t, l, Decision, "Use SQLite for the cache"), load(t, l, Pitfall, "go test ./... caches results")} {
		if o.Status != Created {
			t.Errorf("%s: status %s, want created", o.Pattern, o.Status)
		}
	}
	if o := load(t, l, Pitfall, "not yet: seen once"); o.Status != Observing {
		t.Errorf("seen once: %s", o.Status)
	}
	again, _, err := l.Render(day0.Add(7 * 24 * time.Hour))
	if err != nil || len(again) != 0 {
		t.Fatalf("second render: %v, %d written", err, len(again))
	}
}

func renderOne(t *testing.T, l *Log, typ, title string) string {
	t.Helper()
	observe(t, l, typ, title, 2, day0)
	out, _, err := l.Render(day0.Add(time.Hour))
	if err != nil || len(out) != 1 {
		t.Fatalf("render: %v, %d artifacts", err, len(out))
	}
	return out[0].Path
}

func TestReconcileDeletedIsPenalisedOnce(t *testing.T) {
	l := newLog(t, "")
	rel := renderOne(t, l, Pitfall, "docker build ignores .dockerignore in subfolders")
	if err := os.Remove(l.s.Path(rel)); err != nil {
		t.Fatal(err)
	}
	rep, err := l.Reconcile(day0.Add(2 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Deleted) != 1 || rep.Deleted[0] != rel {
		t.Fatalf("report %+v", rep)
	}
	o := load(t, l, Pitfall, "docker build ignores .dockerignore in subfolders")
	if o.Status != Deprecated || o.Confidence != 0.28 { // 0.95 x 0.3
		t.Fatalf("after deletion: %s %.2f", o.Status, o.Confidence)
	}
	m, _ := l.readManifest()
	if len(m.Entries) != 0 {
		t.Fatalf("manifest still lists %+v", m.Entries)
	}
	// A kill after the log record but before the manifest write: the next
	// reconcile records the same penalty again, which applies once.
	if err := l.mark(o, Deprecated, DeletePenalty, rel+"@x", day0); err != nil {
		t.Fatal(err)
	}
	rep, err = l.Reconcile(day0.Add(3 * time.Hour))
	if err != nil || len(rep.Deleted) != 0 {
		t.Fatalf("second reconcile: %v %+v", err, rep)
	}
	observe(t, l, Pitfall, "docker build ignores .dockerignore in subfolders", 3, day0.Add(4*time.Hour))
	out, _, err := l.Render(day0.Add(5 * time.Hour))
	if err != nil || len(out) != 0 {
		t.Fatalf("a deprecated observation rendered again: %v %+v", err, out)
	}
}

func TestReconcileEditedIsLeftAlone(t *testing.T) {
	l := newLog(t, "")
	rel := renderOne(t, l, Decision, "Regenerate the protobufs in CI")
	if err := os.WriteFile(l.s.Path(rel), []byte("my own words\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := l.Reconcile(day0.Add(2 * time.Hour))
	if err != nil || len(rep.Edited) != 1 || len(rep.Deleted)+len(rep.Healed)+rep.Unchanged != 0 {
		t.Fatalf("%v %+v", err, rep)
	}
	if o := load(t, l, Decision, "Regenerate the protobufs in CI"); o.Status != Created || o.Confidence != 0.95 {
		t.Fatalf("edited: %s %.2f", o.Status, o.Confidence)
	}
	if data, _ := os.ReadFile(l.s.Path(rel)); string(data) != "my own words\n" {
		t.Fatalf("the edit was overwritten: %q", data)
	}
}

var errCrash = errors.New("killed")

// crashAfterArtifact makes the next render stop right after its first
// artifact write, as a kill would.
func crashAfterArtifact(t *testing.T) {
	old := afterArtifact
	afterArtifact = func(string) error { return errCrash }
	t.Cleanup(func() { afterArtifact = old })
}

func TestCrashBetweenWriteAndRecordHeals(t *testing.T) {
	for _, typ := range Types {
		t.Run(typ, func(t *testing.T) {
			l := newLog(t, "")
			title := "Always pass -race to go test"
			observe(t, l, typ, title, 3, day0)
			observe(t, l, typ, title, 1, day0.Add(6*24*time.Hour))
			crashAfterArtifact(t)
			if _, _, err := l.Render(day0.Add(7 * 24 * time.Hour)); !errors.Is(err, errCrash) {
				t.Fatalf("render: %v", err)
			}
			afterArtifact = func(string) error { return nil }
			m, _ := l.readManifest()
			if o := load(t, l, typ, title); len(m.Entries) != 0 || o.Status != Ready {
				t.Fatalf("after the crash: manifest %+v, status %s", m.Entries, o.Status)
			}
			rep, err := l.Reconcile(day0.Add(8 * 24 * time.Hour))
			if err != nil || len(rep.Healed) != 1 {
				t.Fatalf("reconcile: %v %+v", err, rep)
			}
			m, _ = l.readManifest()
			if o := load(t, l, typ, title); len(m.Entries) != 1 || m.Entries[0].Path != rep.Healed[0] || o.Status != Created {
				t.Fatalf("after healing: manifest %+v, status %s", m.Entries, o.Status)
			}
			out, _, err := l.Render(day0.Add(9 * 24 * time.Hour))
			if err != nil || len(out) != 0 {
				t.Fatalf("render after healing wrote %+v (%v)", out, err)
			}
		})
	}
}

// A kill after the manifest write but before the log's created record: the
// manifest entry heals the observation.
func TestCrashBetweenManifestAndLogHeals(t *testing.T) {
	l := newLog(t, "")
	rel := renderOne(t, l, Pitfall, "make clean deletes the vendored SDK")
	path := l.s.Path(l.Rel())
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], `"status":"created"`) {
		t.Fatalf("last log line is not the created record: %s", lines[len(lines)-1])
	}
	os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644)
	if o := load(t, l, Pitfall, "make clean deletes the vendored SDK"); o.Status != Ready {
		t.Fatalf("status %s", o.Status)
	}
	rep, err := l.Reconcile(day0.Add(2 * time.Hour))
	if err != nil || len(rep.Healed) != 1 || rep.Healed[0] != rel {
		t.Fatalf("%v %+v", err, rep)
	}
	if o := load(t, l, Pitfall, "make clean deletes the vendored SDK"); o.Status != Created {
		t.Fatalf("status %s", o.Status)
	}
}

func writeOrphan(t *testing.T, l *Log, rel, title string) {
	t.Helper()
	data, err := markdown.Compose([]markdown.Field{
		{Key: "id", Value: "01HV0000000000000000000000"}, {Key: "kind", Value: "pitfall"}, {Key: "title", Value: title},
		{Key: "status", Value: "active"}, {Key: "source", Value: map[string]any{"type": "observation"}},
	}, "## Issue\nx\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.s.WriteLocked(rel, data); err != nil {
		t.Fatal(err)
	}
}

func TestOrphanWithNoOrSeveralMatchesIsLeftAlone(t *testing.T) {
	l := newLog(t, "")
	long := "The deploy script fails when the AWS profile is unset"
	observe(t, l, Pitfall, long+" in CI", 2, day0)
	observe(t, l, Pitfall, long+" on laptops", 2, day0)
	writeOrphan(t, l, ".lore/pitfalls/PF-0007-deploy.md", long) // matches both
	writeOrphan(t, l, ".lore/pitfalls/PF-0008-other.md", "Something nobody observed")
	handmade := ".lore/pitfalls/PF-0009-hand.md"
	os.WriteFile(l.s.Path(handmade), []byte("---\nkind: pitfall\ntitle: "+long+" in CI\n---\n"), 0o644) // no source marker
	rep, err := l.Reconcile(day0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Healed) != 0 || len(rep.Ambiguous) != 1 || rep.Ambiguous[0] != ".lore/pitfalls/PF-0007-deploy.md" ||
		len(rep.Unmatched) != 1 || rep.Unmatched[0] != ".lore/pitfalls/PF-0008-other.md" {
		t.Fatalf("report %+v", rep)
	}
	if o := load(t, l, Pitfall, long+" in CI"); o.Status != Ready {
		t.Fatalf("status %s", o.Status)
	}
}

// Two clones of a shared log each add a sighting; a real git merge keeps
// both lines (merge=union) and the counts add up to a ready observation.
func TestSharedLogMergesAcrossClones(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the git CLI is the oracle here")
	}
	origin := testrepo.New(t)
	origin.Write(".lore/config.yaml", "share: true\n")
	const title = "Run migrations before the integration tests"
	l := openLog(t, origin.Dir)
	if !l.Share || l.Rel() != ".lore/observations.jsonl" || l.ManifestRel() != ".lore/render.json" {
		t.Fatalf("shared paths: %s %s", l.Rel(), l.ManifestRel())
	}
	observe(t, l, Procedural, title, 1, day0)
	if attrs, _ := os.ReadFile(origin.Path(".gitattributes")); string(attrs) != "/.lore/observations.jsonl merge=union\n" {
		t.Fatalf(".gitattributes = %q", attrs)
	}
	origin.Commit("", "first sighting")
	dir := t.TempDir()
	a, b := origin.Clone(filepath.Join(dir, "a")), origin.Clone(filepath.Join(dir, "b"))
	observe(t, openLog(t, a.Dir), Procedural, title, 1, day0.Add(2*24*time.Hour))
	a.Git("commit", "-qam", "a saw it")
	observe(t, openLog(t, b.Dir), Procedural, title, 1, day0.Add(5*24*time.Hour))
	b.Git("commit", "-qam", "b saw it")
	b.Git("pull", "-q", "--no-rebase", a.Dir, "main")
	if st := b.Git("status", "--porcelain"); st != "" {
		t.Fatalf("merge left changes: %s", st)
	}
	lb := openLog(t, b.Dir)
	if o := load(t, lb, Procedural, title); o.Count != 3 || o.Confidence != 0.75 || o.Status != Ready || DaySpread(o.FirstSeen, o.LastSeen) != 5 {
		t.Fatalf("merged: count %d confidence %.2f status %s", o.Count, o.Confidence, o.Status)
	}
	// The same ancestor line is not counted twice.
	if recs, _, _ := lb.Read(); len(recs) != 3 {
		t.Fatalf("%d records after the merge, want 3", len(recs))
	}
}
