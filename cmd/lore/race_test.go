package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// raceRounds is how many times TestParallelWritersHoldOpen starts its 19
// writers; each round costs about a second, the writers taking turns.
const raceRounds = 5

// TestParallelWritersHoldOpen starts 19 lore processes of every writing
// kind at once on one repository, each waiting 20 ms before it takes the
// store lock and 20 ms while it holds it (LORE_TEST_LOCK_HOLD), which holds
// open any window between a read and the write that depends on it. Nothing
// may be lost (every added item and learning is in the store, each seeded
// or learned learning is in learnings.md or in the item consolidation made
// of it; the signals, the sighting, the rejection, the promotion and the
// skill are recorded, each ADR of the folder two imports read at once is
// imported once, the export's block sits in the user's AGENTS.md) and no
// PF-/ADR- number or id may be held twice, even with lint --fix
// renumbering a duplicate at the same time.
func TestParallelWritersHoldOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("race suite: runs writers in parallel processes; make test runs it")
	}
	fixtures := crashFixtures(t)
	seeded := []string{"Flaky network tests", "Lint before commit"}
	learned := []string{"bcrypt with 12 rounds cost 800 ms per hash; 10 rounds cost 200 ms",
		"Run the integration tests before the watcher: they caught a missing error handler",
		"Never mock the clock in the token tests", "Keep JWTs in httpOnly cookies, not localStorage"}
	c := crashCase{
		files: map[string]string{".lore/config.yaml": "consolidate.yaml", "t/session.jsonl": "session.jsonl", "summary.md": "summary.md",
			".lore/pitfalls/PF-0001-npm-ci.md": "pf-a.md", ".lore/pitfalls/PF-0001-go-generate.md": "pf-b.md",
			".lore/lessons/s1.md": "skill1.md", ".lore/lessons/s2.md": "skill2.md", ".lore/lessons/s3.md": "skill3.md",
			".lore/lessons/s4.md": "skill4.md", ".lore/lessons/s5.md": "skill5.md", "AGENTS.md": "agents.md",
			"docs/adr/0001-record-architecture-decisions.md": "adr1.md", "docs/adr/0002-keep-the-cache-in-sqlite.md": "adr2.md",
			"docs/adr/0003-keep-the-cache-in-files.md": "adr3.md"},
		setup: [][]string{{"init", "--no-git-hooks"},
			{"add", "learning", seeded[0], "--as", "pitfall", "--body", "Network tests flake on CI runners; mark them with the network tag."},
			{"add", "learning", seeded[1], "--as", "decision", "--body", "Run make lint before each commit."},
			{"add", "lesson", "draft to promote", "--status", "draft", "--fix", "Promote me."},
			{"add", "lesson", "draft to reject", "--status", "draft", "--fix", "Reject me."},
			{"observe", "pitfall", "go generate needs stringer", "--at", "2026-03-01"},
			{"observe", "pitfall", "go generate needs stringer", "--at", "2026-03-02"}},
	}
	for round := 0; round < raceRounds; round++ {
		dir := crashTemplate(t, c, fixtures)
		var writers [][]string
		var items, learnings []string
		for i := 0; i < 2; i++ {
			items = append(items, fmt.Sprintf("pitfall number %d of round %d", i, round))
			writers = append(writers, []string{"add", "pitfall", items[len(items)-1], "--issue", "It happens."})
			learnings = append(learnings, fmt.Sprintf("learning number %d of round %d", i, round))
			writers = append(writers, []string{"add", "learning", learnings[len(learnings)-1], "--as", "pitfall", "--body", fmt.Sprintf("Entry %d says something of its own.", i)})
		}
		items = append(items, "a decision of round "+fmt.Sprint(round), "a lesson of round "+fmt.Sprint(round), "draft to promote")
		writers = append(writers, []string{"add", "decision", items[2], "--decision", "We do it."},
			[]string{"add", "lesson", items[3], "--fix", "Do it right."},
			[]string{"consolidate", "--today", "2026-03-02"},
			[]string{"scan", "t/session.jsonl"},
			[]string{"render"},
			[]string{"signal", "emit", "FEEDBACK", "a signal emitted in parallel"},
			[]string{"observe", "workflow", "release notes from the changelog", "--at", "2026-03-02"},
			[]string{"learn", "--key", "phase-3", "--from", "summary.md"},
			[]string{"lint", "--fix"},
			[]string{"promote", "draft-to-promote"},
			[]string{"reject", "draft-to-reject"},
			[]string{"aggregate"},
			[]string{"import", "adr"},
			[]string{"import", "adr"},
			[]string{"export", "agents"})
		if len(writers) != 19 {
			t.Fatalf("%d writers, want 19", len(writers))
		}
		var wg sync.WaitGroup
		outs := make([]string, len(writers))
		codes := make([]int, len(writers))
		for i, args := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i], outs[i] = runHeld(t, dir, args)
			}()
		}
		wg.Wait()
		for i := range writers {
			if codes[i] != 0 {
				t.Fatalf("round %d: lore %v: exit %d\n%s", round, writers[i], codes[i], outs[i])
			}
		}
		checkNothingLost(t, dir, round, items, slices.Concat(learnings, seeded, learned))
		checkInterop(t, dir, round)
	}
	t.Logf("%d rounds of 19 parallel writers with the lock windows held open: 0 lost, 0 duplicate refs or ids", raceRounds)
}

