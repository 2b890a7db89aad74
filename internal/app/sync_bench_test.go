package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/synthetic"
	"github.com/lore-agents/lore/internal/testrepo"
)

// BenchmarkSync measures an organisation store of n synthetic items
// (internal/synthetic, shaped like a real store) in one repository
// behind a bare file:// remote: fetch-s is lore sync into an empty cache
// (ls-remote, shallow clone, build, which compiles the source's part),
// nochange-s a sync with nothing new (ls-remote, a fresh manifest),
// build-s a forced build of a project naming the source (the part
// compiled again), clone-s the first build of another repository naming
// it (a new clone: the part as saved). The baselines, measured in the
// same run: git-s is `git clone --depth 1` of the same remote (the git
// CLI's own fetch), local-s a forced build of the same items kept in the
// project itself.
func BenchmarkSync(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) { benchSync(b, n) })
	}
}

func benchSync(b *testing.B, n int) {
	home := b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	b.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	org := testrepo.New(b)
	files := synthetic.Files(n)
	for rel, data := range files {
		org.Write(rel, string(data))
	}
	org.Commit("2026-01-05T10:00:00Z", "org store")
	bare := filepath.Join(b.TempDir(), "org.git")
	org.Git("clone", "-q", "--bare", org.Dir, bare)

	s := newStore(b)
	if err := s.WriteFile(".lore/config.yaml", []byte("sources:\n  - {name: acme, url: 'file://"+bare+"', ref: main}\n")); err != nil {
		b.Fatal(err)
	}
	local := newStore(b)
	for rel, data := range files {
		if err := local.WriteFile(rel, data); err != nil {
			b.Fatal(err)
		}
	}
	var fetch, nochange, build, clone, gitClone, localBuild time.Duration
	b.ResetTimer()
	for range b.N {
		if err := os.RemoveAll(filepath.Join(home, "cache")); err != nil {
			b.Fatal(err)
		}
		fetch += timed(b, func() error { r, err := Sync(context.Background(), s, SyncOptions{}); return failed(r, err) })
		nochange += timed(b, func() error { r, err := Sync(context.Background(), s, SyncOptions{}); return failed(r, err) })
		build += timed(b, func() error { _, err := Build(s, BuildOptions{Force: true}); return err })
		other := newStore(b)
		if err := other.WriteFile(".lore/config.yaml", []byte("sources:\n  - {name: acme, url: 'file://"+bare+"', ref: main}\n")); err != nil {
			b.Fatal(err)
		}
		clone += timed(b, func() error { _, err := Build(other, BuildOptions{}); return err })
		dst := filepath.Join(b.TempDir(), "clone")
		gitClone += timed(b, func() error {
			cmd := exec.Command("git", "clone", "-q", "--depth", "1", "--single-branch", "--branch", "main", "file://"+bare, dst)
			cmd.Env = testrepo.Env()
			return cmd.Run()
		})
		localBuild += timed(b, func() error { _, err := Build(local, BuildOptions{Force: true}); return err })
	}
	if got, err := Build(s, BuildOptions{}); err != nil || got.Items < n*9/10 {
		b.Fatalf("the org build has %d items of %d: %v", got.Items, n, err)
	}
	per := func(d time.Duration) float64 { return d.Seconds() / float64(b.N) }
	b.ReportMetric(per(fetch), "fetch-s")
	b.ReportMetric(per(nochange), "nochange-s")
	b.ReportMetric(per(build), "build-s")
	b.ReportMetric(per(clone), "clone-s")
	b.ReportMetric(per(gitClone), "git-s")
	b.ReportMetric(per(localBuild), "local-s")
	b.ReportMetric(float64(fetch)/float64(gitClone), "fetch/git")
	b.ReportMetric(float64(build)/float64(localBuild), "build/local")
}

func timed(b *testing.B, f func() error) time.Duration {
	t0 := time.Now()
	if err := f(); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0)
}

func failed(r SyncReport, err error) error {
	if err == nil && r.Failed() {
		return fmt.Errorf("sync failed: %+v", r.Sources)
	}
	return err
}
