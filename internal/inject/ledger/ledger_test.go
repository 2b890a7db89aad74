package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/testrepo"
)

// TestMain runs the test binary as an appending process when the
// parallel-process tests start it so (helperEnv).
func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(helper(spec))
	}
	os.Exit(testrepo.Hermetic(m.Run))
}

const helperEnv = "LORE_LEDGER_TEST_HELPER"

// helper appends entries to the ledger at root as a hook process would:
// spec is "root|writer|count", count -1 for ever.
func helper(spec string) int {
	parts := strings.Split(spec, "|")
	count, _ := strconv.Atoi(parts[2])
	for i := 0; count < 0 || i < count; i++ {
		if err := Append(parts[0], numbered(parts[1], i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// numbered is writer's ith entry: the writer in Context, i in Call.
func numbered(writer string, i int) Entry {
	return Entry{Time: time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC), Agent: "claude", Event: Pre,
		Context: writer, Call: fmt.Sprintf("%016x", i), Tool: "Bash", Injected: []string{"01JPYTEST0000000000000000A"}}
}

// store is a fresh work tree with .lore/ (no .lore/local yet).
func store(t testing.TB) string {
	t.Helper()
	r := testrepo.New(t)
	r.Write(".lore/lessons/x.md", "---\ntitle: x\n---\n")
	return r.Dir
}

func ledgerFile(root string, n int) string { return file(filepath.Join(root, ".lore", "local"), n) }

// TestRoundTrip: every field comes back as written, the line is JSON with
// the documented keys, and an odd tool name stays one valid line.
func TestRoundTrip(t *testing.T) {
	root := store(t)
	at := time.Date(2026, 11, 28, 5, 12, 18, 999, time.FixedZone("CET", 3600))
	in := []Entry{
		{Time: at, Agent: "claude", Event: Pre, Context: "d8e7b1339ddd9706", Call: CallHash("Bash", "pytest -x"), Tool: "Bash",
			Injected: []string{"01JPYTEST0000000000000000A"}, Held: []string{"01JHOLD00000000000000000AA"},
			Denied: []string{"01JFRCE000000000000000000B"}, Dropped: []string{"01JDROP00000000000000000AA", "01JDROP00000000000000000AB"},
			Matched: []string{"01JMATCH0000000000000000AA"}},
		{Time: at, Agent: "gemini", Event: Start},
		{Time: at, Agent: "codex", Event: Post, Tool: "mcp__x\"y\\z\n\x01é\xff", Call: "0123456789abcdef"},
	}
	for _, e := range in {
		if err := Append(root, e); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(ledgerFile(root, 0))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	want0 := `{"t":"2026-11-28T04:12:18Z","agent":"claude","event":"pre","ctx":"d8e7b1339ddd9706","call":"` + CallHash("Bash", "pytest -x") +
		`","tool":"Bash","injected":["01JPYTEST0000000000000000A"],"held":["01JHOLD00000000000000000AA"],"denied":["01JFRCE000000000000000000B"],` +
		`"dropped":["01JDROP00000000000000000AA","01JDROP00000000000000000AB"],"matched":["01JMATCH0000000000000000AA"]}`
	if len(lines) != 3 || lines[0] != want0 || lines[1] != `{"t":"2026-11-28T04:12:18Z","agent":"gemini","event":"start"}` {
		t.Fatalf("ledger:\n%s", data)
	}
	got, skipped, err := Read(root)
	if err != nil || skipped != 0 || len(got) != 3 {
		t.Fatalf("Read: %d entries, %d skipped, %v", len(got), skipped, err)
	}
	for i, e := range in {
		e.Time = at.UTC().Truncate(time.Second)
		if i == 2 {
			e.Tool = "mcp__x\"y\\z\n\x01é\uFFFD" // invalid UTF-8 replaced
		}
		if !reflect.DeepEqual(got[i], e) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, got[i], e)
		}
		var viaJSON Entry
		if err := json.Unmarshal([]byte(lines[i]), &viaJSON); err != nil || !reflect.DeepEqual(viaJSON, got[i]) {
			t.Errorf("line %d through encoding/json: %+v, %v", i, viaJSON, err)
		}
	}
}

// TestCallHash pins the hash: the lead's reading of a retried call
// compares it across lore versions.
func TestCallHash(t *testing.T) {
	if h := CallHash("Bash", "pytest -x"); h != CallHash("Bash", "pytest -x") || len(h) != 16 {
		t.Fatalf("CallHash = %q", h)
	}
	if CallHash("Bash", "pytest -x") == CallHash("Bash", "pytest -q") || CallHash("Bash", "x") == CallHash("Edit", "x") ||
		CallHash("Bash", "") == CallHash("Bas", "h") || CallHash("Read", "file_path", "a") == CallHash("Read", "file_patha") {
		t.Error("different calls hash alike")
	}
	if h := CallHash("Bash", "pytest -x"); h != "2415ad7fa52cb40a" {
		t.Errorf("CallHash(Bash, pytest -x) = %s: a changed hash splits held calls from their retries", h)
	}
}

// fill writes valid entries into the live file until it is n bytes short
// of MaxBytes, and returns how many.
func fill(t *testing.T, root string, short int) int {
	t.Helper()
	line := numbered("fill", 0).appendJSON(nil)
	count := (MaxBytes - short) / len(line)
	if err := os.MkdirAll(filepath.Dir(ledgerFile(root, 0)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ledgerFile(root, 0), bytes.Repeat(line, count), 0o644); err != nil {
		t.Fatal(err)
	}
	return count
}

// checkWriters asserts that Read finds every writer's entries 0..each-1,
// each once, and no skipped line.
func checkWriters(t *testing.T, root string, writers, each, filled int) {
	t.Helper()
	got, skipped, err := Read(root)
	if err != nil || skipped != 0 {
		t.Fatalf("Read: %d skipped, %v", skipped, err)
	}
	if len(got) != writers*each+filled {
		t.Fatalf("%d entries, want %d", len(got), writers*each+filled)
	}
	seen := map[string]int{}
	for _, e := range got {
		seen[e.Context+"/"+e.Call]++
	}
	for w := range writers {
		for i := range each {
			if k := fmt.Sprintf("w%d/%016x", w, i); seen[k] != 1 {
				t.Fatalf("entry %s found %d times", k, seen[k])
			}
		}
	}
	if _, err := os.Stat(ledgerFile(root, 1)); err != nil {
		t.Errorf("the ledger did not rotate: %v", err)
	}
}

// TestParallelAppendsAcrossRotation: 16 goroutines append while the
// ledger passes its bound: no line is lost, torn or doubled.
func TestParallelAppendsAcrossRotation(t *testing.T) {
	root := store(t)
	filled := fill(t, root, 8<<10)
	const writers, each = 16, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if err := Append(root, numbered(fmt.Sprintf("w%d", w), i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkWriters(t, root, writers, each, filled)
}

// start runs the test binary as an appending process.
func start(t *testing.T, root, writer string, count int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+root+"|"+writer+"|"+strconv.Itoa(count))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// TestParallelProcesses: 16 processes append at once across a rotation,
// as parallel hook calls do: no line is lost, torn or doubled.
func TestParallelProcesses(t *testing.T) {
	root := store(t)
	filled := fill(t, root, 16<<10)
	const writers, each = 16, 300
	var cmds []*exec.Cmd
	for w := range writers {
		cmds = append(cmds, start(t, root, fmt.Sprintf("w%d", w), each))
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	checkWriters(t, root, writers, each, filled)
}

// TestKilledWriter: a process killed (SIGKILL) while it appends leaves the
// ledger readable and appendable: at most its last line is skipped, and
// the entries written after it are read.
func TestKilledWriter(t *testing.T) {
	root := store(t)
	cmd := start(t, root, "killed", -1)
	for lines := 0; lines < 500; {
		data, _ := os.ReadFile(ledgerFile(root, 0))
		lines = bytes.Count(data, []byte("\n"))
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for i := range 5 {
		if err := Append(root, numbered("after", i)); err != nil {
			t.Fatal(err)
		}
	}
	got, skipped, err := Read(root)
	if err != nil || skipped > 1 || len(got) < 505 {
		t.Fatalf("Read: %d entries, %d skipped, %v", len(got), skipped, err)
	}
	for i, e := range got[len(got)-5:] {
		if e.Context != "after" || e.Call != fmt.Sprintf("%016x", i) {
			t.Errorf("entry %d after the kill: %+v", i, e)
		}
	}
	for i, e := range got[:len(got)-5] {
		if e.Context != "killed" || e.Call != fmt.Sprintf("%016x", i) {
			t.Fatalf("entry %d of the killed writer: %+v", i, e)
		}
	}
}

// TestTornAndForeignLines: the line a writer killed mid-write leaves (no
// newline, so the next line is glued to it), a foreign line, bad JSON, a
// wrong type and an overlong line are skipped and counted; the entries
// around them are read.
func TestTornAndForeignLines(t *testing.T) {
	root := store(t)
	if err := Append(root, numbered("a", 0)); err != nil {
		t.Fatal(err)
	}
	line := numbered("torn", 0).appendJSON(nil)
	junk := string(line[:len(line)/2]) + "\n" + `{"hello":"world"}` + "\nnot json\n" + `{"t":5,"agent":"claude","event":"pre"}` + "\n" +
		`{"t":"` + strings.Repeat("x", maxLine+10) + "\"}\n" + string(line[:len(line)/3])
	f, err := os.OpenFile(ledgerFile(root, 0), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(junk); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for i := 1; i < 3; i++ {
		if err := Append(root, numbered("a", i)); err != nil {
			t.Fatal(err)
		}
	}
	got, skipped, err := Read(root)
	if err != nil || skipped != 6 || len(got) != 3 {
		t.Fatalf("Read: %d entries, %d skipped, %v", len(got), skipped, err)
	}
	for i, e := range got {
		if e.Context != "a" || e.Call != fmt.Sprintf("%016x", i) {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
}

// TestNoLedgerAndLinks: no ledger reads as none; a linked .lore/local is
// refused, nothing written through it.
func TestNoLedgerAndLinks(t *testing.T) {
	root := store(t)
	if got, skipped, err := Read(root); len(got) != 0 || skipped != 0 || err != nil {
		t.Fatalf("Read of no ledger: %v %d %v", got, skipped, err)
	}
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(root, ".lore", "local")); err != nil {
		t.Fatal(err)
	}
	if err := Append(root, numbered("a", 0)); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("Append through a link: %v", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("wrote through the link: %v", ents)
	}
}

// yearEntry is the ith call of a simulated day: most calls match nothing,
// one in ten shows an item, one in fifty drops another.
func yearEntry(day time.Time, i int) Entry {
	e := Entry{Time: day.Add(time.Duration(i) * time.Minute), Agent: "claude", Event: Pre,
		Context: fmt.Sprintf("%016x", day.Unix()+int64(i/100)), Call: fmt.Sprintf("%016x", i*7919), Tool: "Bash"}
	if i%10 == 0 {
		e.Injected = []string{"01JPYTEST0000000000000000A"}
	}
	if i%50 == 0 {
		e.Dropped = []string{"01JDROP00000000000000000AA"}
	}
	return e
}

// TestYearOfUse appends a year of a heavy user's calls (500 a day) through
// Append: the ledger stays within its bound, keeps the newest entries, and
// keeps months of them.
func TestYearOfUse(t *testing.T) {
	root := store(t)
	const days, perDay = 365, 500
	first := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	for d := range days {
		for i := range perDay {
			if err := Append(root, yearEntry(first.AddDate(0, 0, d), i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var total int64
	for n := 0; n <= Kept+1; n++ {
		if fi, err := os.Stat(ledgerFile(root, n)); err == nil {
			total += fi.Size()
		}
	}
	if bound := int64((Kept + 1) * MaxBytes); total > bound {
		t.Errorf("ledger holds %d bytes, over %d", total, bound)
	}
	if _, err := os.Stat(ledgerFile(root, Kept+1)); err == nil {
		t.Errorf("a file past Kept is kept")
	}
	got, skipped, err := Read(root)
	if err != nil || skipped != 0 {
		t.Fatalf("Read: %d skipped, %v", skipped, err)
	}
	last := yearEntry(first.AddDate(0, 0, days-1), perDay-1)
	if !reflect.DeepEqual(got[len(got)-1], last) {
		t.Errorf("newest entry %+v, want %+v", got[len(got)-1], last)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Time.Before(got[i-1].Time) {
			t.Fatalf("entry %d out of order: %v after %v", i, got[i].Time, got[i-1].Time)
		}
	}
	kept := last.Time.Sub(got[0].Time).Hours() / 24
	t.Logf("a year at %d calls a day: %d bytes in %d entries, the last %.0f days kept", perDay, total, len(got), kept)
	if kept < 180 {
		t.Errorf("only %.0f days kept, want months", kept)
	}
}

// BenchmarkAppend is what a hook call pays for its line: us/append is the
// median of the appends of one benchmark run.
//
//	go test ./internal/inject/ledger -run '^$' -bench Append -benchtime=1x
func BenchmarkAppend(b *testing.B) {
	root := store(b)
	e := yearEntry(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), 10)
	var ds []time.Duration
	for b.Loop() {
		for range 1001 {
			start := time.Now()
			if err := Append(root, e); err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(start))
		}
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds())/1000, "us/append")
}
