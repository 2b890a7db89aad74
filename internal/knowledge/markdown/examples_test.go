package markdown

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

const exampleHead = "---\nid: 01JCZ0000000000000000PYTST\nkind: lesson\ntitle: pytest needs -x\nstatus: active\n"

// TestExamplesParse reads both spellings of an entry (a quoted string and
// the one-key mapping YAML makes of an unquoted `- Bash: ls`), with the
// file line of each.
func TestExamplesParse(t *testing.T) {
	src := exampleHead + "examples:\n  fire:\n    - 'Bash: pytest -x tests'\n    - Edit: src/db/0003.py | import os\n  quiet: ['Bash: go test ./...', 'WebFetch:']\n---\n"
	it, err := Parse("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(it.Problems) > 0 {
		t.Fatal(it.Problems)
	}
	want := Examples{
		Fire:  []Example{{"Bash", "pytest -x tests", 8}, {"Edit", "src/db/0003.py | import os", 9}},
		Quiet: []Example{{"Bash", "go test ./...", 10}, {"WebFetch", "", 10}},
	}
	if !reflect.DeepEqual(it.Examples, want) {
		t.Errorf("got %+v\nwant %+v", it.Examples, want)
	}
	if got := it.Examples.Quiet[1].String(); got != "WebFetch:" {
		t.Errorf("String: %q", got)
	}
}

// TestExamplesBadInput: each malformed examples key is a problem naming
// the file, the line and the key.
func TestExamplesBadInput(t *testing.T) {
	for _, tc := range []struct{ fm, want string }{
		{"examples: [a, b]\n", "x.md:6: examples: must be a mapping"},
		{"examples:\n  fire: ['pytest -x']\n", "x.md:7: examples.fire: \"pytest -x\" is not a call written `Tool: input`"},
		{"examples:\n  fire:\n    - ok\n    - 'Bash:pytest'\n", "x.md:8: examples.fire: \"ok\" is not a call"},
		{"examples:\n  loud: ['Bash: ls']\n", "x.md:7: examples.loud: unknown key (want fire or quiet)"},
		{"examples:\n  quiet:\n    - [Bash, ls]\n", "x.md:8: examples.quiet: each example is one call"},
	} {
		it, err := Parse("x.md", []byte(exampleHead+tc.fm+"---\n"))
		if err != nil {
			t.Fatal(err)
		}
		errs := Validate(it)
		if len(errs) == 0 || !strings.HasPrefix(errs[0].Error(), tc.want) {
			t.Errorf("%q: got %v, want %s...", tc.fm, errs, tc.want)
		}
	}
}

// TestExamplesCompose: a Spec's examples are written so they parse back.
func TestExamplesCompose(t *testing.T) {
	ex, err := ParseExamples([]string{"Bash: pytest tests", "Edit: a/b.py | x: y"}, []string{"Bash: go test ./..."})
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Kind: KindLesson, Title: "pytest needs -x", Status: "active", Examples: ex}
	data, err := spec.Compose("01JCZ0000000000000000PYTST", "", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	it, err := Parse("x.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if errs := Validate(it); len(errs) > 0 {
		t.Fatalf("%s\n%v", data, errs)
	}
	got := append(exampleStrings(it.Examples.Fire), exampleStrings(it.Examples.Quiet)...)
	if want := []string{"Bash: pytest tests", "Edit: a/b.py | x: y", "Bash: go test ./..."}; !reflect.DeepEqual(got, want) {
		t.Errorf("round trip: %q\n%s", got, data)
	}
	if _, err := ParseExamples(nil, []string{"pytest"}); err == nil || !strings.Contains(err.Error(), "--example-quiet") {
		t.Errorf("a bad flag value: %v", err)
	}
}

// TestCited: source.files and the `dir/file:line` entries of Evidence are
// cited; a bare transcript name and a path outside the repository are not.
func TestCited(t *testing.T) {
	src := exampleHead + "source:\n  type: manual\n  files: [src/db/migrate.py, ./docs/x.md]\n---\n\n## Fix\nx\n\n## Evidence\n" +
		"- 1a2b-session.jsonl:12: a transcript\n- `src/app/main.go:40`: where it broke\n- /etc/hosts:1: outside\n- ../up/x.go:3: outside\n"
	it, err := Parse("x.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Citation{
		{"src/db/migrate.py", 8, "source.files"}, {"docs/x.md", 8, "source.files"},
		{"src/app/main.go", 16, "evidence"},
	}
	if got := it.Cited(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	bad, _ := Parse("x.md", []byte(exampleHead+"source:\n  files: [/etc/passwd]\n---\n"))
	if errs := Validate(bad); len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "x.md:7: source.files:") {
		t.Errorf("an absolute source file: %v", errs)
	}
}
