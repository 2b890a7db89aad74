package sources

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/testrepo"
)

const lesson = `---
id: %s
kind: lesson
title: "%s"
status: active
priority: medium
triggers:
  commands: ['terraform apply']
---

## Mistake
Applied without a plan.

## Fix
Run terraform plan first.
`

// orgRepo is an organisation's store repository (work tree) and its bare
// remote, reached over file://.
func orgRepo(t *testing.T) (*testrepo.Repo, string) {
	t.Helper()
	work := testrepo.New(t)
	work.Write(".lore/lessons/plan.md", strings.Replace(strings.Replace(lesson, "%s", "01JRQABE000000000000000001", 1), "%s", "Plan first", 1))
	work.Commit("2026-01-05T10:00:00Z", "first")
	bare := filepath.Join(t.TempDir(), "org.git")
	work.Git("clone", "-q", "--bare", work.Dir, bare)
	work.Git("remote", "add", "origin", bare)
	return work, "file://" + bare
}

func TestFetchSharesOneCopyAndFollowsForcePush(t *testing.T) {
	work, url := orgRepo(t)
	root := t.TempDir()
	src := config.Source{Name: "acme", URL: url, Ref: "main"}
	f, err := Fetch(context.Background(), root, src, true)
	if err != nil || !f.Changed || f.State.Commit == "" || f.State.Error != "" {
		t.Fatalf("first fetch: %+v, %v", f, err)
	}
	first := f.State.Commit
	if Head(f.Dir) != first {
		t.Fatalf("HEAD names %q, want %s", Head(f.Dir), first)
	}
	store := StoreDir(f.Dir, src, f.State.Commit)
	if _, err := os.Stat(filepath.Join(store, "lessons", "plan.md")); err != nil {
		t.Fatalf("the checkout has no lesson: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.Dir, first, ".git")); err == nil {
		t.Fatal("the checkout kept the clone's .git")
	}

	// Nothing moved: no new checkout.
	again, err := Fetch(context.Background(), root, src, true)
	if err != nil || again.Changed || again.State.Commit != first || !again.State.Attempted.After(f.State.Attempted.Add(-1)) {
		t.Fatalf("second fetch: %+v, %v", again, err)
	}

	// A rewritten history: the remote's main is replaced by an unrelated commit.
	work.Git("checkout", "-q", "--orphan", "rewritten")
	work.Write(".lore/lessons/plan.md", strings.Replace(strings.Replace(lesson, "%s", "01JRQABE000000000000000002", 1), "%s", "Plan, rewritten", 1))
	rewritten := work.Commit("2026-01-06T10:00:00Z", "rewritten")
	work.Git("push", "-q", "--force", "origin", "rewritten:main")
	f, err = Fetch(context.Background(), root, src, true)
	if err != nil || !f.Changed || f.State.Commit != rewritten {
		t.Fatalf("after force-push: %+v, %v (want %s)", f, err, rewritten)
	}
	data, err := os.ReadFile(filepath.Join(StoreDir(f.Dir, src, f.State.Commit), "lessons", "plan.md"))
	if err != nil || !strings.Contains(string(data), "Plan, rewritten") {
		t.Fatalf("the checkout is not the rewritten commit: %q, %v", data, err)
	}

	// Offline: the remote is gone; the last copy stays, the error is kept.
	if err := os.RemoveAll(strings.TrimPrefix(url, "file://")); err != nil {
		t.Fatal(err)
	}
	off, err := Fetch(context.Background(), root, src, true)
	if err == nil || off.State.Commit != rewritten || off.State.Error == "" || !off.State.Fetched.Equal(f.State.Fetched) {
		t.Fatalf("offline fetch: %+v, %v", off, err)
	}
	st, err := ReadState(off.Dir)
	if err != nil || st.Commit != rewritten || st.Error == "" {
		t.Fatalf("state after the failed fetch: %+v, %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(StoreDir(off.Dir, src, Head(off.Dir)), "lessons", "plan.md")); err != nil {
		t.Fatalf("the last copy is gone: %v", err)
	}
}

func TestFetchRefAndPath(t *testing.T) {
	work, url := orgRepo(t)
	work.Git("tag", "v1")
	work.Git("push", "-q", "origin", "v1")
	root := t.TempDir()
	for _, tc := range []struct {
		src  config.Source
		want string // "" is any success
	}{
		{config.Source{Name: "tag", URL: url, Ref: "v1"}, ""},
		{config.Source{Name: "head", URL: url}, ""},
		{config.Source{Name: "nobranch", URL: url, Ref: "nope"}, `no branch or tag "nope"`},
		{config.Source{Name: "nofolder", URL: url, Ref: "main", Path: "knowledge"}, "no folder knowledge"},
	} {
		f, err := Fetch(context.Background(), root, tc.src, true)
		switch {
		case tc.want == "" && (err != nil || f.State.Commit == ""):
			t.Errorf("%s: %+v, %v", tc.src.Name, f, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || f.State.Error == ""):
			t.Errorf("%s: error %v, want %q recorded", tc.src.Name, err, tc.want)
		}
	}
}

func TestFetchBusyWhenLocked(t *testing.T) {
	_, url := orgRepo(t)
	root := t.TempDir()
	src := config.Source{Name: "acme", URL: url, Ref: "main"}
	dir := Dir(root, src)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, ok, err := lock(dir, true)
	if err != nil || !ok {
		t.Fatal(err)
	}
	f, err := Fetch(context.Background(), root, src, false)
	unlock()
	if err != nil || !f.Busy || f.State.Commit != "" {
		t.Fatalf("fetch while another holds the lock: %+v, %v", f, err)
	}
}

func TestDirSharedByURL(t *testing.T) {
	a := config.Source{Name: "acme", URL: "https://example.com/a.git"}
	same := config.Source{Name: "acme", URL: " https://example.com/a.git", Path: ".lore/"}
	b := config.Source{Name: "acme", URL: "https://example.com/a.git", Ref: "dev"}
	c := config.Source{Name: "acme", URL: "https://example.com/other.git"}
	if Dir("/r", a) != Dir("/r", same) || Dir("/r", a) == Dir("/r", b) || Dir("/r", a) == Dir("/r", c) || !strings.HasPrefix(filepath.Base(Dir("/r", a)), "acme-") {
		t.Fatalf("dirs: %s %s %s", Dir("/r", a), Dir("/r", b), Dir("/r", c))
	}
}

// TestFetchOverHTTP serves the bare remote with git's own smart HTTP
// server (git http-backend behind net/http/cgi on 127.0.0.1), so the
// transport an https source uses is the one proven.
func TestFetchOverHTTP(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git http-backend needs the git CLI")
	}
	work, fileURL := orgRepo(t)
	bare := strings.TrimPrefix(fileURL, "file://")
	srv := httptest.NewServer(&cgi.Handler{Path: gitBin, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + filepath.Dir(bare), "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}})
	defer srv.Close()
	src := config.Source{Name: "acme", URL: srv.URL + "/" + filepath.Base(bare), Ref: "main"}
	root := t.TempDir()
	f, err := Fetch(context.Background(), root, src, true)
	if err != nil || !f.Changed {
		t.Fatalf("fetch over http: %+v, %v", f, err)
	}
	work.Write(".lore/lessons/second.md", strings.Replace(strings.Replace(lesson, "%s", "01JRQABE000000000000000003", 1), "%s", "Second", 1))
	second := work.Commit("2026-01-07T10:00:00Z", "second")
	work.Git("push", "-q", "origin", "main")
	if rem := ListRemote(context.Background(), src); rem.Err != nil || rem.Commit != second {
		t.Fatalf("ls-remote over http: %+v, want %s", rem, second)
	}
	f, err = Fetch(context.Background(), root, src, true)
	if err != nil || f.State.Commit != second {
		t.Fatalf("second fetch over http: %+v, %v", f, err)
	}
	if _, err := os.Stat(filepath.Join(StoreDir(f.Dir, src, f.State.Commit), "lessons", "second.md")); err != nil {
		t.Fatal(err)
	}
}

// A reader that resolves HEAD and reads the checkout while fetches move
// it sees one whole commit or another, never a missing or partial file.
func TestReaderNeverSeesHalfACheckout(t *testing.T) {
	work, url := orgRepo(t)
	root := t.TempDir()
	src := config.Source{Name: "acme", URL: url, Ref: "main"}
	if _, err := Fetch(context.Background(), root, src, true); err != nil {
		t.Fatal(err)
	}
	dir := Dir(root, src)
	done := make(chan struct{})
	var reads, bad int
	go func() {
		defer close(done)
		for {
			select {
			case <-done:
				return
			default:
			}
			data, err := os.ReadFile(filepath.Join(StoreDir(dir, src, Head(dir)), "lessons", "plan.md"))
			reads++
			if err != nil || !strings.HasSuffix(string(data), "Run terraform plan first.\n") {
				bad++
			}
		}
	}()
	for i := 2; i <= 6; i++ {
		work.Write(".lore/lessons/plan.md", strings.Replace(strings.Replace(lesson, "%s", fmt.Sprintf("01JRQABE00000000000000000%d", i), 1), "%s", fmt.Sprintf("Plan %d", i), 1))
		work.Commit(fmt.Sprintf("2026-01-0%dT10:00:00Z", i), "move")
		work.Git("push", "-q", "origin", "main")
		if f, err := Fetch(context.Background(), root, src, true); err != nil || !f.Changed {
			t.Fatalf("fetch %d: %+v, %v", i, f, err)
		}
	}
	done <- struct{}{}
	<-done
	if bad > 0 || reads == 0 {
		t.Fatalf("%d of %d reads saw a missing or partial checkout", bad, reads)
	}
}

// Links in a source never reach this machine's files: a linked item or
// kind folder is dropped from the checkout, a store folder reached
// through a link is refused.
func TestFetchDropsLinks(t *testing.T) {
	work, url := orgRepo(t)
	secret := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(secret, []byte("not for agents"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, work.Path(".lore/lessons/linked.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(secret), work.Path(".lore/pitfalls")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".lore", work.Path("via")); err != nil {
		t.Fatal(err)
	}
	work.Commit("2026-01-08T10:00:00Z", "links")
	work.Git("push", "-q", "origin", "main")
	root := t.TempDir()
	src := config.Source{Name: "acme", URL: url, Ref: "main"}
	f, err := Fetch(context.Background(), root, src, true)
	if err != nil {
		t.Fatal(err)
	}
	store := StoreDir(f.Dir, src, f.State.Commit)
	if _, err := os.Stat(filepath.Join(store, "lessons", "plan.md")); err != nil {
		t.Fatalf("the regular lesson is gone: %v", err)
	}
	for _, p := range []string{"lessons/linked.md", "pitfalls"} {
		if _, err := os.Lstat(filepath.Join(store, filepath.FromSlash(p))); err == nil {
			t.Errorf("%s: a link was kept", p)
		}
	}
	via := config.Source{Name: "via", URL: url, Ref: "main", Path: "via"}
	if _, err := Fetch(context.Background(), root, via, true); err == nil || !strings.Contains(err.Error(), "through a link") {
		t.Fatalf("a store folder reached through a link: %v", err)
	}
}

// A private https source: the URL names the token's environment
// variable, expanded only for the fetch; a wrong token fails without the
// token in the error or the state.
func TestFetchWithATokenFromTheEnvironment(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git http-backend needs the git CLI")
	}
	_, fileURL := orgRepo(t)
	bare := strings.TrimPrefix(fileURL, "file://")
	backend := &cgi.Handler{Path: gitBin, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + filepath.Dir(bare), "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "x-access-token" || p != "s3cret-token" {
			w.Header().Set("WWW-Authenticate", `Basic realm="org"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	defer srv.Close()
	src := config.Source{Name: "acme", URL: strings.Replace(srv.URL, "http://", "http://x-access-token:${LORE_TEST_TOKEN}@", 1) + "/" + filepath.Base(bare), Ref: "main"}
	root := t.TempDir()

	t.Setenv("LORE_TEST_TOKEN", "wrong-token")
	f, err := Fetch(context.Background(), root, src, true)
	if err == nil || strings.Contains(err.Error(), "wrong-token") || strings.Contains(f.State.Error, "wrong-token") || f.State.URL != src.URL {
		t.Fatalf("a wrong token: %+v, %v", f.State, err)
	}
	t.Setenv("LORE_TEST_TOKEN", "s3cret-token")
	if f, err = Fetch(context.Background(), root, src, true); err != nil || f.State.Commit == "" {
		t.Fatalf("the right token: %+v, %v", f.State, err)
	}
	data, _ := os.ReadFile(filepath.Join(f.Dir, "state.json"))
	if strings.Contains(string(data), "s3cret") {
		t.Fatalf("the state holds the token: %s", data)
	}
}

// A part goes with its checkout: pruning keeps the parts of the current
// commit and of the one before it (any key), and removes the others'.
func TestPruneTakesPartsWithTheirCheckout(t *testing.T) {
	dir := t.TempDir()
	commits := []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)}
	var want []string
	for i, c := range commits {
		if err := os.Mkdir(filepath.Join(dir, c), 0o755); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(time.Duration(i-3) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, c), old, old); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"0123456789abcdef", "fedcba9876543210"} {
			part := PartPath(dir, c, key)
			if err := WritePart(part, []byte("part")); err != nil {
				t.Fatal(err)
			}
			if err := WriteSummary(part, []byte("summary")); err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				want = append(want, filepath.Base(part), filepath.Base(SummaryPath(part)))
			}
		}
	}
	prune(dir, commits[2])
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() {
			got = append(got, e.Name())
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("after the prune: %v, want %v", got, want)
	}
}
