package ages_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/ages"
	"github.com/lore-agents/lore/gitstore"
)

// benchRepo writes a repository of about 2,000 commits with git
// fast-import: a learnings file that gains an entry every 8 commits, has
// bodies edited, is consolidated (10 oldest entries removed) every 200
// commits, gets entries from 8 merged side branches, and ends with exactly
// 150 entries; the other commits change source files. Dates step 4 hours
// across three time zones.
func benchRepo(b *testing.B, dir string) {
	type entry struct{ title, body string }
	var entries []entry
	var s bytes.Buffer
	render := func(es []entry) string {
		var f strings.Builder
		f.WriteString("# Learnings\n\nStaging.\n\n\n\n\n\n\n\n")
		for _, e := range es {
			fmt.Fprintf(&f, "## %s\n%s\n\n", e.title, e.body)
		}
		return f.String()
	}
	mark, when := 0, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	zones := []string{"+0900", "-0800", "+0000"}
	commit := func(ref string, parents []int, path, content string) int {
		mark++
		when = when.Add(4 * time.Hour)
		fmt.Fprintf(&s, "commit %s\nmark :%d\n", ref, mark)
		sig := fmt.Sprintf("Bench <bench@example.com> %d %s\n", when.Unix(), zones[mark%3])
		fmt.Fprintf(&s, "author %scommitter %s", sig, sig)
		msg := fmt.Sprintf("commit %d\n", mark)
		fmt.Fprintf(&s, "data %d\n%s", len(msg), msg)
		for i, p := range parents {
			if i == 0 {
				fmt.Fprintf(&s, "from :%d\n", p)
			} else {
				fmt.Fprintf(&s, "merge :%d\n", p)
			}
		}
		fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
		return mark
	}
	words := []string{"pytest", "deploy", "cache", "lint", "docker", "migrations", "tokens", "flaky", "timeouts", "release"}
	n, head := 0, 0
	for i := 0; i < 2000; i++ {
		var parents []int
		if head != 0 {
			parents = []int{head}
		}
		switch {
		case i%250 == 100: // a side branch adds an entry, merged back
			n++
			side := append(append([]entry(nil), entries...), entry{fmt.Sprintf("Branch entry %d about %s", n, words[n%10]), "Learned on a branch."})
			s1 := commit("refs/heads/side", parents, "side.txt", fmt.Sprint(i))
			s2 := commit("refs/heads/side", []int{s1}, ".lore/learnings.md", render(side))
			entries = side
			head = commit("refs/heads/main", []int{head, s2}, "merge.txt", fmt.Sprint(i))
			continue
		case i%8 == 0:
			n++
			entries = append(entries, entry{fmt.Sprintf("Entry %d about %s", n, words[n%10]), fmt.Sprintf("Use %s carefully; step %d.", words[(n+3)%10], i)})
		case i%7 == 3 && len(entries) > 0:
			k := (i * 31) % len(entries)
			entries[k].body += fmt.Sprintf(" Edited at %d.", i)
		case i%200 == 150:
			drop := 10
			if i == 1950 {
				drop = len(entries) - (150 - 6) // six more entries follow
			}
			entries = entries[drop:]
		default:
			head = commit("refs/heads/main", parents, fmt.Sprintf("src/f%d.go", i%50), fmt.Sprintf("package f // %d\n", i))
			continue
		}
		head = commit("refs/heads/main", parents, ".lore/learnings.md", render(entries))
	}
	if len(entries) != 150 {
		b.Fatalf("fixture has %d entries", len(entries))
	}
	run := func(stdin io.Reader, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Stdin = dir, stdin
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(nil, "init", "-q", "-b", "main")
	run(&s, "fast-import", "--quiet")
	run(nil, "checkout", "-q", "-f", "main")
	run(nil, "gc", "-q")
}

// gitBaseline is the git CLI computing the same facts: blame for each
// heading line's commit, log for the commit-date set, log -p for the
// removal commits (staleness).
func gitBaseline(b *testing.B, dir string) time.Duration {
	start := time.Now()
	for _, args := range [][]string{
		{"blame", "--porcelain", "--", ".lore/learnings.md"},
		{"log", "--date=short", "--format=%ad"},
		{"log", "-p", "--", ".lore/learnings.md"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if err := cmd.Run(); err != nil {
			b.Fatalf("git %v: %v", args, err)
		}
	}
	return time.Since(start)
}

func loreAges(b *testing.B, dir string) {
	s, err := gitstore.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	rep, err := ages.Load(s, ".lore/learnings.md", "2026-01-01")
	if err != nil {
		b.Fatal(err)
	}
	if len(rep.Entries) != 150 {
		b.Fatalf("%d entries", len(rep.Entries))
	}
	if err := json.NewEncoder(io.Discard).Encode(rep); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAges compares lore ages (in process: open, walk or cache, parse,
// encode) with the git CLI computing the same facts on the same repository.
// Each iteration runs the git CLI too (untimed), so machine load affects
// both sides alike; x-gitcli is lore's total time over the CLI's.
func BenchmarkAges(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Fatal("the git CLI is the baseline")
	}
	dir := b.TempDir()
	benchRepo(b, dir)
	cache := filepath.Join(dir, ".lore", "cache")
	b.Run("gitcli", func(b *testing.B) {
		for b.Loop() {
			gitBaseline(b, dir)
		}
	})
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
			loreAges(b, dir)
		}
		b.Run(name, func(b *testing.B) {
			var git time.Duration
			for b.Loop() {
				b.StopTimer()
				git += gitBaseline(b, dir)
				if !warm {
					os.RemoveAll(cache)
				}
				b.StartTimer()
				loreAges(b, dir)
			}
			b.ReportMetric(float64(b.Elapsed())/float64(git), "x-gitcli")
		})
	}
}
