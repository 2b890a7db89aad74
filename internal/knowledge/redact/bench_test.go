package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkFind: the detector over the texts of a real session (what scan
// redacts and lint reads are of this kind), in MB/s.
//
//	go test ./internal/knowledge/redact -run '^$' -bench Find
func BenchmarkFind(b *testing.B) {
	f, err := os.Open("../../capture/scan/testdata/transcripts/claude-code/tool_heavy.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var texts []string
	size := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var v any
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			eachText(v, func(s string) { texts = append(texts, s); size += len(s) })
		}
	}
	if size == 0 {
		b.Fatal("no text")
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		for _, s := range texts {
			if _, err := Find(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
