package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// claim hands each id out once per context, also to a call that had no
// SessionStart before it, and unclaim hands the dropped ids out again.
func TestClaimOncePerContext(t *testing.T) {
	s := openSession(newSession(t), "")
	t.Cleanup(func() { s.wipe() })
	claim := func(ids ...string) []string {
		t.Helper()
		got, err := s.claim(ids)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := claim("a", "b", "a"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("first claim = %q, want [a b]", got)
	}
	if got := claim("b", "c", "bad\nid"); !reflect.DeepEqual(got, []string{"c"}) {
		t.Errorf("second claim = %q, want [c]", got)
	}
	if err := s.unclaim(func(id string) bool { return id == "a" }); err != nil {
		t.Fatal(err)
	}
	if got := claim("a", "b", "c"); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("claim after unclaim = %q, want [a]", got)
	}
	if seen := s.seen(); len(seen) != 3 || !seen["a"] || !seen["b"] || !seen["c"] {
		t.Errorf("seen = %v, want a, b, c", seen)
	}
	other := openSession(newSession(t), "sub")
	t.Cleanup(func() { other.wipe() })
	if got, err := other.claim([]string{"a"}); err != nil || !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("another context's claim = %q, %v, want [a]", got, err)
	}
}

// TestStateDirPrefersMemory: the state folder is XDG_RUNTIME_DIR's when it
// is set (an absolute path, as the spec requires) to a folder, else
// /dev/shm's on Linux, else the temp dir's.
func TestStateDirPrefersMemory(t *testing.T) {
	uid := strconv.Itoa(os.Getuid())
	xdg := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", xdg)
	if got := stateDir(); got != filepath.Join(xdg, "lore") {
		t.Errorf("with XDG_RUNTIME_DIR: %s", got)
	}
	want := filepath.Join(os.TempDir(), "lore-"+uid)
	if st, err := os.Stat(shmDir); err == nil && st.IsDir() && runtime.GOOS == "linux" {
		want = filepath.Join(shmDir, "lore-"+uid)
	}
	for _, xdg := range []string{"", strings.TrimPrefix(xdg, "/"), filepath.Join(xdg, "gone")} {
		t.Setenv("XDG_RUNTIME_DIR", xdg)
		if got := stateDir(); got != want {
			t.Errorf("XDG_RUNTIME_DIR=%q: %s, want %s", xdg, got, want)
		}
	}
}

// TestStateRefusedInASharedFolder: a state folder others can write (one
// that turned shared after the hook chose it) gets no prompt and no claim.
func TestStateRefusedInASharedFolder(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	s := openSession("shared", "")
	dir := filepath.Dir(s.self)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := s.addPrompt("my api key is in .env"); err == nil {
		t.Error("a prompt was stored in a folder others can read")
	}
	if _, err := s.claim([]string{"01HF7YATAC0000000000000000"}); err == nil {
		t.Error("a claim was made in a folder others can write")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("wrote %v", ents)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.claim([]string{"01HF7YATAC0000000000000000"}); err != nil {
		t.Errorf("the folder made private again: %v", err)
	}
}

// TestChildEnvDropsGOMAXPROCS: the lore processes the hook starts get every
// core back (the registered command line runs the hook with one).
func TestChildEnvDropsGOMAXPROCS(t *testing.T) {
	t.Setenv("GOMAXPROCS", "1")
	t.Setenv("LORE_TEST_KEPT", "yes")
	env := childEnv()
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GOMAXPROCS=") }) {
		t.Errorf("GOMAXPROCS passed on: %v", env)
	}
	if !slices.Contains(env, "LORE_TEST_KEPT=yes") {
		t.Error("the rest of the environment was not passed on")
	}
}

// TestStateFolderNotOursIsPassedOver: another local user can make the
// state folder first (/dev/shm/lore-<uid>, with access for others, or
// owned by them) and the user cannot remove it. The hook passes it over
// for a private folder, so lessons keep coming, says so once on stderr,
// and writes nothing into it.
func TestStateFolderNotOursIsPassedOver(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", xdg)
	theirs := filepath.Join(xdg, "lore")
	if err := os.Mkdir(theirs, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		// Root can make it another user's; otherwise a mode others can use.
		if err := os.Chown(theirs, 4242, 4242); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Chmod(theirs, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(theirs, 0o700) })
	if got := stateDir(); got == theirs {
		t.Fatalf("stateDir() = %s, a folder that is not this user's alone", got)
	}
	root := repo(t, testItems)
	call := func(s string) (ctx, stderr string) {
		var out, errb bytes.Buffer
		data, _ := json.Marshal(bash(root, s, "pytest -x"))
		if code := Main([]string{"claude", "PreToolUse"}, bytes.NewReader(data), &out, &errb); code != 0 {
			t.Fatalf("exit %d", code)
		}
		return out.String(), errb.String()
	}
	out, stderr := call(newSession(t))
	if !strings.Contains(out, "pytest hangs without a TTY") {
		t.Errorf("the lesson was not injected with the state folder taken: %s", out)
	}
	if !strings.Contains(stderr, theirs) {
		t.Errorf("stderr does not name the folder passed over: %q", stderr)
	}
	if _, stderr := call(newSession(t)); stderr != "" {
		t.Errorf("the second call says it again: %q", stderr)
	}
	if ents, _ := os.ReadDir(theirs); len(ents) != 0 {
		t.Errorf("wrote into the folder passed over: %v", ents)
	}
}
