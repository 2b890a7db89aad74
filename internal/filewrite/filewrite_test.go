package filewrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReplaceKeepsModeAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.md")
	if err := Replace(p, []byte("one"), Options{Sync: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	steps := 0
	if err := Replace(p, []byte("two"), Options{Sync: true, Step: func(func()) { steps++ }}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil || string(data) != "two" {
		t.Fatalf("read %q, %v", data, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("folder holds %d files, want the file alone", len(entries))
	}
	// create, write, fsync, rename, folder fsync
	if steps != 5 {
		t.Errorf("%d steps, want 5", steps)
	}
}

func TestReplaceTempMatchesTheSweep(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	var temp string
	stop := errors.New("stop")
	func() {
		defer func() { _ = recover() }()
		_ = Replace(p, []byte("data"), Options{Step: func(partial func()) {
			if partial != nil {
				entries, _ := os.ReadDir(dir)
				temp = entries[0].Name()
				panic(stop)
			}
		}})
	}()
	// "." + name + at least six digits: what gitstore's sweep and lint take
	// for a killed write's temp file.
	if len(temp) < len(".f.md")+6 || temp[:len(".f.md")] != ".f.md" {
		t.Fatalf("temp file %q", temp)
	}
}

func TestAppendRepairsACutLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log", "x.jsonl")
	if err := Append(p, []byte(`{"a":1}`+"\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p, os.O_WRONLY|os.O_APPEND, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"b":`) // a writer killed mid-line
	f.Close()
	if err := Append(p, []byte(`{"c":3}`+"\n"), Options{Sync: true}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if want := `{"a":1}` + "\n" + `{"b":` + "\n" + `{"c":3}` + "\n"; string(data) != want {
		t.Fatalf("log %q, want %q", data, want)
	}
}

func TestRemoveAndRename(t *testing.T) {
	dir := t.TempDir()
	if err := Remove(filepath.Join(dir, "missing"), Options{Sync: true}); err != nil {
		t.Fatalf("remove of a missing file: %v", err)
	}
	if err := Rename(filepath.Join(dir, "missing"), filepath.Join(dir, "to"), Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("rename of a missing file: %v, want fs.ErrNotExist", err)
	}
	if err := Touch(filepath.Join(dir, "a", "f"), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Rename(filepath.Join(dir, "a", "f"), filepath.Join(dir, "b", "g"), Options{Sync: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b", "g")); err != nil {
		t.Fatal(err)
	}
}
