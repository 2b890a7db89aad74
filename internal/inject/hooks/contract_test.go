package hooks

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/contracts")

// TestContracts replays recorded stdin per agent and event (file names
// <agent>-<event>[-case].json, "$ROOT" standing for the work tree) in name
// order against the test store, one session per agent (and its
// sub-agents), and compares stdout with <name>.golden. The recordings
// follow the clients' measured contracts (docs/clients.md).
func TestContracts(t *testing.T) {
	root := repo(t, testItems)
	files, _ := filepath.Glob("testdata/contracts/*.json")
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no recorded contracts")
	}
	// The main threads and the sub-agents the recordings name.
	for _, c := range [][2]string{{"c-1", ""}, {"c-1", "a4f2c1e"}, {"x-1", ""}, {"x-1", "019a7c2e-sub1"}, {"g-1", ""}} {
		openSession(c[0], c[1]).wipe()
		t.Cleanup(func() { openSession(c[0], c[1]).wipe() })
	}
	for _, f := range files {
		checkContract(t, f, root)
	}
}

// checkContract replays the recorded stdin f (a file named
// <agent>-<event>[-case].json) against the store at root and compares
// stdout with the golden file next to it.
func checkContract(t *testing.T, f, root string) {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(f), ".json")
	parts := strings.SplitN(name, "-", 3)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte("$ROOT"), []byte(root))
	got := hook(t, parts[0], parts[1], data)
	golden := strings.TrimSuffix(f, ".json") + ".golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/inject/hooks -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s:\n got %s\nwant %s", name, got, want)
	}
}
