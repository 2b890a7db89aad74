package gitstore

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
)

// TestMappedPacksReadLikeTheFile: a pack file opened through mappedPacks
// reads, seeks and reads at offsets exactly as the file does, and any
// other file is the file itself.
func TestMappedPacksReadLikeTheFile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "a"}, {"commit", "-q", "--allow-empty", "-m", "b"}, {"gc", "-q"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	name, _ := filepath.Rel(filepath.Join(dir, ".git"), packs[0])
	want, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	fs := mappedPacks{osfs.New(filepath.Join(dir, ".git"))}
	f, err := fs.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*mappedFile); !ok && mapsFiles {
		t.Errorf("the pack was opened as %T, not mapped", f)
	}
	if f.Name() != name {
		t.Errorf("Name() = %q, want %q", f.Name(), name)
	}
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes (%v), want the file's %d", len(got), err, len(want))
	}
	if at, err := f.Seek(12, io.SeekStart); at != 12 || err != nil {
		t.Fatalf("Seek: %d %v", at, err)
	}
	b := make([]byte, 8)
	if n, err := f.Read(b); n != 8 || err != nil || !bytes.Equal(b, want[12:20]) {
		t.Errorf("Read after Seek: %d %v %q", n, err, b)
	}
	if n, err := f.ReadAt(b, int64(len(want)-4)); n != 4 || err != io.EOF || !bytes.Equal(b[:4], want[len(want)-4:]) {
		t.Errorf("ReadAt at the end: %d %v", n, err)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("a pack file took a write")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	head, err := fs.Open("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer head.Close()
	if data, _ := io.ReadAll(head); !strings.HasPrefix(string(data), "ref: ") {
		t.Errorf("HEAD through mappedPacks: %q", data)
	}
}
