package markdown

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// FuzzParse: Parse never panics; on a parsed item, SetNode of any key to
// its own value either fails and leaves the item alone, or keeps every byte
// outside that key's lines.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V8\nkind: lesson\ntitle: x\nstatus: active\n---\n\n## Fix\ny\n",
		"\ufeff---\r\nkind: pitfall\r\nref: PF-0001 # c\r\n---\r\n## Issue\r\nz\r\n",
		"---\ntriggers:\n  commands: ['\\bpytest\\b(?!.*(a|b))']\n  tools: [Bash]\n---\n",
		"---\n{id: x, kind: lesson}\n---\n",
		"---\n---\n",
		"---\na: &x 1\nb: *x\n---\n",
		"---\n  0:\n  00:\n---",
		"---\n  id: x\n  status: draft\n  priority: medium\n  triggers: {tools: [Bash]}\n---\n",
		"\n\n---\ntitle: |\n  multi\n  line\n# comment\nstatus: active\n---\n```\n## not\n```\n",
		"---\nexamples:\n  fire:\n    - Bash: pytest\n    - 'Edit: a/b.py | x'\n  quiet: 'WebFetch:'\nsource:\n  files: [a/b.py]\n---\n## Evidence\n- a/b.py:3: x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var it *Item
		var err error
		fuzzlimit.Run(t, func() {
			if it, err = Parse("f.md", data); err == nil {
				Validate(it)
			}
		})
		if err != nil {
			return
		}
		_ = it.Sections
		fuzzlimit.Run(t, func() { _ = it.Cited() })
		for _, key := range it.Keys() {
			var err error
			fuzzlimit.Run(t, func() { err = checkSetProperty(data, key) })
			if err != nil {
				t.Fatal(err)
			}
		}
	})
}

// checkSetProperty returns what went wrong; it runs under fuzzlimit, off the
// test's goroutine, where t.Fatal cannot be called. Setting a key to its own
// value either fails and leaves the item alone, or keeps the body byte for
// byte and every key's decoded value; in a block mapping, every byte outside
// the key's lines too.
func checkSetProperty(data []byte, key string) error {
	it, err := Parse("f.md", data)
	if err != nil {
		return fmt.Errorf("re-parse: %v", err)
	}
	from, to := it.keySpan(key)
	// Lone CRs end lines for YAML, not for the line edit: a tree edit then.
	block := (it.meta == nil || it.meta.Style&yaml.FlowStyle == 0) && !bytes.Contains(bytes.ReplaceAll(data, []byte("\r\n"), nil), []byte("\r"))
	want, others, body := decoded(it.Node(key)), otherValues(it, key), append([]byte{}, it.Body()...)
	if err := it.SetNode(key, it.Node(key)); err != nil {
		// yaml.v3 cannot write every node it reads (an anchored empty
		// value comes back as ''): the rewrite then refuses, untouched.
		if !bytes.Equal(it.Raw(), data) {
			return fmt.Errorf("failed SetNode %s changed the item", key)
		}
		return nil
	}
	out := it.Raw()
	if !bytes.Equal(it.Body(), body) || !reflect.DeepEqual(otherValues(it, key), others) ||
		!it.Has(key) || !reflect.DeepEqual(decoded(it.Node(key)), want) {
		return fmt.Errorf("SetNode %s changed a value or the body:\n%q\n->\n%q", key, data, out)
	}
	tail := len(data) - to
	if block && (!bytes.Equal(out[:from], data[:from]) || len(out) < from+tail || !bytes.Equal(out[len(out)-tail:], data[to:])) {
		return fmt.Errorf("SetNode %s changed bytes outside the key:\n%q\n->\n%q", key, data, out)
	}
	return nil
}

// FuzzCompose: what Compose writes, Parse reads back field for field.
func FuzzCompose(f *testing.F) {
	f.Add("pytest hangs", "lang:python", "## Fix\nUse TERM=dumb.", 7)
	f.Add("a: b # c", "x", "", 1)
	f.Add("'quoted' \"both\"", "- dash", "---\nnot frontmatter\n---", 10)
	f.Fuzz(func(t *testing.T, title, tag, body string, prio int) {
		if !utf8.ValidString(title) || !utf8.ValidString(tag) || !utf8.ValidString(body) || strings.ContainsRune(title+tag+body, 0) {
			return
		}
		if strings.ContainsAny(title+tag, "\r\n\t") || strings.TrimSpace(tag) != tag {
			return // one-line values, as lore writes them (yaml.v3 loses a lone "\n")
		}
		if prio < 1 || prio > 10 {
			prio = 5
		}
		var data []byte
		var it *Item
		var err, perr error
		fuzzlimit.Run(t, func() {
			data, err = Compose([]Field{
				{Key: "id", Value: "01JQXYZ8K2M4N6P8Q0R2S4T6V8"}, {Key: "kind", Value: KindLesson},
				{Key: "title", Value: title}, {Key: "status", Value: "active"},
				{Key: "priority", Value: prio}, {Key: "tags", Value: []string{tag}},
			}, body)
			if err == nil {
				it, perr = Parse("f.md", data)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if perr != nil {
			t.Fatalf("Compose output does not parse: %v\n%s", perr, data)
		}
		if it.Title != strings.TrimSpace(title) || int(it.Priority) != prio || it.Kind != KindLesson {
			t.Fatalf("fields: title %q prio %d from\n%s", it.Title, it.Priority, data)
		}
		if tag != "" && (len(it.Tags) != 1 || it.Tags[0] != tag) {
			t.Fatalf("tags %q, want [%q]\n%s", it.Tags, tag, data)
		}
	})
}

// FuzzParseLearnings: never panics; entries are ordered, past the
// preamble, and agree with HeadingTexts; a plain entry appended to a file
// without fences or HTML is found as the last entry.
func FuzzParseLearnings(f *testing.F) {
	pre := "# Learnings\n\n\n\n\n\n\n\n\n\n"
	for _, s := range []string{
		pre + "## Tool batching unsolved\nFree text.\n\n## \"Scan\" triggers tools\nkind: pitfall\nmore\n",
		pre + "```\n## not an entry\n```\n## Real\n",
		"## in the preamble\n",
		pre + "Setext\n------\n## A\r\n## A\r\n",
	} {
		f.Add([]byte(s), "New entry")
	}
	f.Fuzz(func(t *testing.T, data []byte, title string) {
		var l *Learnings
		var err error
		var set map[string]bool
		fuzzlimit.Run(t, func() {
			if l, err = ParseLearnings("l.md", data); err == nil {
				set = HeadingTexts(data)
			}
		})
		if err != nil {
			return
		}
		last := 0
		for _, e := range l.Entries {
			if e.Line <= PreambleLines || e.Start < last || e.End < e.Start || e.End > len(data) || !set[e.Title] {
				t.Fatalf("bad entry %+v", e)
			}
			last = e.End
		}
		title = strings.TrimSpace(strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ' ' {
				return r
			}
			return -1
		}, title))
		if title == "" || bytes.ContainsAny(data, "`~<") {
			return
		}
		l2, err := ParseLearnings("l.md", AppendEntry(data, title, "body"))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(l2.Entries); n == 0 || l2.Entries[n-1].Title != title || l2.Entries[n-1].Body != "body" {
			t.Fatalf("appended %q not found last in:\n%q", title, AppendEntry(data, title, "body"))
		}
	})
}
