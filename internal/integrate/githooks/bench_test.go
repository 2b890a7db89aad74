package githooks_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/benchproc"
	"github.com/lore-agents/lore/internal/integrate/githooks"
	"github.com/lore-agents/lore/internal/synthetic"
)

// BenchmarkCommit is a bar of docs/design.md, Performance and quality bars:
// `git commit` with lore's post-commit hook installed and 1,000 items in
// .lore/, against `git commit` without it, in the same repository and run
// (alternating, median of commits each). The real lore binary is built and put
// on PATH.
//
//	ratio         a commit outside .lore/ (the usual commit): the bar, <= 1.5
//	ratio-lore    a commit that edits an item: lore rebuilds in the background
//	ratio-sync    the same with LORE_GITHOOK_SYNC=1: what a foreground build would cost
func BenchmarkCommit(b *testing.B) {
	const items, commits = 1000, 21
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "bin")
	benchproc.Build(b, bin, "../../../cmd/lore")
	home := filepath.Join(tmp, "home")
	repo := filepath.Join(tmp, "repo")
	empty := filepath.Join(tmp, "no-hooks")
	for _, d := range []string{home, repo, empty} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=B", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=B", "GIT_COMMITTER_EMAIL=b@example.com",
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "LORE_DISABLE=", "LORE_GITHOOK_SYNC=")
	run := func(extraEnv []string, name string, args ...string) time.Duration {
		b.Helper()
		if name == "lore" {
			name = filepath.Join(bin, "lore") // exec looks names up in this process's PATH
		}
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, append(env, extraEnv...)
		d, _ := benchproc.Run(b, cmd)
		return d
	}
	run(nil, "git", "init", "-q", "-b", "main")
	run(nil, "lore", "init", "--no-git-hooks")
	var lesson string
	for rel, data := range synthetic.Files(items) {
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		if lesson == "" && strings.Contains(rel, "/lessons/") {
			lesson = p
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "README"), []byte("0\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	run(nil, "git", "add", "-A")
	run(nil, "git", "commit", "-q", "-m", "items")
	run(nil, "lore", "build", "--quiet")
	if _, err := githooks.Install(githooks.Target{Dir: filepath.Join(repo, ".git", "hooks"), Root: repo, Private: filepath.Join(repo, ".git", githooks.PrivateDir)}); err != nil {
		b.Fatal(err)
	}
	manifest := filepath.Join(repo, ".lore", "cache", "manifest")
	readStamp := func() string { fi, _ := os.Stat(manifest); return fmt.Sprint(fi.ModTime(), fi.Size()) }

	n := 0
	commit := func(hooks string, extraEnv []string, editLore bool) time.Duration {
		n++
		file := filepath.Join(repo, "README")
		if editLore {
			file = lesson
		}
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(file, append(data, fmt.Sprintf("\nedit %d\n", n)...), 0o644); err != nil {
			b.Fatal(err)
		}
		before := readStamp()
		d := run(extraEnv, "git", "-c", "core.hooksPath="+hooks, "commit", "-q", "-a", "-m", fmt.Sprint("c", n))
		if editLore && hooks != empty {
			// Let the background build finish before the next commit (not timed).
			for deadline := time.Now().Add(60 * time.Second); readStamp() == before; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					b.Fatal("the background lore build never finished")
				}
			}
		}
		return d
	}
	hooked := filepath.Join(repo, ".git", "hooks")
	measure := func(extraEnv []string, editLore bool) (base, with float64) {
		var bs, ws []time.Duration
		for i := 0; i < commits; i++ {
			bs = append(bs, commit(empty, nil, editLore))
			ws = append(ws, commit(hooked, extraEnv, editLore))
		}
		return median(bs), median(ws)
	}
	// Rough costs of the two ways to decide whether to build, for the report.
	head := strings.TrimSpace(string(must2(exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output())))
	diff := func() time.Duration {
		cmd := exec.Command("git", "diff", "--quiet", head+"^", head, "--", ".lore")
		cmd.Dir, cmd.Env = repo, env
		start := time.Now()
		_ = cmd.Run()
		return time.Since(start)
	}
	for i := 0; i < b.N; i++ {
		base, with := measure(nil, false)
		b.ReportMetric(with/base, "ratio")
		b.ReportMetric(base, "ms/commit")
		b.ReportMetric(with, "ms/commit-hooked")
		lb, lw := measure(nil, true)
		b.ReportMetric(lw/lb, "ratio-lore")
		sb, sw := measure([]string{"LORE_GITHOOK_SYNC=1"}, true)
		b.ReportMetric(sw/sb, "ratio-sync")
		var ds, ls []time.Duration
		for j := 0; j < commits; j++ {
			ds = append(ds, diff())
			ls = append(ls, run(nil, "lore", "build", "--quiet"))
		}
		b.ReportMetric(median(ds), "ms/git-diff")
		b.ReportMetric(median(ls), "ms/lore-build-noop")
	}
}

func must2(out []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return out
}

// median in milliseconds.
func median(ds []time.Duration) float64 {
	return float64(benchproc.Median(ds).Microseconds()) / 1000
}
