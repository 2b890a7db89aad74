//go:build unix

package scan

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// returns runs f and fails the test if it has not returned after a minute:
// a hang detector (the failure this guards against is a scan that never
// ends), not a time budget.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s never returned", what)
	}
}

// TestScanRefusesWhatIsNotAFile: a device that never ends (/dev/zero), a
// named pipe nobody writes to, and a file over the size a transcript may
// have are refused with their name, and none of them hangs a scan (a Stop
// hook pointed at one would leave a background scan spinning).
func TestScanRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.jsonl")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, maxFile+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo, huge} {
		var err error
		returns(t, "Files("+path+")", func() { _, err = Files([]string{path}) })
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("Files(%s) = %v, want an error naming it", path, err)
		}
		// A file that turned into one of these after it was listed.
		var res *Result
		returns(t, "Scan("+path+")", func() { res, err = Scan([]string{path}, nil, Options{}) })
		if err != nil || res.Stats.Errors != 1 || res.Stats.Bytes != 0 {
			t.Errorf("Scan(%s) = %+v, %v, want one unreadable file and nothing read", path, res, err)
		}
	}
}
