package hooks

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// readFile reads what os.ReadFile reads, empty and past its first buffer,
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
		got, err := readFile(p)
		if want, _ := os.ReadFile(p); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", name, len(got), err, len(want))
		}
	}
	if _, err := readFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := readFile(dir); err == nil {
		t.Error("a folder read as a file")
	}
}
