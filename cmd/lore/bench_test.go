package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/benchproc"
)

// BenchmarkStartup is the start-up rows of docs/design.md, Performance and
// quality bars: whole processes interleaved run by run: `lore --version`
// against a Go program that prints {} (bar 3x), and `lore scan` with nothing
// new against `lore --version` (bar 1.5x), on the scan package's fixture
// transcripts (8 MB).
//
//	go test ./cmd/lore -run '^$' -bench Startup -benchtime=1x
func BenchmarkStartup(b *testing.B) {
	const runs = 101
	tmp := b.TempDir()
	lore, trivial := filepath.Join(tmp, "lore"), filepath.Join(tmp, "trivial")
	benchproc.Build(b, tmp, ".")
	src := filepath.Join(tmp, "trivial.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"{}\\n\") }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", trivial+".linked", src)
	build.Env = append(os.Environ(), "GOWORK=off", "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build trivial: %v\n%s", err, out)
	}
	benchproc.Settle(b, trivial+".linked", trivial) // as Build does lore
	repo := filepath.Join(tmp, "repo")
	transcripts, err := filepath.Abs(filepath.Join("..", "..", "internal", "capture", "scan", "testdata", "transcripts"))
	if err != nil {
		b.Fatal(err)
	}
	run := benchRepo(b, lore, repo, tmp)
	run(lore, "scan", "--quiet", transcripts) // the full scan: bookmarks for every file
	var trivT, versionT, rescanT []time.Duration
	b.ResetTimer()
	for range b.N {
		for range runs {
			trivT = append(trivT, run(trivial))
			versionT = append(versionT, run(lore, "--version"))
			rescanT = append(rescanT, run(lore, "scan", "--quiet", transcripts))
		}
	}
	b.StopTimer()
	t, v, r := benchproc.Median(trivT), benchproc.Median(versionT), benchproc.Median(rescanT)
	b.ReportMetric(float64(t.Microseconds())/1000, "trivial-ms")
	b.ReportMetric(float64(v.Microseconds())/1000, "version-ms")
	b.ReportMetric(float64(r.Microseconds())/1000, "rescan-ms")
	b.ReportMetric(float64(v)/float64(t), "version-x-trivial")
	b.ReportMetric(float64(r)/float64(v), "rescan-x-version")
}
