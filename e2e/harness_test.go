//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// binDir holds lore and lore-hook built from this checkout (TestMain).
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lore-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "../cmd/lore", "../cmd/lore-hook")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as make install builds them
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build lore:", err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// clientBins reads LORE_E2E_<NAME>: space-separated version=path pairs,
// one per installed version of that client. make e2e sets them; without
// them the test fails and says how to run it.
func clientBins(t *testing.T, name string) []clientBin {
	t.Helper()
	v := os.Getenv("LORE_E2E_" + strings.ToUpper(name))
	if v == "" {
		t.Fatalf("LORE_E2E_%s is not set: run the suite with `make e2e` (it installs the clients)", strings.ToUpper(name))
	}
	var out []clientBin
	for _, f := range strings.Fields(v) {
		ver, path, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("LORE_E2E_%s: %q is not version=path", strings.ToUpper(name), f)
		}
		out = append(out, clientBin{Version: ver, Path: path})
	}
	return out
}

type clientBin struct{ Version, Path string }

// request is one request a stand-in received, recorded whole.
type request struct {
	Seq    int
	Method string
	Path   string // with the query
	Header http.Header
	Body   []byte
}

// standIn is a scripted model API on 127.0.0.1 that records every request.
type standIn struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []*request
	logf   *os.File
	handle func(w http.ResponseWriter, r *request)
}

