package consolidate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
)

func report(lines int, last *int, ageList ...int) *ages.Report {
	r := &ages.Report{File: "l.md", Lines: lines, Today: "2026-02-01"}
	if last != nil {
		r.LastConsolidation = &ages.Consolidation{Commit: "c", Date: "2026-01-01", ActiveDays: *last}
	}
	for i, a := range ageList {
		r.Entries = append(r.Entries, ages.Entry{Title: fmt.Sprint("e", i), Line: 11 + 3*i, Age: a, Added: fmt.Sprintf("2026-01-%02d", 28-a)})
	}
	return r
}

func TestTriggerBoundaries(t *testing.T) {
	c := config.Default().Consolidate
	ip := func(n int) *int { return &n }
	for _, tc := range []struct {
		rep  *ages.Report
		want bool
		why  string
	}{
		{report(149, ip(0)), false, "<= 150"},
		{report(150, ip(0)), false, "<= 150"},
		{report(151, ip(0)), true, "size"},
		{report(10, ip(13)), false, "13 active days ago (< 14)"},
		{report(10, ip(14)), true, "staleness: last consolidation 14"},
		{report(10, nil, 13, 2), false, "no prior consolidation and the oldest entry is 13"},
		{report(10, nil, 14, 2), true, "oldest entry is 14 active days old (>= 14)"},
		{report(0, nil), false, "oldest entry is 0"},
	} {
		got, why := consolidate.Trigger(tc.rep, c)
		if got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("lines %d: got %v %q, want %v %q", tc.rep.Lines, got, why, tc.want, tc.why)
		}
	}
}

func TestBatchBoundaries(t *testing.T) {
	c := config.Default().Consolidate // freshness 7, keepRecent 3
	batch, kept := consolidate.Batch(report(10, nil, 7, 6, 9, 0, 1, 2, 8), c)
	var got []int
	for _, e := range batch {
		got = append(got, e.Age)
	}
	if fmt.Sprint(got) != "[9 8 7]" || len(kept) != 3 || kept[0].Age != 0 {
		t.Fatalf("batch ages %v kept %+v", got, kept)
	}
	// keepRecent wins over freshness: with 4 old entries and keepRecent 3, one is batched.
	batch, _ = consolidate.Batch(report(10, nil, 20, 19, 18, 17), c)
	if len(batch) != 1 || batch[0].Age != 20 {
		t.Fatalf("keepRecent: %+v", batch)
	}
}

func TestMinBatch(t *testing.T) {
	// Two qualifying entries skip, three run (checked end to end in Run).
	r, s, cfg := fixture(t, "consolidate:\n  minBatch: 7\n")
	res, err := consolidate.Run(s, cfg, consolidate.Options{DryRun: true, Today: r.today()})
	if err != nil || !res.Triggered || res.Ran || !strings.Contains(res.Reason, "only 6 entries") {
		t.Fatalf("minBatch 7 with 6 qualifying: %+v %v", res, err)
	}
	cfg.Consolidate.MinBatch = 6
	res, err = consolidate.Run(s, cfg, consolidate.Options{DryRun: true, Today: r.today()})
	if err != nil || !res.Ran {
		t.Fatalf("minBatch 6 with 6 qualifying: %+v %v", res, err)
	}
}

func TestAgentFiles(t *testing.T) {
	files := consolidate.AgentFiles()
	for _, name := range []string{consolidate.RememberAgent, consolidate.RefactorAgent} {
		data := string(files[name+".md"])
		if !strings.HasPrefix(data, "---\nname: "+name+"\n") || !strings.Contains(data, "\ntools: [") || !strings.Contains(data, "\ndescription: ") {
			t.Errorf("%s.md: bad agent definition:\n%.200s", name, data)
		}
	}
	if len(files) != 2 {
		t.Fatalf("agent files %d", len(files))
	}
}
