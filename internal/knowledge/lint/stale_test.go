package lint

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

func staleItem(t *testing.T, id, rest string) *markdown.Item {
	t.Helper()
	it, err := markdown.Parse(".lore/lessons/"+id+".md", []byte("---\nid: "+id+"\nkind: lesson\ntitle: t\nstatus: active\n"+rest))
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// TestStale: paths that match no file or folder of HEAD, and cited files
// gone from it, make an item stale; a glob that matches, a folder a Grep
// names, a global or archived item and an unknown HEAD do not.
func TestStale(t *testing.T) {
	head := []string{"src/db/migrate.py", "src/app/main.go", "README.md"}
	items := []*markdown.Item{
		staleItem(t, "01JCZ00000000000000000000A", "triggers:\n  tools: [Edit]\n  paths: ['src/old/**', '**/*.rb']\n---\n"),
		staleItem(t, "01JCZ00000000000000000000B", "triggers:\n  tools: [Edit]\n  paths: ['src/old/**', '**/migrate.py']\n---\n"),
		staleItem(t, "01JCZ00000000000000000000C", "triggers:\n  tools: [Grep]\n  paths: ['src/app']\n---\n"),
		staleItem(t, "01JCZ00000000000000000000D", "source:\n  type: manual\n  files: [src/db/migrate.py, src/db/gone.py]\n---\n"),
		staleItem(t, "01JCZ00000000000000000000E", "---\n## Fix\nx\n\n## Evidence\n- s.jsonl:3: a transcript\n- src/app/main.go:9: here\n- src/app/old.go:4: there\n"),
		staleItem(t, "01JCZ00000000000000000000F", "scope: global\ntriggers:\n  paths: ['src/old/**']\n---\n"),
		staleItem(t, "01JCZ00000000000000000000G", "triggers:\n  paths: ['src/old/**']\n---\n"),
	}
	if err := items[6].Set("status", "archived"); err != nil {
		t.Fatal(err)
	}
	got := Stale(items, head)
	want := map[string]string{
		"01JCZ00000000000000000000A": "no file in HEAD matches src/old/**, **/*.rb: the code it guards is gone or moved; update the globs or archive the item",
		"01JCZ00000000000000000000D": "src/db/gone.py, which it cites, is gone from HEAD: check the item still holds, then update or archive it",
		"01JCZ00000000000000000000E": "src/app/old.go, which it cites, is gone from HEAD: check the item still holds, then update or archive it",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := Stale(items, nil); len(got) != 0 {
		t.Errorf("no HEAD: %v", got)
	}
	var lines []string
	for _, f := range staleFindings(items, head) {
		lines = append(lines, f.String()[:strings.Index(f.String(), " stale:")])
	}
	wantLines := []string{
		".lore/lessons/01JCZ00000000000000000000A.md:8: warning: triggers.paths:",
		".lore/lessons/01JCZ00000000000000000000D.md:8: warning: source.files:",
		".lore/lessons/01JCZ00000000000000000000E.md:13: warning: evidence:",
	}
	if !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("got  %q\nwant %q", lines, wantLines)
	}
}

// TestHeadMatchesAsDoublestar: the literal screen finds what trying
// every path with doublestar finds.
func TestHeadMatchesAsDoublestar(t *testing.T) {
	h := newHead([]string{"conftest.py", "api/conftest.pyc", "api/tests/conftest.py", "src/db/0001.py", "web/a.ts", "z"})
	for _, g := range []string{
		"**/conftest.py", "api/**/conftest.py", "api/*/conftest.py", "conftest.py", "src/db", "src/**", "**/*.ts",
		"web/*.tsx", "*", "?", "**/0002.py", "api/conftest.py", "src/{db,app}/*.py", "[a-z]", "**/tests",
	} {
		want := false
		for _, p := range h.paths {
			if ok, _ := doublestar.Match(g, p); ok {
				want = true
			}
		}
		if got := h.matches(g); got != want {
			t.Errorf("%q: %v, doublestar says %v", g, got, want)
		}
	}
}
