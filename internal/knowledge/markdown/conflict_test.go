package markdown

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestConflictMarkers(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int
	}{
		{"a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\nb\n", []int{2, 4, 6}},
		{"<<<<<<< ours\r\nx\r\n||||||| base\r\ny\r\n=======\r\nz\r\n>>>>>>> theirs\r\n", []int{1, 3, 5, 7}},
		{"<<<<<<<\nx\n=======\n>>>>>>>\n", []int{1, 3, 4}},
		{"Title\n=======\n\ntext\n", nil},                     // a Setext heading
		{"<<<<<<<< eight\n >>>>>>> indented\n=======\n", nil}, // not as git writes them
		{"a <<<<<<< b\n>>>>>>>x\n", nil},
		{">>>>>>> left over after a bad resolution\n", []int{1}},
	} {
		if got := ConflictMarkers([]byte(c.text)); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: lines %v, want %v", c.text, got, c.want)
		}
	}
}

// TestParseNamesConflicts: a file that does not parse because of a merge
// conflict (in its frontmatter, or around the whole file as an add/add
// conflict leaves it) says so, with the first marker's line.
func TestParseNamesConflicts(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
	}{
		{"---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\n<<<<<<< HEAD\nstatus: active\n=======\nstatus: draft\n>>>>>>> other\ntitle: x\n---\n## Fix\ny\n", 4},
		{"<<<<<<< HEAD\n---\nid: a\n---\n=======\n---\nid: b\n---\n>>>>>>> other\n", 1},
	} {
		_, err := Parse("f.md", []byte(c.text))
		var me *Error
		if !errors.As(err, &me) || me.Line != c.line || !strings.Contains(me.Msg, "merge conflict") {
			t.Errorf("%q: %v, want a merge conflict at line %d", c.text, err, c.line)
		}
	}
}
