package hooks

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// oldState fills a state folder with a week-old context's files, a
// temp file a killed write left, an older lore's context folder, and a
// context in use.
func oldState(t *testing.T, base string) (old, young []string) {
	t.Helper()
	week := time.Now().Add(-contextLife - time.Hour)
	for _, name := range []string{"0123456789abcdef.seen", "0123456789abcdef.prompts", ".0123456789abcdef.prompts123", "fedcba9876543210/claims/01HF7Y", "fedcba9876543210/seen"} {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, week, week); err != nil {
			t.Fatal(err)
		}
		old = append(old, p)
	}
	for _, d := range []string{"fedcba9876543210/claims", "fedcba9876543210"} {
		if err := os.Chtimes(filepath.Join(base, d), week, week); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"aaaaaaaaaaaaaaaa.seen", "aaaaaaaaaaaaaaaa.prompts"} {
		p := filepath.Join(base, name)
		if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		young = append(young, p)
	}
	return old, young
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func TestSweepRemovesOnlyOldContexts(t *testing.T) {
	base := privateTemp(t)
	old, young := oldState(t, base)
	if err := sweepUntil(base, time.Now(), never); err != nil {
		t.Fatal(err)
	}
	for _, p := range old {
		if exists(p) {
			t.Errorf("%s is a week old and was kept", p)
		}
	}
	if exists(filepath.Join(base, "fedcba9876543210")) {
		t.Error("an older lore's context folder was kept")
	}
	for _, p := range young {
		if !exists(p) {
			t.Errorf("%s is in use and was removed", p)
		}
	}
	if !exists(filepath.Join(base, sweptMarker)) {
		t.Error("a whole sweep left no marker")
	}
}

func TestSweepAtMostOnceADay(t *testing.T) {
	base := privateTemp(t)
	if err := sweepUntil(base, time.Now(), never); err != nil { // the marker
		t.Fatal(err)
	}
	old, _ := oldState(t, base)
	if err := sweepUntil(base, time.Now(), never); err != nil {
		t.Fatal(err)
	}
	for _, p := range old {
		if !exists(p) {
			t.Fatalf("swept %s again within a day of the last sweep", p)
		}
	}
	// A day later the folder is swept again.
	if err := sweepUntil(base, time.Now().Add(sweepEvery+time.Minute), never); err != nil {
		t.Fatal(err)
	}
	for _, p := range old {
		if exists(p) {
			t.Errorf("%s kept by the next day's sweep", p)
		}
	}
}

// TestSweepCutShortGoesOnLater: a sweep whose budget is spent before it
// reads the folder through leaves no marker, so the next SessionStart
// sweeps; it still removes what its first batch of entries holds.
func TestSweepCutShortGoesOnLater(t *testing.T) {
	base := privateTemp(t)
	old, _ := oldState(t, base)
	if err := sweepUntil(base, time.Now(), always); err != nil { // the budget spent by the first batch
		t.Fatal(err)
	}
	if exists(filepath.Join(base, sweptMarker)) {
		t.Fatal("a sweep cut short left the marker: the rest waits a day")
	}
	for _, p := range old {
		if exists(p) {
			t.Errorf("%s kept: a sweep cut short still removes its first batch", p)
		}
	}
	old, _ = oldState(t, base)
	if err := sweepUntil(base, time.Now(), never); err != nil {
		t.Fatal(err)
	}
	for _, p := range old {
		if exists(p) {
			t.Errorf("%s kept", p)
		}
	}
}

func TestSweepOfNoFolder(t *testing.T) {
	if err := sweep(filepath.Join(t.TempDir(), "none"), time.Now()); err != nil {
		t.Fatal(err)
	}
}

// TestSweepLeavesAFolderNotItsOwn: a state folder open to others (another
// user's) is not swept.
func TestSweepLeavesAFolderNotItsOwn(t *testing.T) {
	base := privateTemp(t)
	old, _ := oldState(t, base)
	if err := os.Chmod(base, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := sweepUntil(base, time.Now(), never); err == nil {
		t.Error("swept a folder open to others")
	}
	for _, p := range old {
		if !exists(p) {
			t.Errorf("%s removed", p)
		}
	}
}

// TestSessionStartSweeps: the hook's SessionStart sweeps the user's state
// folder and still answers.
func TestSessionStartSweeps(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	old, young := oldState(t, mkdir(t, stateDir()))
	root := repo(t, testItems)
	ctx := context(t, hook(t, "claude", "SessionStart", map[string]any{"session_id": newSession(t), "cwd": root, "source": "startup"}))
	if ctx == "" {
		t.Fatal("SessionStart answered no context")
	}
	for _, p := range old {
		if exists(p) {
			t.Errorf("%s kept", p)
		}
	}
	for _, p := range young {
		if !exists(p) {
			t.Errorf("%s removed", p)
		}
	}
}

// The sweep's budget, spent or not, as the test decides rather than the
// clock.
func never() bool  { return false }
func always() bool { return true }

// privateTemp is a state folder as the hook makes it: mode 0700.
func privateTemp(t *testing.T) string {
	return mkdir(t, filepath.Join(t.TempDir(), "lore"))
}

func mkdir(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}
