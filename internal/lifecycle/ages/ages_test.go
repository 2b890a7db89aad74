package ages_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/lifecycle/ages"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

const rel = ".lore/learnings.md"

// linear: time zones near midnight, body edits, a reorder, a heading edit,
// a removal-only commit, days without commits, an uncommitted entry.
func linear(t *testing.T) *testrepo.Repo {
	r := testrepo.New(t)
	r.Write(rel, learnings("A", "B"))
	r.Commit("2026-01-05T23:30:00+09:00", "add A B")
	r.Write(rel, learnings("A|A body edited.", "B", "C"))
	r.Commit("2026-01-06T00:10:00-08:00", "add C, edit A")
	r.Write(rel, learnings("C", "A|A body edited.", "B"))
	r.Commit("2026-01-06T23:59:59-08:00", "reorder")
	r.Write(rel, learnings("C", "A|A body edited.", "B renamed"))
	r.Commit("2026-01-10T00:00:01+14:00", "edit heading B")
	r.Write(rel, learnings("C", "B renamed"))
	r.Commit("2026-01-12T12:00:00Z", "consolidate A")
	r.Write("other.txt", "x")
	r.Commit("2026-01-12T13:00:00Z", "unrelated")
	r.Write(rel, learnings("C", "B renamed", "D"))
	r.Commit("2026-01-13T01:00:00+01:00", "add D")
	r.Write(rel, learnings("C", "B renamed", "D", "E"))
	return r
}

func TestLinearMatchesOracle(t *testing.T) {
	r := linear(t)
	rep := check(t, r, rel, "2026-01-20", false)
	got := titles(rep)
	want := []string{"B renamed=2", "C=3", "D=0", "E=0"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ages %v, want %v", got, want)
	}
	if rep.LastConsolidation == nil || rep.LastConsolidation.Date != "2026-01-12" || rep.LastConsolidation.ActiveDays != 1 {
		t.Fatalf("last consolidation %+v", rep.LastConsolidation)
	}
	if rep.Entries[3].Commit != "" || rep.Entries[3].Added != "2026-01-20" {
		t.Fatalf("uncommitted entry %+v", rep.Entries[3])
	}
}

// merges: an entry added on a branch, one added while resolving a conflict;
// no heading moves, so git blame must agree too.
func TestMergesMatchOracleAndBlame(t *testing.T) {
	r := testrepo.New(t)
	r.Write(rel, learnings("A", "B"))
	r.Commit("2026-02-01T10:00:00Z", "base")
	r.Git("checkout", "-q", "-b", "feature")
	r.Write(rel, learnings("A", "F", "B"))
	r.Commit("2026-02-02T10:00:00-05:00", "branch adds F")
	r.Git("checkout", "-q", "main")
	r.Write(rel, learnings("A", "B", "M|Main body."))
	r.Commit("2026-02-03T10:00:00Z", "main adds M")
	if err := merge(r, "2026-02-04T10:00:00Z", "feature"); err != nil {
		t.Fatal(err)
	}
	r.Git("checkout", "-q", "-b", "two")
	r.Write(rel, learnings("A", "F", "B", "M|Main body.", "X"))
	r.Commit("2026-02-05T23:00:00-03:00", "branch adds X")
	r.Git("checkout", "-q", "main")
	r.Write(rel, learnings("A", "F", "B", "M|Main body.", "Y"))
	r.Commit("2026-02-06T10:00:00Z", "main adds Y")
	if err := merge(r, "2026-02-08T10:00:00Z", "two"); err == nil {
		t.Fatal("expected a conflict")
	}
	r.Write(rel, learnings("A", "F", "B", "M|Main body.", "X", "Y", "Z|Added while resolving."))
	merge := r.Commit("2026-02-08T10:00:00Z", "merge two, add Z")
	rep := check(t, r, rel, "2026-02-10", true)
	for _, e := range rep.Entries {
		if e.Title == "Z" && e.Commit != merge {
			t.Fatalf("Z origin %s, want the merge %s", e.Commit, merge)
		}
	}
	if rep.LastConsolidation != nil {
		t.Fatalf("no heading was removed, got %+v", rep.LastConsolidation)
	}
}

// renames: the file moves twice, once with an edit in the same commit.
func TestRenamesMatchOracleAndBlame(t *testing.T) {
	r := testrepo.New(t)
	r.Write("agents/learnings.md", learnings("A", "B"))
	r.Commit("2026-03-01T10:00:00Z", "add")
	r.Write("agents/learnings.md", learnings("A", "B", "C"))
	r.Commit("2026-03-02T10:00:00Z", "add C")
	r.Mkdir(".lore")
	r.Git("mv", "agents/learnings.md", rel)
	r.Commit("2026-03-03T10:00:00Z", "move")
	r.Write(rel, learnings("A", "B", "C", "D"))
	r.Commit("2026-03-04T10:00:00Z", "add D")
	r.Git("mv", rel, ".lore/staging.md")
	r.Write(".lore/staging.md", learnings("A", "B|B edited.", "C", "D"))
	r.Commit("2026-03-05T10:00:00Z", "rename with edit")
	rep := check(t, r, ".lore/staging.md", "2026-03-09", true)
	if got, want := titles(rep), []string{"A=4", "B=4", "C=3", "D=1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ages %v, want %v", got, want)
	}
}

