package interop

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// A store export's contentPatterns are regexes for a file's content
// (lessons-learned's schema), so they become triggers.content on Edit and
// Write: never the model gate, which would drop the lesson's triggers.
// The lesson is the peer's own test store record, its triggers varied.
func TestImportLessonsLearnedContentPatterns(t *testing.T) {
	data, err := os.ReadFile("testdata/lessons-learned/lessons-store.json")
	if err != nil {
		t.Fatal(err)
	}
	var store struct {
		Lessons []map[string]any `json:"lessons"`
	}
	if err := json.Unmarshal(data, &store); err != nil {
		t.Fatal(err)
	}
	withTriggers := func(tools, commands, content []string) []byte {
		l := map[string]any{}
		for k, v := range store.Lessons[0] {
			l[k] = v
		}
		l["triggers"] = map[string]any{"toolNames": tools, "commandPatterns": commands, "pathPatterns": []string{}, "contentPatterns": content}
		out, _ := json.Marshal(map[string]any{"lessons": []any{l}})
		return out
	}
	for _, tc := range []struct {
		name                     string
		tools, commands, content []string
		want                     []markdown.Triggers
		note                     string
	}{
		{"content only", []string{"Edit", "Write"}, nil, []string{`\bTODO\b`},
			[]markdown.Triggers{{Tools: []string{"Edit", "Write"}, Content: []string{`\bTODO\b`}}},
			"contentPatterns carried as triggers.content on Edit, Write; lessons-learned's build drops them"},
		{"commands and content", []string{"Bash", "Edit"}, []string{`\bgit\s+stash\b`}, []string{`stash\(`},
			[]markdown.Triggers{{Tools: []string{"Bash"}, Commands: []string{`\bgit\s+stash\b`}},
				{Tools: []string{"Edit"}, Content: []string{`\bgit\s+stash\b`, `stash\(`}}},
			"imported as two items: one on Bash, and triggers.content on Edit"},
		{"content and a tool without text", []string{"Bash", "Write"}, nil, []string{`(?i)todo`},
			[]markdown.Triggers{{Tools: []string{"Bash"}}, {Tools: []string{"Write"}, Content: []string{`(?i)todo`}}},
			"contentPatterns carried as triggers.content on Write"},
		{"no tool adds text", []string{"Bash"}, nil, []string{`x`},
			[]markdown.Triggers{{Tools: []string{"Bash"}}},
			"contentPatterns: none of its tools (Bash) adds text (Edit, Write): not carried"},
		{"a lookahead on the text", []string{"Edit"}, nil, []string{`\bTODO\b(?!.*done)`},
			[]markdown.Triggers{{}},
			"content pattern \"\\\\bTODO\\\\b(?!.*done)\": a negative lookahead on the added text"},
	} {
		p, err := ReadLessonsLearned("lessons-store.json", withTriggers(tc.tools, tc.commands, tc.content))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []markdown.Triggers
		for _, d := range p.Drafts {
			tr := d.Spec.Triggers
			for _, f := range []*[]string{&tr.Tools, &tr.Commands, &tr.Unless, &tr.Paths, &tr.Content, &tr.Keywords, &tr.Topics} {
				if len(*f) == 0 {
					*f = nil
				}
			}
			got = append(got, tr)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: triggers %+v, want %+v", tc.name, got, tc.want)
		}
		var notes []string
		for _, n := range p.Notes {
			notes = append(notes, n.Msg)
		}
		if !strings.Contains(strings.Join(notes, "\n"), tc.note) {
			t.Errorf("%s: no note %q in %q", tc.name, tc.note, notes)
		}
		for _, n := range notes {
			if strings.Contains(n, "modelRegexSources") {
				t.Errorf("%s: read as a model gate: %q", tc.name, n)
			}
		}
	}
}
