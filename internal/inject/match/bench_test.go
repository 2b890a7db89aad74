package match_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/compile"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/synthetic"
)

// syntheticManifest writes the manifest of a realistic store of n items
// (synthetic.Files) to a file.
func syntheticManifest(b *testing.B, n int) string {
	b.Helper()
	data, rep, err := compile.Build(compile.Input{Items: synthetic.Items(n), Config: config.Default()})
	if err != nil || rep.Compiled != n {
		b.Fatalf("build: %v (%d compiled)", err, rep.Compiled)
	}
	path := filepath.Join(b.TempDir(), "manifest")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(data)), "manifest-bytes")
	return path
}

// benchDecide measures what the hook does per call: open the manifest,
// decide, read the winners' texts, close.
func benchDecide(b *testing.B, n int, c match.Call, want int) {
	path := syntheticManifest(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m, err := manifest.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		d, err := match.Decide(m, c, nil)
		if err != nil || len(d.Injected) != want {
			b.Fatalf("decide: %v, %d injected, want %d", err, len(d.Injected), want)
		}
		m.Close()
	}
}

var (
	bashCall  = match.Call{Tool: "Bash", Command: synthetic.BenchCommand, Prompt: "run the tests please"}
	otherCall = match.Call{Tool: "WebSearch", Prompt: "find the pytest docs"}
)

func BenchmarkDecideBash1000(b *testing.B)   { benchDecide(b, 1000, bashCall, 3) }
func BenchmarkDecideBash10000(b *testing.B)  { benchDecide(b, 10000, bashCall, 3) }
func BenchmarkDecideOther1000(b *testing.B)  { benchDecide(b, 1000, otherCall, 0) }
func BenchmarkDecideOther10000(b *testing.B) { benchDecide(b, 10000, otherCall, 0) }
