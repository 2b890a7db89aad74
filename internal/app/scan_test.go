package app

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/lorepath"
)

// A dry scan finds what the scan applies and writes nothing (no drafts,
// no bookmarks, no lock file); after the scan it reads its bookmarks and
// finds nothing new.
func TestScanDryRunPlansWhatTheScanApplies(t *testing.T) {
	s := newStore(t)
	transcript, _ := lessonTranscript(t)
	before := files(t, s.Root)
	dry, err := Scan(s, ScanOptions{Paths: []string{transcript}, DryRun: true})
	if err != nil || len(dry.Candidates) != 1 || len(dry.Written) != 0 {
		t.Fatalf("dry run: %v %+v", err, dry)
	}
	if after := files(t, s.Root); !reflect.DeepEqual(after, before) {
		t.Fatalf("a dry run wrote: %q, was %q", after, before)
	}
	res, err := Scan(s, ScanOptions{Paths: []string{transcript}})
	if err != nil || !reflect.DeepEqual(res.Candidates, dry.Candidates) || len(res.Written) != 1 {
		t.Fatalf("scan: %v %+v", err, res)
	}
	if _, err := s.ReadFile(res.Written[0].Path); err != nil {
		t.Fatal(err)
	}
	again, err := Scan(s, ScanOptions{Paths: []string{transcript}, DryRun: true})
	if err != nil || len(again.Candidates) != 0 {
		t.Fatalf("dry run after the scan: %v %+v", err, again)
	}
}

// files lists every file under root but .git.
func files(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Name() == ".git":
			return filepath.SkipDir
		case !d.IsDir():
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A re-scan with nothing new leaves the bookmarks file as it is (its
// rewrite was most of what such a scan cost); one that reads new lines
// replaces it.
func TestRescanRewritesBookmarksOnlyWhenTheyMove(t *testing.T) {
	s := newStore(t)
	transcript, line := lessonTranscript(t)
	bookmarks := func() os.FileInfo {
		t.Helper()
		if _, err := Scan(s, ScanOptions{Paths: []string{transcript}}); err != nil {
			t.Fatal(err)
		}
		rel, err := s.Local(lorepath.Bookmarks)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(s.Path(rel))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	first := bookmarks()
	if again := bookmarks(); !os.SameFile(first, again) {
		t.Error("a re-scan with nothing new rewrote the bookmarks")
	}
	f, err := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.ReplaceAll(line, "pytest hangs", "pytest stalls"))
	f.Close()
	if moved := bookmarks(); os.SameFile(first, moved) {
		t.Error("a scan that read a new line kept the old bookmarks")
	}
}

// lessonTranscript writes a Claude Code session whose one line holds a
// #lesson block, and returns its path and that line.
func lessonTranscript(t *testing.T) (path, line string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "session.jsonl")
	line = `{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"text","text":"#lesson\ntool: Bash\ntrigger: pytest -v\nmistake: pytest hangs without a TTY\nfix: run python -m pytest\n#/lesson"}]}}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, line
}
