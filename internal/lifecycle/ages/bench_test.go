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

	"github.com/lore-agents/lore/internal/benchproc"
)

// benchRepo writes a repository of about `commits` commits (a multiple of
// 200) with git fast-import: a learnings file that gains an entry every 8
// commits, has bodies edited, is consolidated (the oldest entries removed,
// 10 or down to 140) every 200 commits, gets entries from a merged side
// branch every 250 commits, and ends with exactly 150 entries; the other
// commits change source files. Dates step 4 hours across three time zones.
func benchRepo(b *testing.B, dir string, commits int) {
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
	for i := 0; i < commits; i++ {
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
			drop := max(10, len(entries)-140)
			if i == commits-50 {
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
func gitBaseline(b *testing.B, dir string, pin []string) time.Duration {
	start := time.Now()
	for _, args := range [][]string{
		{"blame", "--porcelain", "--", ".lore/learnings.md"},
		{"log", "--date=short", "--format=%ad"},
		{"log", "-p", "--", ".lore/learnings.md"},
	} {
		full := append(append(append([]string(nil), pin...), "git"), args...)
		cmd := exec.Command(full[0], full[1:]...)
		cmd.Dir = dir
		if err := cmd.Run(); err != nil {
			b.Fatalf("git %v: %v", args, err)
		}
	}
	return time.Since(start)
}

// BenchmarkAges is the ages rows of docs/design.md, Performance and quality
// bars: `lore ages [FILE] --json` as a whole process against the git CLI computing the
// same facts, both pinned to one core (taskset -c 0) so neither gains from a
// second one, run by run interleaved; cold removes lore's cache first. The
// bars: cold <= 1x, warm <= 0.1x, at 2,000 commits; LORE_BENCH_LARGE=1 adds
// 20,000 and 100,000.
func BenchmarkAges(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Fatal("the git CLI is the baseline")
	}
	pin := []string{"taskset", "-c", "0"}
	if _, err := exec.LookPath("taskset"); err != nil {
		b.Log("no taskset: not pinned to one core")
		pin = nil
	}
	bin := b.TempDir()
	benchproc.Build(b, bin, "../../../cmd/lore")
	lore := filepath.Join(bin, "lore")
	sizes := []int{2000}
	if os.Getenv("LORE_BENCH_LARGE") != "" {
		sizes = append(sizes, 20000, 100000)
	}
	for _, commits := range sizes {
		dir := b.TempDir()
		benchRepo(b, dir, commits)
		for _, row := range agesRows {
			name := fmt.Sprintf("commits=%d/%s", commits, row.name)
			warm, file, bar := row.warm, row.file, row.bar
			b.Run(name, func(b *testing.B) {
				runs := 11
				if commits > 2000 {
					runs = 3
				}
				var gitT, loreT []time.Duration
				for range b.N {
					for range runs {
						gitT = append(gitT, gitBaseline(b, dir, pin))
						if !warm {
							os.RemoveAll(filepath.Join(dir, ".lore", "cache"))
						}
						loreT = append(loreT, loreAges(b, dir, pin, lore, file...))
					}
				}
				g, l := median(gitT), median(loreT)
				b.ReportMetric(float64(g.Microseconds())/1000, "gitcli-ms")
				b.ReportMetric(float64(l.Microseconds())/1000, "lore-ms")
				b.ReportMetric(float64(l)/float64(g), "x-gitcli")
				if commits == 2000 {
					b.ReportMetric(bar, "bar")
				}
			})
		}
	}
}

// agesRows are BenchmarkAges' rows: cold and warm, without FILE (the
// configured learnings) and with it, as a user or a script names it.
var agesRows = []struct {
	name string
	warm bool
	file []string
	bar  float64
}{
	{"cold", false, nil, 1},
	{"warm", true, nil, 0.1},
	{"cold/file", false, []string{".lore/learnings.md"}, 1},
	{"warm/file", true, []string{".lore/learnings.md"}, 0.1},
}

// loreAges runs `lore ages [FILE] --json` and checks it found every entry.
func loreAges(b *testing.B, dir string, pin []string, lore string, file ...string) time.Duration {
	args := append(append(append(append([]string(nil), pin...), lore, "ages"), file...), "--json", "--today", "2026-12-31")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("lore ages: %v", err)
	}
	var rep struct{ Entries []json.RawMessage }
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Entries) != 150 {
		b.Fatalf("lore ages: %d entries, %v\n%.500s", len(rep.Entries), err, out.String())
	}
	return d
}

var median = benchproc.Median
