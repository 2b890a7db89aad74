package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/benchproc"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/synthetic"
)

// BenchmarkBuild is the build rows of docs/design.md, Performance and
// quality bars: whole processes interleaved run by run on a synthetic
// store (synthetic.Files), against `lore --version` in the same run. A
// one-file change is `lore build` after one item file changed (bar 5x
// at 10,000 items); a cold build is `lore build` with no manifest and no
// saved verdicts (bar 100x at 10,000 items).
//
//	go test ./cmd/lore -run '^$' -bench Build -benchtime=1x
func BenchmarkBuild(b *testing.B) {
	tmp := b.TempDir()
	benchproc.Build(b, tmp, ".")
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("items-%d", n), func(b *testing.B) {
			benchBuild(b, filepath.Join(tmp, "lore"), filepath.Join(tmp, fmt.Sprint(n)), n)
		})
	}
}

func benchBuild(b *testing.B, lore, dir string, n int) {
	runs := max(5, 50000/n) // a cold build at 10,000 items takes about a second
	repo := filepath.Join(dir, "repo")
	run := benchRepo(b, lore, repo, dir)
	files := synthetic.Files(n)
	for rel, data := range files {
		writeBenchFile(b, filepath.Join(repo, rel), data)
	}
	changed := fmt.Sprintf(".lore/lessons/item-%05d.md", n/3)
	if files[changed] == nil {
		changed = fmt.Sprintf(".lore/pitfalls/item-%05d.md", n/3)
	}
	run(lore, "build", "--quiet")
	var versionT, oneT, coldT []time.Duration
	b.ResetTimer()
	for range b.N {
		for i := range runs {
			writeBenchFile(b, filepath.Join(repo, changed), fmt.Appendf(files[changed], "\nEdit %d.\n", i))
			versionT = append(versionT, run(lore, "--version"))
			oneT = append(oneT, run(lore, "build", "--quiet"))
			for _, rel := range []string{lorepath.Manifest, lorepath.ItemCache} {
				if err := os.Remove(filepath.Join(repo, rel)); err != nil {
					b.Fatal(err)
				}
			}
			coldT = append(coldT, run(lore, "build", "--quiet"))
		}
	}
	b.StopTimer()
	v, one, cold := benchproc.Median(versionT), benchproc.Median(oneT), benchproc.Median(coldT)
	b.ReportMetric(float64(v.Microseconds())/1000, "version-ms")
	b.ReportMetric(float64(one.Microseconds())/1000, "one-file-ms")
	b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
	b.ReportMetric(float64(one)/float64(v), "one-file-x-version")
	b.ReportMetric(float64(cold)/float64(v), "cold-x-version")
}

// benchRepo makes a git repository at repo with lore initialized in it,
// HOME and the config folder under home, and returns how to time a
// command run in it.
func benchRepo(b *testing.B, lore, repo, home string) func(name string, args ...string) time.Duration {
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1", "LORE_DISABLE=")
	run := func(name string, args ...string) time.Duration {
		b.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, env
		d, _ := benchproc.Run(b, cmd)
		return d
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		b.Fatal(err)
	}
	run("git", "init", "-q")
	run(lore, "init", "--no-git-hooks")
	return run
}

func writeBenchFile(b *testing.B, path string, data []byte) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
}
