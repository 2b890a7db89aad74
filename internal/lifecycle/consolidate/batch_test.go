package consolidate_test

import (
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
)

// TestRedundancyInsideTheBatch: two batch entries saying the same (the
// same body under another title) make one pitfall, not PF-0001 and
// PF-0002; and "We no longer use tox", one of the kept newest, supersedes
// "Use tox for the test matrix" in the batch. The report names both.
func TestRedundancyInsideTheBatch(t *testing.T) {
	r := newRepo(t)
	same := "kind: pitfall\nThe integration tests share one database; run them with -p 1 or they deadlock."
	batch := [][2]string{
		{"Integration tests deadlock", same},
		{"Use tox for the test matrix", "Use tox for the test matrix across Python versions."},
		{"Integration tests share a database", same},
		{"Lint before commit", "Run make lint before each commit."},
	}
	kept := [][2]string{
		{"We no longer use tox", "We no longer use tox: the test matrix runs with nox now."},
		{"Recent two", "Prefer table tests."},
		{"Recent three", "Keep fixtures small."},
	}
	res := consolidateHistory(t, r, batch, kept)
	var pitfalls []string
	for _, ro := range res.Routed {
		if strings.Contains(ro.Target, "/pitfalls/") {
			pitfalls = append(pitfalls, ro.Target)
		}
	}
	if len(pitfalls) != 1 || pitfalls[0] != ".lore/pitfalls/PF-0001-integration-tests-deadlock.md" {
		t.Errorf("pitfalls written: %v, want only PF-0001", pitfalls)
	}
	if len(res.Superseded) != 1 || res.Superseded[0].Title != "Use tox for the test matrix" {
		t.Errorf("superseded: %+v", res.Superseded)
	}
	report := r.Read("tmp/consolidation-report.md")
	for _, want := range []string{
		`- Integration tests share a database: already said by .lore/pitfalls/PF-0001-integration-tests-deadlock.md (made from "Integration tests deadlock" in this batch) (score 1.00): 100% of its content words are already there`,
		`- Use tox for the test matrix: superseded by We no longer use tox (kept in staging) (score `,
		`the newer entry replaces it ("no longer")`,
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(r.Read(rel), "## Use tox for the test matrix") || strings.Contains(r.Read(rel), "## Integration tests share a database") {
		t.Error("a dropped entry stays in staging")
	}
	if !strings.Contains(r.Read(rel), "## We no longer use tox") {
		t.Error("the kept entry left staging")
	}
}

// Two entries that differ only in a figure are two facts: neither is
// dropped as already said (the parallel-writers suite lost one).
func TestRedundancyKeepsOtherFigures(t *testing.T) {
	r := newRepo(t)
	batch := [][2]string{
		{"bcrypt at 12 rounds in the login tests", "kind: pitfall\nbcrypt with 12 rounds makes each login test wait on the hash."},
		{"bcrypt at 10 rounds in the login tests", "kind: pitfall\nbcrypt with 10 rounds makes each login test wait on the hash."},
		{"Lint before commit", "Run make lint before each commit."},
	}
	kept := [][2]string{{"Recent one", "Prefer table tests."}, {"Recent two", "Keep fixtures small."}, {"Recent three", "Name tests by behaviour."}}
	res := consolidateHistory(t, r, batch, kept)
	if len(res.Redundant) != 0 {
		t.Errorf("dropped as redundant: %+v", res.Redundant)
	}
	var pitfalls int
	for _, ro := range res.Routed {
		if strings.Contains(ro.Target, "/pitfalls/") {
			pitfalls++
		}
	}
	if pitfalls != 2 {
		t.Errorf("%d pitfalls routed, want 2: %+v", pitfalls, res.Routed)
	}
}

// consolidateHistory commits batch, fourteen active days, then kept as
// learnings (repo.history), and consolidates them.
func consolidateHistory(t *testing.T, r *repo, batch, kept [][2]string) *consolidate.Result {
	t.Helper()
	r.history(batch, kept)
	s := r.Store()
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	res, err := consolidate.Run(s, cfg, consolidate.Options{Today: r.today()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
