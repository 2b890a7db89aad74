package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchSource is a manifest-level store of n gated Bash items (no compile
// import: manifest stays stdlib-only even in tests).
func benchSource(n int) Source {
	src := Source{Settings: Settings{BudgetBytes: 4096, MaxItems: 3, Threshold: 0.7}, SessionStart: "x"}
	b := Bucket{Tool: "Bash"}
	for i := 0; i < n; i++ {
		w := fmt.Sprintf("tool%05d", i)
		src.Items = append(src.Items, Item{ID: fmt.Sprintf("%026d", i), Kind: "lesson", Title: w + " trap", File: ".lore/lessons/" + w + ".md",
			Status: "active", Priority: 5, Confidence: 1,
			Triggers: Triggers{Tools: []string{"Bash"}, Commands: []string{`\b` + w + `\b`}},
			Text:     "### Lesson: " + w + " trap\nMistake: ran it wrong.\nFix: run it right.\n"})
		b.Target = append(b.Target, Gate{Item: i, Literals: []string{w}})
	}
	src.Buckets = []Bucket{b}
	return src
}

func benchOpen(b *testing.B, n int) {
	data, err := Build(benchSource(n))
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "manifest")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(data)), "manifest-bytes")
	b.ReportAllocs()
	for b.Loop() {
		m, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if c, err := m.Candidates("Bash", "tool00042 --fast", "", ""); err != nil || len(c) != 1 {
			b.Fatalf("candidates %v", c)
		}
		m.Close()
	}
}

func BenchmarkOpen1000(b *testing.B)  { benchOpen(b, 1000) }
func BenchmarkOpen10000(b *testing.B) { benchOpen(b, 10000) }
