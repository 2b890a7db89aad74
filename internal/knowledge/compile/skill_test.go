package compile

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

func lesson(t *testing.T, n int, extra string) *markdown.Item {
	t.Helper()
	return parse(t, fmt.Sprintf(".lore/lessons/l%d.md", n),
		fmt.Sprintf("id: 01JQXYZ8K2M4N6P8Q0R2S4T%03d\nkind: lesson\ntitle: lesson %d\nstatus: active\npriority: %d\n%s", n, n, 3+n, extra),
		fmt.Sprintf("## Mistake\nmistake %d\n\n## Fix\nfix %d\n", n, n))
}

const pytest = "triggers:\n  tools: [Bash]\n  commands: ['\\bpytest\\b']\n  unless: ['--no-header']\ntags: [tool:pytest]\n"

func TestGroupsBoundary(t *testing.T) {
	for n, want := range map[int]bool{4: false, 5: true, 6: true} {
		var items []*markdown.Item
		for i := 0; i < n; i++ {
			items = append(items, lesson(t, i, pytest))
		}
		// Never counted: a draft, a deny, a lesson without triggers, another tool.
		items = append(items,
			parse(t, "d.md", "id: 01JQXYZ8K2M4N6P8Q0R2S4TD01\nkind: lesson\ntitle: d\nstatus: draft\n"+pytest, "## Fix\nx\n"),
			parse(t, "deny.md", "id: 01JQXYZ8K2M4N6P8Q0R2S4TD02\nkind: lesson\ntitle: deny\nstatus: active\npriority: critical\nenforce: deny\n"+pytest, "## Fix\nx\n"),
			lesson(t, 91, "tags: [tool:pytest]\n"),
			lesson(t, 92, "triggers:\n  tools: [Bash]\ntags: [tool:git]\n"))
		g := Groups(items, 0.5)
		if got := len(g["pytest"]) > 0; got != want {
			t.Errorf("%d lessons: grouped %v, want %v", n, got, want)
		}
		if want && len(g["pytest"]) != n {
			t.Errorf("%d lessons: group has %d", n, len(g["pytest"]))
		}
		if len(g) > 1 {
			t.Errorf("%d lessons: unexpected groups %v", n, g)
		}
	}
}

func TestSkillDocRoundTrip(t *testing.T) {
	var items []*markdown.Item
	for i := 5; i >= 1; i-- {
		items = append(items, lesson(t, i, pytest))
	}
	g := Groups(items, 0.5)["pytest"]
	doc := SkillDoc("pytest", "01SKILL0000000000000000000", g)
	if again := SkillDoc("pytest", "01SKILL0000000000000000000", Groups(items, 0.5)["pytest"]); !bytes.Equal(doc, again) {
		t.Fatal("SkillDoc is not deterministic")
	}
	sk, err := ParseSkill(SkillPath("PyTest"), doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"01JQXYZ8K2M4N6P8Q0R2S4T001", "01JQXYZ8K2M4N6P8Q0R2S4T002", "01JQXYZ8K2M4N6P8Q0R2S4T003", "01JQXYZ8K2M4N6P8Q0R2S4T004", "01JQXYZ8K2M4N6P8Q0R2S4T005"}
	if sk.ID != "01SKILL0000000000000000000" || sk.Tool != "pytest" || sk.Path != ".lore/skills/pytest.md" || !reflect.DeepEqual(sk.Lessons, want) {
		t.Fatalf("parsed %+v", sk)
	}
	for _, bad := range []string{"no frontmatter", "---\nid: [\n---\n", "---\nname: x\n---\n"} {
		if _, err := ParseSkill("s.md", []byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestCompileFoldsSkill: the lessons a skill lists compile into one record
// with their union of targets, shared vetoes and highest priority; lessons
// it does not list stay separate.
func TestCompileFoldsSkill(t *testing.T) {
	in := Input{Config: config.Default()}
	for i := 1; i <= 5; i++ {
		extra := pytest
		if i == 5 {
			extra = "triggers:\n  tools: [Edit]\n  paths: ['**/conftest.py']\n  unless: ['--no-header']\ntags: [tool:pytest]\n"
		}
		in.Items = append(in.Items, lesson(t, i, extra))
	}
	in.Items = append(in.Items, lesson(t, 6, pytest)) // not listed by the skill
	sk := Skill{Path: ".lore/skills/pytest.md", ID: "01SKILL0000000000000000000", Tool: "pytest"}
	for _, it := range in.Items[:5] {
		sk.Lessons = append(sk.Lessons, it.ID)
	}
	in.Skills = []Skill{sk}
	src, rep := Compile(in)
	if rep.Folded != 5 || rep.Compiled != 2 || len(src.Items) != 2 {
		t.Fatalf("folded %d, compiled %d", rep.Folded, rep.Compiled)
	}
	s := src.Items[1]
	if s.ID != sk.ID || s.Kind != KindSkill || s.Priority != 8 || s.File != sk.Path {
		t.Fatalf("skill record %+v", s)
	}
	tr := s.Triggers
	if !reflect.DeepEqual(tr.Tools, []string{"Bash", "Edit"}) || !reflect.DeepEqual(tr.Commands, []string{`\bpytest\b`}) ||
		!reflect.DeepEqual(tr.Paths, []string{"**/conftest.py"}) || !reflect.DeepEqual(tr.Unless, []string{"--no-header"}) {
		t.Fatalf("skill triggers %+v", tr)
	}
	if !bytes.Contains([]byte(s.Text), []byte("- lesson 3: fix 3\n")) || !bytes.HasSuffix([]byte(s.Text), []byte("Source: .lore/skills/pytest.md\n")) {
		t.Fatalf("skill text %q", s.Text)
	}
	// A veto only some lessons have is dropped; an unrestricted tool list wins.
	in.Items[4] = lesson(t, 5, "triggers:\n  commands: ['pytest']\ntags: [tool:pytest]\n")
	src, _ = Compile(in)
	if tr := src.Items[1].Triggers; tr.Tools != nil || tr.Unless != nil {
		t.Fatalf("mixed triggers %+v", tr)
	}
	// The build output changes with the skill list (source hash).
	in.Skills[0].Lessons = in.Skills[0].Lessons[:4]
	src2, rep2 := Compile(in)
	if src2.Hash == src.Hash || rep2.Folded != 4 || len(src2.Items) != 3 {
		t.Fatalf("after dropping one lesson: folded %d, items %d", rep2.Folded, len(src2.Items))
	}
}

// FuzzParseSkill: a skill document is a user file; ParseSkill never panics,
// and what it accepts has an id and a tool.
func FuzzParseSkill(f *testing.F) {
	f.Add([]byte(SkillDoc("pytest", "01SKILL0000000000000000000", nil)))
	f.Add([]byte("---\nid: x\ntool: git\nlessons: [a, b]\n---\n"))
	f.Add([]byte("---\r\nid: x\r\ntool: [\r\n---\r\n"))
	f.Add([]byte("---\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sk Skill
		var err error
		fuzzlimit.Run(t, func() { sk, err = ParseSkill("s.md", data) })
		if err == nil && (sk.ID == "" || sk.Tool == "") {
			t.Fatalf("accepted %+v", sk)
		}
	})
}
