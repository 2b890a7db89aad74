package app

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/testrepo"
)

// copyPair copies the transcript pair into a folder of its own.
func copyPair(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	src, _ := filepath.Glob("../capture/scan/testdata/pair/*.jsonl")
	for _, f := range src {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, dst)
	}
	if len(files) != 2 {
		t.Fatalf("pair: %v", src)
	}
	return dir, files
}

// Calls records the pair's calls in the cache, oldest session first; a
// second run reads nothing; lines appended add only their calls; a
// deleted cache is rebuilt the same. It never drafts nor moves lore
// scan's bookmarks.
func TestCallsCache(t *testing.T) {
	s := newStore(t)
	dir, pair := copyPair(t)
	calls, st, err := Calls(s, []string{dir})
	if err != nil || len(calls) != 6 || st.New != 6 || st.Read != 2 || st.Calls != 6 {
		t.Fatalf("first: %v %+v %d calls", err, st, len(calls))
	}
	if calls[0].Session != "a1e0c2d4-0000-4000-8000-000000000001" || calls[5].Session != "b2f1d3e5-0000-4000-8000-000000000002" {
		t.Fatalf("order: %+v", calls)
	}
	again, st, err := Calls(s, []string{dir})
	if err != nil || st.Read != 0 || st.New != 0 || !reflect.DeepEqual(again, calls) {
		t.Fatalf("nothing new: %v %+v", err, st)
	}
	// The second session goes on: two lines, one call.
	lines, _ := os.ReadFile(pair[1])
	last := strings.SplitAfter(string(lines), "\n")
	more := strings.ReplaceAll(last[len(last)-3]+last[len(last)-2], "toolu_b2", "toolu_b3")
	f, err := os.OpenFile(pair[1], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(more)
	f.Close()
	grown, st, err := Calls(s, []string{dir})
	if err != nil || st.Read != 1 || st.New != 1 || len(grown) != 7 || grown[6].Line != 6 {
		t.Fatalf("appended: %v %+v %d calls", err, st, len(grown))
	}
	cache := s.Path(lorepath.Calls)
	if err := os.RemoveAll(cache); err != nil {
		t.Fatal(err)
	}
	rebuilt, st, err := Calls(s, []string{dir})
	if err != nil || st.Read != 2 || !reflect.DeepEqual(rebuilt, grown) {
		t.Fatalf("rebuilt: %v %+v\n%+v\n%+v", err, st, rebuilt, grown)
	}
	for _, p := range files(t, s.Root) {
		rel, _ := filepath.Rel(s.Root, p)
		if strings.Contains(rel, "drafts") || strings.Contains(rel, lorepath.Bookmarks) {
			t.Fatalf("calls wrote %s", rel)
		}
	}
}

// A transcript rewritten in place has its calls replaced, not added to.
func TestCallsRewrittenTranscript(t *testing.T) {
	s := newStore(t)
	dir, pair := copyPair(t)
	if _, _, err := Calls(s, []string{dir}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(pair[0])
	lines := strings.SplitAfter(string(data), "\n")
	// Rewritten: the first two calls (lines 2 to 6) are gone.
	if err := os.WriteFile(pair[0], []byte(lines[0]+strings.Join(lines[6:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	calls, _, err := Calls(s, []string{dir})
	if err != nil || len(calls) != 4 || calls[0].Command != "pytest -x tests/test_dates.py" || calls[0].Line != 2 {
		t.Fatalf("rewritten: %v %+v", err, calls)
	}
}

// BenchmarkCalls measures lore stats' read of 200 MB of transcripts (the
// scan's fixtures, copied over): a first run that builds the cache
// (first-ms), and a run with nothing new (reread-ms: it reads and parses
// the cache).
func BenchmarkCalls(b *testing.B) {
	s := testrepo.New(b).Store()
	if _, err := Init(s, InitOptions{}); err != nil {
		b.Fatal(err)
	}
	dir, size := copyTranscripts(b, 200<<20)
	var first, reread time.Duration
	calls := 0
	b.ResetTimer()
	for range b.N {
		_ = os.RemoveAll(s.Path(lorepath.Calls))
		t0 := time.Now()
		all, _, err := Calls(s, []string{dir})
		if err != nil {
			b.Fatal(err)
		}
		first += time.Since(t0)
		calls = len(all)
		t0 = time.Now()
		if _, st, err := Calls(s, []string{dir}); err != nil || st.Read != 0 {
			b.Fatalf("nothing new: %v %+v", err, st)
		}
		reread += time.Since(t0)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(size)/(1<<20), "MB")
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(first.Seconds()*1000/n, "first-ms")
	b.ReportMetric(reread.Seconds()*1000/n, "reread-ms")
}

// copyTranscripts copies the scan's fixture transcripts into a folder
// until they total at least size bytes.
func copyTranscripts(b *testing.B, size int64) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	src, err := scan.Files([]string{"../capture/scan/testdata/transcripts"})
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "chats"), 0o755); err != nil {
		b.Fatal(err)
	}
	var total int64
	for round := 0; total < size; round++ {
		for i, f := range src {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			total += int64(len(data))
			name := fmt.Sprintf("r%03d-%03d.jsonl", round, i)
			if strings.HasSuffix(f, ".json") {
				name = filepath.Join("chats", fmt.Sprintf("session-r%03d-%03d.json", round, i))
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir, total
}
