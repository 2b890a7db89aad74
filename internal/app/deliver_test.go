package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/capture/review"
	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/lifecycle/consolidate"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/testrepo"
)

// drafts returns the paths of the store's drafts.
func drafts(t *testing.T, s *gitstore.Store) map[string]bool {
	t.Helper()
	items, err := review.Drafts(s)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, it := range items {
		out[it.Path] = true
	}
	return out
}

// since runs step and returns the drafts it added.
func since(t *testing.T, s *gitstore.Store, step func() error) []string {
	t.Helper()
	before := drafts(t, s)
	if err := step(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range drafts(t, s) {
		if !before[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// originStore is a repository with drafts of every origin: scan Tier 1 and
// Tier 2 (the real and labelled transcripts), import (real rule files and
// ADRs), observe/render and consolidate (an old learnings file).
func originStore(t *testing.T) (*gitstore.Store, map[string][]string) {
	r := testrepo.New(t)
	var learn strings.Builder
	learn.WriteString("# Learnings\n\nStaging.\n\n\n\n\n\n\n\n")
	for _, e := range []string{"Lint before commit", "Cache go modules in CI", "Prefer table tests", "Vendor nothing", "Pin the linter", "Name tests by behaviour", "Keep fixtures small", "Tag releases"} {
		fmt.Fprintf(&learn, "## %s\n%s, always.\n\n", e, e)
	}
	r.Write(".lore/learnings.md", learn.String())
	day := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	r.Commit(day.Format(time.RFC3339), "learnings")
	for i := 1; i <= 15; i++ {
		r.Write("work.txt", fmt.Sprint(i))
		r.Commit(day.AddDate(0, 0, i).Format(time.RFC3339), "work")
	}
	s := r.Store()
	if _, err := Init(s, InitOptions{}); err != nil {
		t.Fatal(err)
	}
	origins := map[string][]string{}
	res, err := scan.Scan(scanFiles(t), nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for tier := 1; tier <= 2; tier++ {
		var cands []scan.Candidate
		for _, c := range res.Candidates {
			if c.Tier == tier {
				cands = append(cands, c)
			}
		}
		origins[fmt.Sprintf("scan tier %d", tier)] = since(t, s, func() error { _, err := review.Write(s, cands, time.Now()); return err })
	}
	origins["import"] = since(t, s, func() error {
		for _, src := range []string{"ddev/CLAUDE.md", "gemini-cli/GEMINI.md", "lessons-learned-repo/AGENTS.md", "adr-tools/doc/adr", "lessons-learned/lesson-manifest.json"} {
			if _, err := Import(s, ImportOptions{Source: filepath.Join("..", "integrate", "interop", "testdata", src), Dir: "."}); err != nil {
				return fmt.Errorf("%s: %w", src, err)
			}
		}
		return nil
	})
	origins["observe/render"] = since(t, s, func() error {
		for _, o := range []ObserveOptions{{Type: "pitfall", Pattern: "go test ./... caches results", Count: 2}, {Type: "decision", Pattern: "Use SQLite for the cache", Count: 2}} {
			o.At, o.Quality = time.Now().AddDate(0, 0, -6), true
			if _, err := Observe(s, o); err != nil {
				return err
			}
		}
		_, err := Render(s)
		return err
	})
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	origins["consolidate"] = since(t, s, func() error {
		res, err := consolidate.Run(s, cfg, consolidate.Options{Today: day.AddDate(0, 0, 15).Format("2006-01-02")})
		if err == nil && !res.Ran {
			err = fmt.Errorf("consolidate did not run: %s", res.Reason)
		}
		return err
	})
	return s, origins
}

func scanFiles(t *testing.T) []string {
	t.Helper()
	files, err := scan.Files([]string{filepath.Join("..", "capture", "scan", "testdata", "transcripts"), filepath.Join("..", "capture", "scan", "testdata", "labelled")})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestPromoteDraftsOfEveryOrigin: promoted with no flags, as lore review
// suggests, a draft of any origin reaches an agent (before a matching
// call, its triggers able to reach the threshold, or at session start), or
// promote refuses with the reason and writes nothing.
func TestPromoteDraftsOfEveryOrigin(t *testing.T) {
	s, origins := originStore(t)
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	set := compile.Settings(cfg)
	for _, origin := range []string{"scan tier 1", "scan tier 2", "import", "observe/render", "consolidate"} {
		paths := origins[origin]
		if len(paths) == 0 {
			t.Errorf("%s: no drafts", origin)
		}
		count := map[string]int{}
		for _, p := range paths {
			before, _ := s.ReadFile(p)
			ch, err := Promote(s, p, review.Refinement{})
			if err != nil {
				after, _ := s.ReadFile(p)
				if !errors.Is(err, review.ErrRefused) || string(after) != string(before) || !strings.Contains(err.Error(), p) && !strings.Contains(err.Error(), "the build leaves it out: "+p) {
					t.Errorf("%s: %s: refusal %v, file changed %t", origin, p, err, string(after) != string(before))
				}
				count["refused"]++
				t.Logf("%s: refused: %v", origin, err)
				continue
			}
			d := compile.DeliveryOf(ch.Item, set)
			if d.Kind == compile.Never {
				t.Errorf("%s: %s promoted but never delivered: %s", origin, p, d.Reason)
			}
			count[d.Kind]++
			for _, n := range ch.Notes {
				if strings.HasPrefix(n, "priority raised") {
					count["raised"]++
				}
			}
		}
		t.Logf("%s: %d drafts: %v", origin, len(paths), count)
		if origin == "scan tier 1" && count["raised"]+count["refused"] > 0 {
			t.Errorf("a self-reported draft starts at medium: %v", count)
		}
	}
}

// TestReviewKeyPromotes: review's promote key is the same promotion as
// lore promote: a low draft is raised to medium and says so; one no
// priority makes fire is refused (ErrRefused: the review goes on) and left
// a draft.
func TestReviewKeyPromotes(t *testing.T) {
	s := newStore(t)
	for name, trig := range map[string]string{"a-low": "tools: [Bash]\n  commands: ['\\bmake\\b']", "b-dead": "tools: [Bash]\n  content: ['print']"} {
		doc := "---\nid: 01J0000000000000000000000" + name[:1] + "\nkind: lesson\ntitle: " + name + "\nstatus: draft\npriority: low\nconfidence: 0.3\ntriggers:\n  " + trig + "\n---\n\n## Fix\nx\n"
		if err := os.WriteFile(s.Path(".lore/lessons/"+name+".md"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := OpenReview(s)
	if err != nil || len(r.Drafts) != 2 {
		t.Fatalf("%v, %d drafts", err, len(r.Drafts))
	}
	sort.Slice(r.Drafts, func(a, b int) bool { return r.Drafts[a].Path < r.Drafts[b].Path })
	if !strings.HasPrefix(r.Drafts[0].OnPromote, "priority raised from low to medium") || !strings.Contains(r.Drafts[1].OnPromote, "no priority would make it fire") {
		t.Errorf("on promote: %q, %q", r.Drafts[0].OnPromote, r.Drafts[1].OnPromote)
	}
	notes, err := r.Promote(0)
	if err != nil || len(notes) != 2 || !strings.HasPrefix(notes[1], "priority raised from low to medium") {
		t.Errorf("promote: %v %q", err, notes)
	}
	if _, err := r.Promote(1); !errors.Is(err, review.ErrRefused) {
		t.Errorf("promote of a dead draft: %v", err)
	}
	after, err := OpenReview(s)
	if err != nil || len(after.Drafts) != 1 || after.Drafts[0].Title != "b-dead" {
		t.Errorf("drafts left: %+v", after.Drafts)
	}
}
