package gitstore_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/testrepo"
)

// TestHeadFiles lists HEAD's tree as git ls-tree does: a file only in the
// work tree, or only staged, is not in it; a repository without a commit
// gives nil.
func TestHeadFiles(t *testing.T) {
	r := testrepo.New(t)
	if files, err := r.Store().HeadFiles(); err != nil || files != nil {
		t.Fatalf("no commit: %v %v", files, err)
	}
	r.Write("src/db/migrate.py", "x\n")
	r.Write("README.md", "r\n")
	r.Commit("2026-01-05T10:00:00Z", "one")
	r.Write("src/new.py", "uncommitted\n")
	r.Write("staged.txt", "s\n")
	r.Git("add", "staged.txt")
	files, err := r.Store().HeadFiles()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(r.Git("ls-tree", "-r", "--name-only", "HEAD"))
	if !reflect.DeepEqual(files, want) || len(want) != 2 {
		t.Errorf("got %q, git says %q", files, want)
	}
}
