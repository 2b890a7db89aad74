package scan

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// FuzzLine feeds arbitrary bytes to the Claude, Codex and Gemini line
// readers and the skimmer: nothing may panic, and every event text is valid UTF-8.
func FuzzLine(f *testing.F) {
	f.Add([]byte(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"#lesson\ntool: Bash\nfix: x\n#/lesson"}]}}`))
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","is_error":true,"content":"timed out \u00e9\ud83d\ude00"}]}}`))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls\"]}","call_id":"c"}}`))
	f.Add([]byte(`{"$set":{"messages":[{"id":"g","type":"gemini","content":[{"text":"x"}],"toolCalls":[{"id":"c","status":"error","result":[{"functionResponse":{"response":{"output":"e"}}}]}]}]}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var st Stats
		s := &session{names: map[string]string{}, stats: &st}
		fuzzlimit.Run(t, func() {
			s.claudeLine(line, 1)
			s.codexLine(line, 2)
			s.geminiJSONL(bytes.NewReader(line), 0, 0)
			_ = strPrefix(line, 7)
			_ = s.candidates("f")
		})
		for _, e := range s.events {
			if !utf8.ValidString(e.Text) {
				t.Fatalf("invalid UTF-8 in event %q", e.Text)
			}
		}
	})
}

// FuzzLessonBlock: any body between the markers parses without panic;
// values are trimmed and never hold a closing marker.
func FuzzLessonBlock(f *testing.F) {
	f.Add("tool: Bash\ntrigger: pytest\nmistake: hangs\nfix: TERM=dumb\ntags: a:b, c:d")
	f.Add("  mistake: indented\n  fix:\n    - one\n    - two\n  extra_key: kept")
	f.Add("```\nfix: fenced\n```")
	f.Add("title: " + strings.Repeat("a long title ", 10) + "\nfix: x")
	f.Fuzz(func(t *testing.T, body string) {
		var bs []Block
		fuzzlimit.Run(t, func() { bs = ParseBlocks("text\n#lesson\n" + body + "\n#/lesson\nmore") })
		for _, b := range bs {
			checkBlock(t, b, lessonClose)
			checkTitle(t, fromBlock(b))
		}
	})
}

// FuzzPKBlock is FuzzLessonBlock for [PROCESS_KNOWLEDGE] blocks.
func FuzzPKBlock(f *testing.F) {
	f.Add("type: checklist\nlabel: L\ntrigger_conditions:\n  tool_names: [Write, Edit]\nchecklist:\n  items:\n    - a")
	f.Add("label: only a label")
	f.Add("label: " + strings.Repeat("a label over a hundred characters ", 4) + "\ntype: checklist")
	f.Add("label: a label\n  that spans\n  lines\ntype: pattern")
	f.Fuzz(func(t *testing.T, body string) {
		var bs []Block
		var cs []Candidate
		fuzzlimit.Run(t, func() {
			bs = ParseBlocks("[PROCESS_KNOWLEDGE]" + body + "[/PROCESS_KNOWLEDGE]")
			for _, b := range bs {
				cs = append(cs, fromBlock(b))
			}
		})
		for i, b := range bs {
			checkBlock(t, b, pkClose)
			checkTitle(t, cs[i])
		}
	})
}

// checkTitle: what scan writes as a title is one line lint accepts.
func checkTitle(t *testing.T, c Candidate) {
	t.Helper()
	if err := c.redactAll(strings.NewReplacer(), map[string]string{}); err != nil {
		t.Fatal(err)
	}
	if len([]rune(c.Title)) > maxTitle || strings.ContainsAny(c.Title, "\r\n") {
		t.Fatalf("title not one line of at most %d characters: %q", maxTitle, c.Title)
	}
}

func checkBlock(t *testing.T, b Block, closing string) {
	t.Helper()
	if len(b.Keys) != len(b.Values) {
		t.Fatalf("keys %v vs values %v", b.Keys, b.Values)
	}
	for k, v := range b.Values {
		if v != strings.TrimSpace(v) {
			t.Fatalf("%s not trimmed: %q", k, v)
		}
		if strings.Contains(v, closing) {
			t.Fatalf("%s holds the closing marker: %q", k, v)
		}
	}
}