func newStandIn(t *testing.T, handle func(w http.ResponseWriter, r *request)) *standIn {
	t.Helper()
	s := &standIn{t: t, handle: handle}
	if dir := logDir(t); dir != "" {
		f, err := os.Create(filepath.Join(dir, "requests.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		s.logf = f
		t.Cleanup(func() { f.Close() })
	}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, hr *http.Request) {
		body, _ := io.ReadAll(hr.Body)
		s.mu.Lock()
		r := &request{Seq: len(s.reqs), Method: hr.Method, Path: hr.URL.RequestURI(), Header: hr.Header.Clone(), Body: body}
		s.reqs = append(s.reqs, r)
		if s.logf != nil {
			line, _ := json.Marshal(map[string]any{"seq": r.Seq, "method": r.Method, "path": r.Path, "body": json.RawMessage(orNull(body))})
			s.logf.Write(append(line, '\n'))
		}
		s.mu.Unlock()
		s.handle(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func orNull(b []byte) []byte {
	if json.Valid(b) && len(bytes.TrimSpace(b)) > 0 {
		return b
	}
	q, _ := json.Marshal(string(b))
	return q
}

// URL is the stand-in's base address.
func (s *standIn) URL() string { return s.srv.URL }

// requests returns a snapshot of what was received so far.
func (s *standIn) requests() []*request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*request(nil), s.reqs...)
}

// logDir is where a test keeps its request log and client output when
// LORE_E2E_LOGS is set (make e2e: tmp/e2e/logs), for reading after a failure.
func logDir(t *testing.T) string {
	root := os.Getenv("LORE_E2E_LOGS")
	if root == "" {
		return ""
	}
	dir := filepath.Join(root, regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(t.Name(), "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// world is one throwaway user: HOME, temp and config folders, and a PATH
// with lore, lore-hook, node and the basic tools but nothing of the host's.
type world struct {
	t    *testing.T
	root string
	home string
	tmp  string
	repo string
	env  []string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{t: t, root: root, home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"), repo: filepath.Join(root, "app")}
	for _, d := range []string{w.home, w.tmp, w.repo} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	node, err := exec.LookPath("node")
	path := binDir + ":/usr/local/bin:/usr/bin:/bin"
	if err == nil {
		path = binDir + ":" + filepath.Dir(node) + ":/usr/local/bin:/usr/bin:/bin"
	}
	w.env = []string{
		"HOME=" + w.home, "TMPDIR=" + w.tmp, "XDG_RUNTIME_DIR=" + w.tmp, "PATH=" + path, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1",
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(w.home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(w.home, ".local/share"), "XDG_STATE_HOME=" + filepath.Join(w.home, ".local/state"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=E2E", "GIT_AUTHOR_EMAIL=e2e@example.com",
		"GIT_COMMITTER_NAME=E2E", "GIT_COMMITTER_EMAIL=e2e@example.com",
		// lore's git hooks build the manifest in the foreground, so a test
		// never races the background build after its commit.
		"LORE_GITHOOK_SYNC=1",
		// Anything a client tries to reach besides its stand-in goes to a
		// closed port on this machine and fails at once: no request leaves.
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"https_proxy=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	// Runs before TempDir's removal (cleanups run last first): a scan a
	// hook started in the background may still be writing in the repository.
	t.Cleanup(w.settle)
	return w
}

// settle waits, with a bound, until no process works in the world's
// folders any more: the background scans and builds lore's hooks start
// outlive the client that ran them.
func (w *world) settle() {
	const wait = 20 * time.Second
	if !eventually(wait, func() bool { return len(processesIn(w.root)) == 0 }) {
		w.t.Errorf("background work still running in the repository %s after the test: pids %v", wait, processesIn(w.root))
	}
}

// processesIn lists the processes whose working folder is dir or under it
// (Linux: /proc/PID/cwd; elsewhere none are found).
func processesIn(dir string) []string {
	links, _ := filepath.Glob("/proc/[0-9]*/cwd")
	var out []string
	for _, l := range links {
		if cwd, err := os.Readlink(l); err == nil && (cwd == dir || strings.HasPrefix(cwd, dir+string(os.PathSeparator))) {
			out = append(out, filepath.Base(filepath.Dir(l)))
		}
	}
	return out
}

// run runs a command in the repository with the world's environment and
// fails the test on a non-zero exit.
func (w *world) run(name string, args ...string) string {
	w.t.Helper()
	out, err := w.try(name, args...)
	if err != nil {
		w.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func (w *world) try(name string, args ...string) (string, error) {
	cmd := exec.Command(w.lookPath(name), args...)
	cmd.Dir = w.repo
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Markers: unique strings in the lessons, so an assertion on a request body
// cannot be satisfied by anything else.
const (
	protocolMarker = "Lesson reporting protocol (lore)"
	lessonFix      = "E2E-FIX-MAKE-CHECK use make check-fast"
	denyFix        = "E2E-DENY never force-push main"
	keywordFix     = "E2E-KEYWORD read the widget runbook"
	keywordPhrase  = "deploy the widget"
	stripFix       = "E2E-STRIP write the incident analysis"
	stripKeyword   = "root cause" // also in lore's protocol text, which Gemini wraps around the prompt
	lessonCommand  = "make check"
	denyCommand    = "touch forbidden-ran && git push --force origin main"
	// cloneCommand also matches the make check lesson: a denied call runs
	// no post-tool hook, so the deny reason names the other items. Its
	// --force is quoted, as bash runs it the same: the guard's pattern
	// matches it only after quote removal.
	cloneCommand   = `touch forbidden-ran && make check && git push "--force" origin main`
	lessonTitle    = "make check needs the fast target"
	pathFix        = "E2E-PATH regenerate the API docs"
	pathDir        = "docs/api"
	denySideEffect = "forbidden-ran"
	orgFix         = "E2E-ORG run terraform plan first"
	orgDenyFix     = "E2E-ORG-DENY never drop the prod database"
	// orgCommand's tools do not exist: if the guard failed, nothing but
	// the touch would run on the test's machine. The guarded command is
	// in a script another shell runs, which is code, not a quoted string.
	orgCommand     = "touch org-ran && e2e-terraform apply && sh -c 'e2e-dropdb prod'"
	orgSideEffect  = "org-ran"
	capturedMarker = "E2E-CAPTURED-TRIGGER"
	subCapMarker   = "E2E-SUBAGENT-CAPTURED"
)

// lessonBlock is a #lesson block as the model would write it in its reply.
func lessonBlock(trigger string) string {
	return "Done.\n\n#lesson\ntool: Bash\ntrigger: " + trigger + "\nmistake: the e2e build ran without its cache and timed out\nfix: warm the e2e cache first with make warm\ntags: tool:make\n#/lesson\n"
}

// setupRepo makes the repository a user would have: git init, a first
// commit, `lore init`, five lessons written by `lore add` and committed
// (the post-commit hook compiles the manifest).
func (w *world) setupRepo() {
	w.t.Helper()
	w.run("git", "init", "-q", "-b", "main")
	w.write("README.md", "# app\n")
	w.write("Makefile", "check:\n\t@echo check-ran\n")
	w.write(pathDir+"/ref.md", "# API reference (generated)\n")
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "first")
	w.run("lore", "init")
	w.run("lore", "add", "lesson", lessonTitle, "--priority", "high",
		"--tools", "Bash", "--command", `\bmake\s+check\b`,
		"--mistake", "make check runs the slow suite in the agent shell.", "--fix", lessonFix)
	w.run("lore", "add", "lesson", "Never force-push main", "--priority", "critical", "--enforce", "deny",
		"--tools", "Bash", "--command", `git\s+push\s+(-f|--force)\b`,
		"--mistake", "A force push to main rewrote teammates' history.", "--fix", denyFix)
	w.run("lore", "add", "lesson", "Widget deploys follow the runbook", "--priority", "high",
		"--keyword", keywordPhrase,
		"--mistake", "The widget was deployed by hand.", "--fix", keywordFix)
	w.run("lore", "add", "lesson", "The API docs are generated", "--priority", "high",
		"--path", "docs/api/**",
		"--mistake", "docs/api was edited by hand and overwritten.", "--fix", pathFix)
	w.run("lore", "add", "lesson", "Incidents get a written analysis", "--priority", "high",
		"--keyword", stripKeyword,
		"--mistake", "An incident was closed without an analysis.", "--fix", stripFix)
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "lore: lessons")
	if _, err := os.Stat(filepath.Join(w.repo, ".lore/cache/manifest")); err != nil {
		w.t.Fatalf("the post-commit hook built no manifest: %v", err)
	}
}

// orgSource makes an organisation store, as a platform team would (lore
// init and lore add in a repository of its own, pushed to a bare remote
// on this machine), and names it in the repository's committed config.
func (w *world) orgSource() {
	w.t.Helper()
	app := w.repo
	w.repo = filepath.Join(w.root, "org")
	if err := os.MkdirAll(w.repo, 0o755); err != nil {
		w.t.Fatal(err)
	}
	w.run("git", "init", "-q", "-b", "main")
	w.run("lore", "init", "--no-git-hooks")
	w.run("lore", "add", "lesson", "Terraform applies need a plan", "--priority", "high",
		"--tools", "Bash", "--command", `\be2e-terraform\s+apply\b`,
		"--mistake", "An apply without a plan replaced a database.", "--fix", orgFix)
	w.run("lore", "add", "lesson", "Never drop the prod database", "--priority", "critical", "--enforce", "deny",
		"--tools", "Bash", "--command", `\be2e-dropdb\s+prod\b`,
		"--mistake", "dropdb prod ran in an agent shell.", "--fix", orgDenyFix)
	w.run("git", "add", "-A")
	w.run("git", "commit", "-qm", "org lessons")
	bare := filepath.Join(w.root, "org.git")
	w.run("git", "clone", "-q", "--bare", w.repo, bare)
	w.repo = app
	w.write(".lore/config.yaml", w.read(".lore/config.yaml")+"sources:\n  - {name: acme, url: 'file://"+bare+"', ref: main}\n")
	w.run("git", "commit", "-qam", "lore: the organisation's store")
}

// clone makes the world a teammate's fresh clone of its repository: the
// committed .lore/ and agent settings, no manifest (it is gitignored), no
// git hooks, and nothing run by hand.
func (w *world) clone() {
	w.t.Helper()
	dst := filepath.Join(w.root, "clone")
	w.run("git", "clone", "-q", w.repo, dst)
	w.repo = dst
	if w.exists(".lore/cache/manifest") {
		w.t.Fatalf("the clone has a manifest: the test would prove nothing")
	}
}

func (w *world) write(rel, content string) {
	w.t.Helper()
	p := filepath.Join(w.repo, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) read(rel string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.repo, rel))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

func (w *world) exists(rel string) bool {
	_, err := os.Stat(filepath.Join(w.repo, rel))
	return err == nil
}

// roundTrip writes a user's settings file, installs and uninstalls lore
// for agent, and checks the file is byte for byte what the user had.
func (w *world) roundTrip(agent, rel, user string) {
	w.t.Helper()
	w.write(rel, user)
	if out, err := w.try("lore", "init", "--agent", agent); err != nil {
		w.t.Errorf("lore init --agent %s: %v\n%s", agent, err, out)
		return
	}
	if out, err := w.try("lore", "init", "--agent", agent, "--uninstall"); err != nil {
		w.t.Errorf("lore init --agent %s --uninstall: %v\n%s", agent, err, out)
		return
	}
	if !w.exists(rel) {
		w.t.Errorf("uninstall: the user's %s (%q) was deleted", rel, user)
	} else if got := w.read(rel); got != user {
		w.t.Errorf("uninstall: the user's %s was %q, is %q", rel, user, got)
	}
}

// lookPath finds name on the world's PATH, not the test process's.
func (w *world) lookPath(name string) string {
	if strings.Contains(name, "/") {
		return name
	}
	for _, e := range w.env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			for _, d := range filepath.SplitList(p) {
				if st, err := os.Stat(filepath.Join(d, name)); err == nil && !st.IsDir() {
					return filepath.Join(d, name)
				}
			}
		}
	}
	return name
}

// client runs one client process to its end, with a generous timeout, and
// keeps its output in the log folder.
func (w *world) client(name string, timeout time.Duration, extraEnv []string, bin string, args ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = w.repo
	cmd.Env = append(append([]string(nil), w.env...), extraEnv...)
	cmd.Stdin = strings.NewReader("")
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	w.t.Logf("%s %s: %v (%s)", name, strings.Join(args, " ")[:min(80, len(strings.Join(args, " ")))], err, time.Since(start).Round(100*time.Millisecond))
	if dir := logDir(w.t); dir != "" {
		f, _ := os.OpenFile(filepath.Join(dir, name+".out"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "### %s %q: %v\n%s\n", bin, args, err, out.String())
		f.Close()
	}
	if ctx.Err() != nil {
		w.t.Fatalf("%s did not finish within %s\n%s", name, timeout, tail(out.String(), 3000))
	}
	if err != nil {
		w.t.Errorf("%s: %v\n%s", name, err, tail(out.String(), 3000))
	}
	return out.String()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// eventually polls cond every 100 ms until it holds or timeout passes.
func eventually(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
	return true
}

// draftWith reports whether a draft under .lore/ contains s.
func (w *world) draftWith(s string) bool {
	found := false
	filepath.WalkDir(filepath.Join(w.repo, ".lore"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || strings.Contains(p, "/cache/") {
			return nil
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), "status: draft") && strings.Contains(string(b), s) {
			found = true
		}
		return nil
	})
	return found
}

// filesWith lists the files under HOME that hold s (transcripts, for a
// capture failure's message: is the block anywhere lore could read it?).
func (w *world) filesWith(s string) []string {
	var out []string
	filepath.WalkDir(w.home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), s) {
			rel, _ := filepath.Rel(w.home, p)
			out = append(out, "~/"+rel)
		}
		return nil
	})
	return out
}

// captured runs `lore scan` after the session, as a user would, and checks
// that a draft holding marker appeared.
func (w *world) captured(marker string) {
	w.t.Helper()
	out := w.run("lore", "scan")
	if !eventually(5*time.Second, func() bool { return w.draftWith(marker) }) {
		w.t.Errorf("capture: no draft with %s in .lore/ after lore scan (it said: %s); transcripts holding it: %q", marker, strings.TrimSpace(out), w.filesWith(marker))
	}
}

func count(s, sub string) int { return strings.Count(s, sub) }