// runHeld runs lore with the lock windows held open for 20 ms.
func runHeld(t *testing.T, dir string, args []string) (int, string) {
	return runEnv(t, dir, args, "LORE_TEST_LOCK_HOLD=20ms")
}

func checkNothingLost(t *testing.T, dir string, round int, items, learnings []string) {
	t.Helper()
	s, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	all, errs := s.Load()
	if len(errs) > 0 {
		t.Fatalf("round %d: %v", round, errs)
	}
	titles := map[string]bool{}
	refs := map[string]string{}
	ids := map[string]string{}
	for _, it := range all {
		titles[it.Title] = true
		if prev, ok := ids[it.ID]; ok {
			t.Fatalf("round %d: id %s in %s and %s", round, it.ID, prev, it.Path)
		}
		ids[it.ID] = it.Path
		if it.Ref == "" {
			continue
		}
		if prev, ok := refs[it.Ref]; ok {
			t.Fatalf("round %d: %s in %s and %s", round, it.Ref, prev, it.Path)
		}
		refs[it.Ref] = it.Path
		if markdown.RefNumber(filepath.Base(it.Path)) != markdown.RefNumber(it.Ref) {
			t.Fatalf("round %d: %s holds ref %s", round, it.Path, it.Ref)
		}
	}
	for _, title := range items {
		if !titles[title] {
			t.Fatalf("round %d: item %q lost", round, title)
		}
	}
	staged, err := os.ReadFile(filepath.Join(dir, ".lore", "learnings.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range learnings {
		if !titles[title] && !strings.Contains(string(staged), "\n## "+title+"\n") {
			t.Fatalf("round %d: learning %q is neither in learnings.md nor an item", round, title)
		}
	}
	for _, want := range []struct{ file, text string }{
		{".lore/local/signals.jsonl", "a signal emitted in parallel"},
		{".lore/local/signals.jsonl", "phase-3: 4 learning(s) captured"},
		{".lore/local/observations.jsonl", "release notes from the changelog"},
		{".lore/rejected", "draft to reject"},
		{".lore/skills/pytest.md", "pytest needs a TTY 5"},
		{".lore/lessons/draft-to-promote.md", "\nstatus: active\n"},
	} {
		if data, _ := os.ReadFile(filepath.Join(dir, want.file)); !strings.Contains(string(data), want.text) {
			t.Fatalf("round %d: %q lost from %s", round, want.text, want.file)
		}
	}
	if len(refs) < 8 {
		t.Fatalf("round %d: only %d refs: %v", round, len(refs), refs)
	}
}

// checkInterop: each ADR of the folder is one item (however many imports
// ran at once), and AGENTS.md holds one managed block between the user's
// text.
func checkInterop(t *testing.T, dir string, round int) {
	t.Helper()
	s, err := gitstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := s.Load()
	imported := map[string][]string{}
	for _, it := range all {
		if n := it.Node("imported"); n != nil {
			imported[n.Value] = append(imported[n.Value], it.Path)
		}
	}
	for _, name := range []string{"0001-record-architecture-decisions.md", "0002-keep-the-cache-in-sqlite.md", "0003-keep-the-cache-in-files.md"} {
		if got := imported["adr:docs/adr/"+name]; len(got) != 1 {
			t.Fatalf("round %d: %s imported %d times: %v", round, name, len(got), got)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "AGENTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "# Agents\n\nBuild with make; run the tests with make test.\n\n<!-- lore:begin") ||
		!strings.HasSuffix(text, "<!-- lore:end -->\n\n## Review\n\nAsk for one review; keep this text as it is.\n") ||
		strings.Count(text, "<!-- lore:begin") != 1 || strings.Contains(text, "A stale rule") || !strings.Contains(text, "## npm ci wipes node_modules\n") {
		t.Fatalf("round %d: AGENTS.md is not the user's text around one fresh block:\n%s", round, text)
	}
}
