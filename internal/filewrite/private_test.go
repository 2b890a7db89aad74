package filewrite

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestPrivateDir(t *testing.T) {
	top := t.TempDir()
	fresh := filepath.Join(top, "fresh")
	if err := PrivateDir(fresh); err != nil {
		t.Fatalf("a missing folder: %v", err)
	}
	if st, err := os.Stat(fresh); err != nil || st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("made %v, %v: want a folder of mode 0700", st.Mode(), err)
	}
	if err := PrivateDir(fresh); err != nil {
		t.Fatalf("the same folder again: %v", err)
	}
	open := filepath.Join(top, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil { // as another user's world-writable folder would be
		t.Fatal(err)
	}
	link := filepath.Join(top, "link")
	if err := os.Symlink(fresh, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(top, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{open, link, file} {
		if err := PrivateDir(dir); !errors.Is(err, ErrNotPrivate) {
			t.Errorf("%s: %v, want ErrNotPrivate", filepath.Base(dir), err)
		}
	}
}
