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
// order against the test store, one session per agent, and compares
// stdout with <name>.golden.
func TestContracts(t *testing.T) {
	root := repo(t, testItems)
	files, _ := filepath.Glob("testdata/contracts/*.json")
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no recorded contracts")
	}
	for _, id := range []string{"c-1", "x-1", "g-1"} {
		openSession(id).wipe()
		t.Cleanup(func() { openSession(id).wipe() })
	}
	for _, f := range files {
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
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./hooks -run TestContracts -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
