package main

import (
	"bytes"
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
// one-file change is `lore build` after one project item file changed
// (bar 5x at 10,000 items); a cold build is `lore build` with no manifest
// and no item cache (bar 100x at 10,000 items). The items-N stores keep
// every item in the project; org-10000 is the shape of an organisation
// rollout: 100 items in the project, 9,900 in an organisation source
// behind a bare file:// remote, synced once before the runs. There a cold
// build is a new clone's: the source's part, compiled once for its
// commit, is there; no-part-ms is a cold build without it, as after the
// first sync of the commit or an upgrade of lore.
//
//	go test ./cmd/lore -run '^$' -bench Build -benchtime=1x
func BenchmarkBuild(b *testing.B) {
	tmp := b.TempDir()
	benchproc.Build(b, tmp, ".")
	lore := filepath.Join(tmp, "lore")
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("items-%d", n), func(b *testing.B) {
			dir := filepath.Join(tmp, fmt.Sprint(n))
			repo := filepath.Join(dir, "repo")
			run := benchRepo(b, lore, repo, dir)
			timeBuilds(b, lore, run, dir, writeItems(b, repo, synthetic.Files(n), 0, n), n, "")
		})
	}
	b.Run("org-10000", func(b *testing.B) {
		const n, local = 10000, 100
		dir := filepath.Join(tmp, "org")
		files := synthetic.Files(n)
		repo := filepath.Join(dir, "repo")
		run := benchRepo(b, lore, repo, dir)
		changed := writeItems(b, repo, files, n-local, n)
		org := filepath.Join(dir, "org")
		writeItems(b, org, files, 0, n-local)
		bare := filepath.Join(dir, "org.git")
		run("git", "-C", org, "init", "-q", "-b", "main")
		run("git", "-C", org, "add", "-A")
		run("git", "-C", org, "-c", "user.name=Org", "-c", "user.email=org@example.com", "commit", "-q", "-m", "org store")
		run("git", "clone", "-q", "--bare", org, bare)
		cfg := filepath.Join(repo, ".lore", "config.yaml")
		data, err := os.ReadFile(cfg)
		if err != nil {
			b.Fatal(err)
		}
		writeBenchFile(b, cfg, fmt.Appendf(data, "sources:\n  - {name: acme, url: 'file://%s', ref: main}\n", bare))
		run(lore, "sync")
		timeBuilds(b, lore, run, dir, changed, n, filepath.Join(dir, ".cache", "lore", "sources", "acme-*", "*.part"))
	})
}

// racyWindow is compile's racyWindow: how old a change must be for a
// build not to wait.
const racyWindow = 20 * time.Millisecond

// writeItems writes the items numbered [from, to) of files into repo and
// returns the path of one of them, the one a one-file change edits.
func writeItems(b *testing.B, repo string, files map[string][]byte, from, to int) string {
	changed := ""
	for rel, data := range files {
		var i int
		if _, err := fmt.Sscanf(filepath.Base(rel), "item-%05d.md", &i); err != nil || i < from || i >= to {
			continue
		}
		writeBenchFile(b, filepath.Join(repo, rel), data)
		if i == from+(to-from)/3 {
			changed = filepath.Join(repo, rel)
		}
	}
	if changed == "" {
		b.Fatalf("no item numbered %d", from+(to-from)/3)
	}
	return changed
}

// timeBuilds times `lore --version`, a build of the repository in home
// (benchRepo) after the changed file changed and a build with no
// manifest and no item cache, interleaved; n is the items it compiles.
// parts is a glob of the parts the repository's sources have: each run
// also times a cold build without them.
func timeBuilds(b *testing.B, lore string, run func(string, ...string) time.Duration, home, changed string, n int, parts string) {
	runs := max(5, 50000/n) // a cold build at 10,000 items takes about half a second
	repo := filepath.Join(home, "repo")
	orig, err := os.ReadFile(changed)
	if err != nil {
		b.Fatal(err)
	}
	// The item cache the one-file builds start from, and every item in it.
	cmd := exec.Command(lore, "build", "--force")
	cmd.Dir, cmd.Env = repo, benchEnv(home)
	if _, out := benchproc.Run(b, cmd); !bytes.Contains(out, fmt.Appendf(nil, ": %d items compiled", n)) {
		b.Fatalf("the build compiled other than %d items: %s", n, out)
	}
	var versionT, oneT, coldT, noPartT []time.Duration
	b.ResetTimer()
	for range b.N {
		for i := range runs {
			writeBenchFile(b, changed, fmt.Appendf(orig, "\nEdit %d.\n", i))
			// A build within 20 ms of a change waits out the rest of the
			// file system's racy window (docs/design.md, Manifest
			// freshness); the hook's builds come a call later.
			time.Sleep(racyWindow)
			versionT = append(versionT, run(lore, "--version"))
			oneT = append(oneT, run(lore, "build", "--quiet"))
			removeCold(b, repo, "")
			coldT = append(coldT, run(lore, "build", "--quiet"))
			if parts != "" {
				removeCold(b, repo, parts)
				noPartT = append(noPartT, run(lore, "build", "--quiet"))
			}
		}
	}
	b.StopTimer()
	v := benchproc.Median(versionT)
	b.ReportMetric(float64(v.Microseconds())/1000, "version-ms")
	for _, r := range []struct {
		name  string
		times []time.Duration
	}{{"one-file", oneT}, {"cold", coldT}, {"no-part", noPartT}} {
		if len(r.times) > 0 {
			d := benchproc.Median(r.times)
			b.ReportMetric(float64(d.Microseconds())/1000, r.name+"-ms")
			b.ReportMetric(float64(d)/float64(v), r.name+"-x-version")
		}
	}
}

// removeCold removes the manifest and the item cache of repo, and the
// files parts globs.
func removeCold(b *testing.B, repo, parts string) {
	paths := []string{filepath.Join(repo, lorepath.Manifest), filepath.Join(repo, lorepath.ItemCache)}
	if parts != "" {
		found, err := filepath.Glob(parts)
		if err != nil || len(found) == 0 {
			b.Fatalf("no part %s: %v", parts, err)
		}
		paths = append(paths, found...)
	}
	for _, p := range paths {
		if err := os.Remove(p); err != nil {
			b.Fatal(err)
		}
	}
}

// benchRepo makes a git repository at repo with lore initialized in it,
// HOME and the config folder under home, and returns how to time a
// command run in it.
func benchRepo(b *testing.B, lore, repo, home string) func(name string, args ...string) time.Duration {
	run := func(name string, args ...string) time.Duration {
		b.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, benchEnv(home)
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

// benchEnv is the environment of a benchmark's commands: home, and the
// config and cache folders, under home.
func benchEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "GIT_CONFIG_NOSYSTEM=1", "LORE_DISABLE=")
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
