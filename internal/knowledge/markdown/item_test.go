package markdown

import (
	"os"
	"sort"
	"strings"
	"testing"
)

func TestParseLesson(t *testing.T) {
	data, err := os.ReadFile("testdata/lesson.md")
	if err != nil {
		t.Fatal(err)
	}
	it, err := Parse("lessons/x.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if it.Title != "pytest hangs without a TTY" || it.Priority != 7 || it.Confidence != 0.9 {
		t.Fatalf("fields: %+v", it)
	}
	if got := it.Triggers.Unless; len(got) != 2 || got[1] != "TERM=dumb" {
		t.Fatalf("unless = %q", got)
	}
	if len(it.Sections) != 2 || it.Sections[1].Title != "Fix" || it.Sections[0].Line != 17 {
		t.Fatalf("sections: %+v", it.Sections)
	}
	if !strings.Contains(it.Section("mistake"), "## not a heading") {
		t.Fatalf("mistake = %q", it.Section("mistake"))
	}
	if errs := Validate(it); len(errs) != 0 {
		t.Fatalf("validate: %v", errs)
	}
	if it.KeyLine("triggers.unless") != 12 {
		t.Fatalf("line of unless = %d", it.KeyLine("triggers.unless"))
	}
}

func TestSetKeepsOtherBytes(t *testing.T) {
	data, _ := os.ReadFile("testdata/lesson.md")
	it, err := Parse("lessons/x.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if err := it.Set("status", "deprecated"); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(data), "status: active\n", "status: deprecated\n", 1)
	if string(it.Raw()) != want {
		t.Fatalf("rewrite changed more than the key:\n%s", it.Raw())
	}
	if err := it.Set("updated", "2026-04-01T00:00:00Z"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(it.Raw()), "created: 2026-03-28T14:00:00Z\nupdated:") || it.Updated.IsZero() {
		t.Fatalf("added key:\n%s", it.Raw())
	}
	if it.Status != "deprecated" || !strings.HasSuffix(string(it.Raw()), string(it.Body())) {
		t.Fatal("re-parse after set")
	}
}

func TestContentTrigger(t *testing.T) {
	src := "---\nid: 01JCXNTENT000000000000000A\nkind: lesson\ntitle: mock.patch targets the importing module\nstatus: active\npriority: high\ntriggers:\n  paths: ['**/test_*.py']\n  content: ['\\bmock\\.patch\\(', '(?<!await )fetch_json\\(']\n---\n\n## Fix\nPatch where it is looked up.\n"
	it, err := Parse("lessons/x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := it.Triggers.Content; len(got) != 2 || got[0] != `\bmock\.patch\(` {
		t.Fatalf("content = %q", got)
	}
	errs := Validate(it)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "triggers.content") || !strings.Contains(errs[0].Error(), "lookbehind") || strings.Contains(errs[0].Error(), "unless") {
		t.Fatalf("validate = %v, want one lookbehind error on triggers.content", errs)
	}
	if it.KeyLine("triggers.content") != 9 {
		t.Errorf("line of content = %d", it.KeyLine("triggers.content"))
	}
}

func TestMoreImportant(t *testing.T) {
	items := []*Item{
		{ID: "01B", Priority: 5, Confidence: 0.9},
		{ID: "01A", Priority: 5, Confidence: 0.9},
		{ID: "01C", Priority: 9, Confidence: 0.1},
		{ID: "01D", Priority: 5, Confidence: 0.95},
	}
	sort.Slice(items, func(i, j int) bool { return MoreImportant(items[i], items[j]) })
	var got []string
	for _, it := range items {
		got = append(got, it.ID)
	}
	if want := "01C 01D 01A 01B"; strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s (priority, then confidence, then the older id)", got, want)
	}
}

// CheckRegex is memoized by pattern: asked twice, it gives the same answer,
// a valid pattern included (a nil stored answer).
func TestCheckRegexTwice(t *testing.T) {
	for range 2 {
		if err := CheckRegex(`\bgit\s+push\b`); err != nil {
			t.Errorf("valid pattern: %v", err)
		}
		if err := CheckRegex(`git(?!\s+pull)`); err == nil || !strings.Contains(err.Error(), "lookahead") {
			t.Errorf("lookahead: %v, want an error naming it", err)
		}
	}
}