func TestEmptyFile(t *testing.T) {
	r := testrepo.New(t)
	r.Write(rel, "")
	r.Commit("2026-01-01T00:00:00Z", "empty")
	rep := check(t, r, rel, "2026-01-02", true)
	if rep.Lines != 0 || len(rep.Entries) != 0 || rep.LastConsolidation != nil {
		t.Fatalf("empty file report %+v", rep)
	}
}

func TestShallowCloneCountsWhatIsThere(t *testing.T) {
	src := linear(t)
	src.Git("add", "-A")
	src.Commit("2026-01-14T10:00:00Z", "add E")
	r := src.Clone(filepath.Join(t.TempDir(), "clone"), "--depth", "3")
	rep := check(t, r, rel, "2026-01-20", false)
	if !rep.Shallow {
		t.Fatal("shallow clone not reported")
	}
}

func TestCacheIsDerivedAndIncremental(t *testing.T) {
	r := linear(t)
	s := r.Store()
	cold, err := s.History(rel)
	if err != nil || cold.Cached {
		t.Fatalf("cold: %+v %v", cold, err)
	}
	warm, err := s.History(rel)
	if err != nil || !warm.Cached {
		t.Fatalf("warm run did not use the cache: %+v %v", warm, err)
	}
	warm.Cached, warm.Walked = false, cold.Walked
	if !reflect.DeepEqual(cold, warm) {
		t.Fatalf("warm %+v != cold %+v", warm, cold)
	}
	// Corrupt cache: same answers.
	files, _ := filepath.Glob(filepath.Join(s.CacheDir(), "ages-*"))
	if len(files) != 2 {
		t.Fatalf("cache files %v", files)
	}
	for _, f := range files {
		if err := os.WriteFile(f, []byte("{garbage"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	again, err := s.History(rel)
	again.Walked = cold.Walked
	if err != nil || again.Cached || !reflect.DeepEqual(again, cold) {
		t.Fatalf("after corruption: %+v %v", again, err)
	}
	// New commits: the incremental answer equals a full walk and the oracle.
	r.Git("add", "-A")
	r.Commit("2026-01-15T10:00:00Z", "add E")
	r.Write(rel, learnings("B renamed", "D", "E", "F"))
	r.Commit("2026-01-16T10:00:00Z", "drop C, add F")
	h, err := s.History(rel)
	if err != nil || h.Walked > 3 {
		t.Fatalf("two new commits decoded %d commits (want <= 3, the new ones and the cached HEAD): %v", h.Walked, err)
	}
	incr := check(t, r, rel, "2026-01-20", false)
	os.RemoveAll(s.CacheDir())
	full := check(t, r, rel, "2026-01-20", false)
	if !reflect.DeepEqual(incr, full) {
		t.Fatalf("incremental %+v != full %+v", incr, full)
	}
}

func TestActiveDaysBoundaries(t *testing.T) {
	dates := []string{"2026-01-01", "2026-01-02", "2026-01-03", "2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08", "2026-01-09"}
	for _, tc := range []struct {
		since, today string
		want         int
	}{
		{"2026-01-09", "2026-01-09", 0}, // added today
		{"2026-01-02", "2026-01-09", 6},
		{"2026-01-01", "2026-01-09", 7}, // exactly 7 active days
		{"2026-01-01", "2026-01-04", 2}, // a day without commits
		{"2025-12-31", "2026-01-09", 8},
		{"2026-01-10", "2026-01-09", 0}, // today before the date
	} {
		if got := ages.ActiveDays(dates, tc.since, tc.today); got != tc.want {
			t.Errorf("ActiveDays(%s, %s) = %d, want %d", tc.since, tc.today, got, tc.want)
		}
	}
}

func TestFailures(t *testing.T) {
	if _, err := gitstore.Open(t.TempDir()); err == nil {
		t.Fatal("not a repository: no error")
	}
	r := testrepo.New(t)
	s := r.Store()
	if _, err := ages.Load(s, rel, "2026-01-01"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing file: %v", err)
	}
	// No commits yet: every entry is uncommitted.
	r.Write(rel, learnings("A"))
	rep, err := ages.Load(s, rel, "2026-01-01")
	if err != nil || len(rep.Entries) != 1 || rep.Entries[0].Commit != "" || rep.Entries[0].Age != 0 {
		t.Fatalf("unborn HEAD: %+v %v", rep, err)
	}
	js, _ := json.Marshal(rep)
	if !strings.Contains(string(js), `"lastConsolidation":null`) || !strings.Contains(string(js), `"commit":""`) {
		t.Fatalf("json %s", js)
	}
}
