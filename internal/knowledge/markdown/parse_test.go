package markdown

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestYAMLErrorLines checks that a YAML syntax error names the file line
// of the bad value, for scanner and parser errors alike.
func TestYAMLErrorLines(t *testing.T) {
	for _, tc := range []struct {
		fm   string
		line int
	}{
		{"id: 1\nkind: x\ntitle: [unclosed\nstatus: active\n", 4},
		{"id: 1\nkind: x\ntitle: {unclosed\nstatus: active\n", 4},
		{"id: 1\nkind: x\n- item\nstatus: active\n", 4},
		{"id: 1\nkind: x\ntitle: a: b\nstatus: active\n", 4},
		{"id: 1\nkind: x\ntitle: @x\nstatus: active\n", 4},
		{"id: 1\nkind: x\ntags:\n  - a\n b: c\n", 6},
	} {
		_, err := Parse("x.md", []byte("---\n"+tc.fm+"---\n"))
		var e *Error
		if !errors.As(err, &e) || e.Line != tc.line || e.Key != "frontmatter" {
			t.Errorf("%q: got %v, want line %d", tc.fm, err, tc.line)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"---\nid: x\n\x00", "x.md:3: binary file"},
		{"---\nid: x\ntitle: y\n", "x.md:1: frontmatter: unclosed frontmatter"},
		{"no frontmatter\n", "x.md:1: frontmatter: missing frontmatter"},
		{"---\n- a\n- b\n---\n", "x.md:2: frontmatter: must be a mapping"},
		{"---\ntitle: \xff\n---\n", "x.md:2: invalid UTF-8"},
	} {
		_, err := Parse("x.md", []byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s...", tc.data, err, tc.want)
		}
	}
}

// TestCRLFAndBOM: a file saved on Windows (CRLF, a BOM) reads like its LF
// twin, and Set keeps its line endings.
func TestCRLFAndBOM(t *testing.T) {
	lf, err := os.ReadFile("testdata/lesson.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse("x.md", lf)
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	bom := append([]byte("\ufeff"), lf...)
	for name, data := range map[string][]byte{"crlf": crlf, "bom": bom, "bom+crlf": append([]byte("\ufeff"), crlf...)} {
		it, err := Parse("x.md", data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if it.ID != want.ID || it.Title != want.Title || it.KeyLine("triggers.unless") != 12 ||
			len(it.Sections) != 2 || it.Sections[0].Line != 17 || it.Section("Fix") != want.Section("Fix") {
			t.Errorf("%s: parsed differently: %+v", name, it)
		}
		if errs := Validate(it); len(errs) != 0 {
			t.Errorf("%s: %v", name, errs)
		}
		if err := it.Set("status", "deprecated"); err != nil {
			t.Fatal(err)
		}
		nl := "\n"
		if bytes.Contains(data, []byte("\r\n")) {
			nl = "\r\n"
		}
		if got, exp := string(it.Raw()), strings.Replace(string(data), "status: active"+nl, "status: deprecated"+nl, 1); got != exp {
			t.Errorf("%s: Set changed more than the key:\n%q", name, got)
		}
	}
}

// TestSetSameValueKeepsBytes: on every fixture, setting each top-level key
// to the value it has keeps the bytes outside that key's lines.
func TestSetSameValueKeepsBytes(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		it, err := Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range it.Keys() {
			checkSetKeeps(t, f, data, key)
		}
	}
}

// checkSetKeeps sets key to its own value and checks that the bytes before
// and after the key's lines are unchanged and the value still decodes the
// same.
func checkSetKeeps(t *testing.T, name string, data []byte, key string) {
	t.Helper()
	it, err := Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	from, to := it.keySpan(key)
	node := it.Node(key)
	var before any
	if err := node.Decode(&before); err != nil {
		t.Fatalf("%s: decode %s: %v", name, key, err)
	}
	if err := it.SetNode(key, node); err != nil {
		t.Fatalf("%s: set %s: %v", name, key, err)
	}
	out := it.Raw()
	tail := len(data) - to
	if !bytes.Equal(out[:from], data[:from]) || len(out) < from+tail || !bytes.Equal(out[len(out)-tail:], data[to:]) {
		t.Fatalf("%s: set %s changed bytes outside the key:\n%q\n---\n%q", name, key, data, out)
	}
	var after any
	if err := it.Node(key).Decode(&after); err != nil {
		t.Fatalf("%s: re-decode %s: %v", name, key, err)
	}
	if !equalValues(before, after) {
		t.Fatalf("%s: %s changed from %v to %v", name, key, before, after)
	}
}

func equalValues(a, b any) bool { return reflect.DeepEqual(a, b) }
