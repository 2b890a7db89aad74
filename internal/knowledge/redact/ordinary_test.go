package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOrdinaryCorpus: none of the ordinary strings in testdata/ordinary.txt
// (commit ids, UUIDs, base64 test data, integrity hashes, paths, URLs
// without credentials, long identifiers, words about credentials) is
// changed.
func TestOrdinaryCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/ordinary.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		got, err := String(line)
		if err != nil {
			t.Fatal(err)
		}
		if got != line {
			t.Errorf("changed ordinary text:\n in: %q\nout: %q", line, got)
		}
	}
	if n < 60 {
		t.Fatalf("only %d cases", n)
	}
}

// TestRealTranscripts: the text of real sessions (user and assistant
// messages, tool calls and their output; not the thinking signatures,
// which lore never reads) has nothing to redact.
func TestRealTranscripts(t *testing.T) {
	files := []string{
		"../../capture/scan/testdata/transcripts/claude-code-1.0/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
		"../../capture/scan/testdata/transcripts/claude-code/tool_heavy.jsonl",
		"../../capture/scan/testdata/transcripts/claude-code/subagent.jsonl",
		"../../capture/scan/testdata/transcripts/claude-code/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl",
		"../../capture/scan/testdata/transcripts/claude-code/fa812bfe-b295-4cca-9c2f-fdf01028cb46/subagents/agent-a93ccab.jsonl",
	}
	texts, bytes := 0, 0
	for _, f := range files {
		in, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			var v any
			if json.Unmarshal(sc.Bytes(), &v) != nil {
				continue
			}
			eachText(v, func(s string) {
				texts++
				bytes += len(s)
				spans, err := Find(s)
				if err != nil {
					t.Fatal(err)
				}
				for _, sp := range spans {
					t.Errorf("%s: redacted %s %q", filepath.Base(f), sp.Kind, s[sp.Start:sp.End])
				}
			})
		}
		in.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if bytes < 1<<20 {
		t.Fatalf("read only %d bytes", bytes)
	}
	t.Logf("%d texts, %d bytes", texts, bytes)
}

func eachText(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			eachText(e, f)
		}
	case map[string]any:
		for k, e := range x {
			if k != "signature" {
				eachText(e, f)
			}
		}
	}
}
