package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lore-agents/lore/internal/lorepath"
)

func TestOpenFindsTheWorkTree(t *testing.T) {
	root := tempRepo(t)
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open(sub)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(root)
	got, _ := filepath.EvalSymlinks(s.Root)
	if got != want || s.Dir != filepath.Join(s.Root, lorepath.Dir) || s.Initialized() {
		t.Fatalf("Open(%s) = root %s dir %s initialized %v", sub, s.Root, s.Dir, s.Initialized())
	}
	if rel := s.Rel(filepath.Join(s.Root, ".lore", "lessons", "x.md")); rel != ".lore/lessons/x.md" {
		t.Fatalf("Rel = %q", rel)
	}
}

func TestOpenOutsideARepository(t *testing.T) {
	_, err := Open(t.TempDir())
	if !errors.Is(err, ErrNotRepo) {
		t.Fatalf("Open outside a repository: %v, want ErrNotRepo", err)
	}
}

// A linked worktree (git worktree add) has a .git file, not a folder.
func TestOpenLinkedWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the git CLI is needed to make a linked worktree")
	}
	dir := t.TempDir()
	main, wt := filepath.Join(dir, "main"), filepath.Join(dir, "wt")
	run := func(d string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = d
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(main, 0o755)
	run(main, "init", "-q")
	run(main, "commit", "-q", "--allow-empty", "-m", "first")
	run(main, "worktree", "add", "-q", wt)
	s, err := Open(filepath.Join(wt))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(wt)
	if got, _ := filepath.EvalSymlinks(s.Root); got != want {
		t.Fatalf("worktree root = %s, want %s", got, want)
	}
}

// Parallel writers under the store lock: every file lands whole, and no
// temp file is left in the folder.
func TestParallelWritesAllLand(t *testing.T) {
	s := openTemp(t)
	root := s.Root
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			rel := fmt.Sprintf(".lore/lessons/l%02d.md", i)
			errs <- s.WriteFile(rel, []byte(fmt.Sprintf("item %d\n", i)))
			errs <- s.WriteFile(".lore/learnings.md", []byte(fmt.Sprintf("writer %d\n", i)))
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(root, ".lore", "lessons"))
	if len(entries) != 32 {
		t.Fatalf("%d files in lessons/, want 32 (no temp files left)", len(entries))
	}
	for i := 0; i < 32; i++ {
		got, _ := os.ReadFile(filepath.Join(root, ".lore", "lessons", fmt.Sprintf("l%02d.md", i)))
		if string(got) != fmt.Sprintf("item %d\n", i) {
			t.Fatalf("l%02d.md = %q", i, got)
		}
	}
	if err := s.CreateExclusive(".lore/lessons/l00.md", []byte("x")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreateExclusive over an existing file: %v", err)
	}
}

// HighestRef counts a number by file name and by ref key: a pitfall whose
// file was renamed by hand still holds its number.
func TestHighestRef(t *testing.T) {
	s := openTemp(t)
	if next, err := s.NextRef("pitfall"); err != nil || next != "PF-0001" {
		t.Fatalf("empty store: NextRef = %q, %v", next, err)
	}
	item := func(ref string) []byte {
		return []byte("---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: pitfall\ntitle: t\nstatus: active\nref: " + ref + "\n---\n")
	}
	for rel, data := range map[string][]byte{
		".lore/pitfalls/PF-0002-a.md":   item("PF-0002"),
		".lore/pitfalls/renamed.md":     item("PF-0007"),
		".lore/decisions/ADR-0009-x.md": []byte("not even an item"),
	} {
		if err := s.WriteFile(rel, data); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.HighestRef("pitfall"); err != nil || n != 7 {
		t.Fatalf("HighestRef(pitfall) = %d, %v; want 7 from the renamed file's ref", n, err)
	}
	if next, _ := s.NextRef("decision"); next != "ADR-0010" {
		t.Fatalf("NextRef(decision) = %q, want ADR-0010 from the file name", next)
	}
	if next, _ := s.NextRef("lesson"); next != "" {
		t.Fatalf("NextRef(lesson) = %q, want none", next)
	}
}
