package sysread

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// ReadFile reads what os.ReadFile reads, empty and past its first buffer,
// and reports a missing file as one.
func TestReadFileIsOSReadFile(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"empty": nil,
		"small": []byte("01HF7YATAC0000000000000000\n"),
		"large": bytes.Repeat([]byte("01HF7YATAC0000000000000000\n"), 5000),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p, -1)
		if want, _ := os.ReadFile(p); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", name, len(got), err, len(want))
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), -1); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ReadFile(dir, -1); err == nil {
		t.Error("a folder read as a file")
	}
}

// A file over the limit is refused with its size, and one at the limit
// is read whole.
func TestReadFileLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "item.md")
	if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(p, 100); err != nil || len(got) != 100 {
		t.Errorf("at the limit: %d bytes, %v", len(got), err)
	}
	_, err := ReadFile(p, 99)
	var big *TooLargeError
	if !errors.As(err, &big) || big.Size != 100 || !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
}
