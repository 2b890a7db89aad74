package lint

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestSplitLookahead(t *testing.T) {
	for _, tc := range []struct {
		pat, base string
		unless    []string
	}{
		{`\bpytest\b(?!.*(--no-header|TERM=dumb))`, `\bpytest\b`, []string{"--no-header", "TERM=dumb"}},
		{`^npm (?!.*--ci)`, `^npm `, []string{"--ci"}},
		{`^go test(?!.*?(?:-count=1|-run [a-z]+))`, `^go test`, []string{"-count=1", "-run [a-z]+"}},
		{`^x[)(](?!.*(a\)|b))`, `^x[)(]`, []string{`a\)`, "b"}},
		{`^x(?!.*a|b)`, "", nil},       // b is anchored at the lookahead: not an unless
		{`^a(?=b)c`, "", nil},          // not trailing
		{`(?!.*a)`, "", nil},           // nothing left to match
		{`^x(?!.*(a|[))`, "", nil},     // invalid alternative
		{`^x(?!a)`, "", nil},           // not ".*": position-bound
		{`^pytest\b`, "", nil},         // nothing to do
		{`^x(?!.*(a|(?=b)))`, "", nil}, // an alternative RE2 rejects
	} {
		base, unless, ok := splitLookahead(tc.pat)
		if ok != (tc.base != "") || base != tc.base || !reflect.DeepEqual(unless, tc.unless) {
			t.Errorf("%s: got %q %q %v", tc.pat, base, unless, ok)
		}
	}
}

func item(id, kind, ref, extra, body string) string {
	status := "active"
	if kind == "decision" {
		status = "accepted"
	}
	s := "---\nid: " + id + "\nkind: " + kind + "\ntitle: T " + id + "\nstatus: " + status + "\n"
	if ref != "" {
		s += "ref: " + ref + "\n"
	}
	return s + extra + "---\n" + body
}

// TestRenumberThree: three items share PF-0001; the oldest keeps it, the
// others get the next numbers in id order, skipping numbers in use.
func TestRenumberThree(t *testing.T) {
	st := Store{Items: []File{
		{".lore/pitfalls/PF-0001-c.md", []byte(item("01JQ3000000000000000000000", "pitfall", "PF-0001", "", "## Issue\nI am PF-0001.\n"))},
		{".lore/pitfalls/PF-0001-a.md", []byte(item("01JQ1000000000000000000000", "pitfall", "PF-0001", "", ""))},
		{".lore/pitfalls/PF-0001-b.md", []byte(item("01JQ2000000000000000000000", "pitfall", "PF-0001", "", ""))},
		{".lore/pitfalls/PF-0004-d.md", []byte(item("01JQ0500000000000000000000", "pitfall", "PF-0004", "", "Not PF-0001 of mine.\n"))},
		{".lore/decisions/ADR-0001-x.md", []byte(item("01JQ0100000000000000000000", "decision", "ADR-0001", "", ""))},
	}}
	fs := Check(st)
	if n, _ := Count(fs); n != 2 {
		t.Fatalf("want 2 duplicate-ref errors, got %v", fs)
	}
	changes, err := Fix(st)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range changes {
		got[c.Path] = c.From
	}
	want := map[string]string{".lore/pitfalls/PF-0005-b.md": ".lore/pitfalls/PF-0001-b.md", ".lore/pitfalls/PF-0006-c.md": ".lore/pitfalls/PF-0001-c.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	for _, c := range changes {
		if strings.HasSuffix(c.Path, "c.md") && !strings.Contains(string(c.Data), "ref: PF-0006\n") || strings.Contains(string(c.Data), "I am PF-0001") {
			t.Errorf("%s:\n%s", c.Path, c.Data)
		}
	}
	// Applying the changes leaves a clean store.
	var after Store
	after.Items = append(after.Items, st.Items...)
	for _, c := range changes {
		for i, f := range after.Items {
			if f.Path == c.From {
				after.Items[i] = File{c.Path, c.Data}
			}
		}
	}
	if fs := Check(after); len(fs) != 0 {
		t.Fatalf("after fix: %v", fs)
	}
}

func TestTextChecks(t *testing.T) {
	clean := "See AKIAIOSFODNN7EXAMPLE in the AWS docs; pip install scikit-learn; task-1234567890abcdefghijkl; wget -O file.tgz https://x\n"
	if fs := checkText("x.md", []byte("\ufeff"+clean)); len(fs) != 0 {
		t.Fatalf("false positives: %v", fs)
	}
	fs := checkText("x.md", []byte("a\nb\u2066c\u2069 sk-proj-abc123DEF456ghi789JKL0\n"))
	if len(fs) != 3 || fs[0].Line != 2 || fs[0].Col != 2 || fs[1].Col != 4 || fs[2].Key != "secret" || fs[2].Col != 6 {
		t.Fatalf("got %v", fs)
	}
	if strings.Contains(fs[2].Msg, "abc123DEF") {
		t.Fatalf("the finding leaks the secret: %s", fs[2].Msg)
	}
	// A run of adjacent hidden characters is one finding that counts them.
	fs = checkText("x.md", []byte("ab\U000E0041\U000E0042\U000E0043c\n"))
	if len(fs) != 1 || fs[0].Col != 3 || !strings.HasSuffix(fs[0].Msg, "(and 2 more right after it)") {
		t.Fatalf("got %v", fs)
	}
}

// TestEveryHiddenCharacterIsFlagged places each format character of the
// Unicode tables (Cf: bidi controls, zero-width marks, tag characters),
// each variation selector and each tag character on a line of its own,
// between visible text, and wants each one flagged at its line and column.
func TestEveryHiddenCharacterIsFlagged(t *testing.T) {
	var runes []rune
	for _, r16 := range unicode.Cf.R16 {
		for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
			runes = append(runes, r)
		}
	}
	for _, r32 := range unicode.Cf.R32 {
		for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
			runes = append(runes, r)
		}
	}
	for _, rg := range [][2]rune{{0xFE00, 0xFE0F}, {0xE0100, 0xE01EF}, {0xE0000, 0xE007F}, {0x202A, 0x202E}, {0x2066, 0x2069}} {
		for r := rg[0]; r <= rg[1]; r++ {
			runes = append(runes, r)
		}
	}
	slices.Sort(runes)
	runes = slices.Compact(runes) // the bidi controls and most tags are Cf too
	var b strings.Builder
	for _, r := range runes {
		fmt.Fprintf(&b, "x %c y\n", r)
	}
	fs := checkText("x.md", []byte(b.String()))
	flagged := map[int]bool{}
	for _, f := range fs {
		if f.Key == "unicode" && f.Col == 3 {
			flagged[f.Line] = true
		}
	}
	missed := 0
	for i, r := range runes {
		if !flagged[i+1] {
			missed++
			t.Errorf("U+%04X on line %d is not flagged", r, i+1)
		}
	}
	t.Logf("%d hidden characters placed, %d flagged with line and column, %d missed", len(runes), len(flagged), missed)
	if len(fs) != len(runes) {
		t.Errorf("%d findings for %d characters", len(fs), len(runes))
	}
}

// TestSecretCheck: lint uses scan's detector, so what scan would redact
// is an error in an item, with its place and without the secret.
func TestSecretCheck(t *testing.T) {
	secret := "glpat-x7Kq2mP9vR4tL8wN3zB6"
	text := "## Fix\nRun `mysql -uroot -pHunter2x9 shop` first.\nThen push with " + secret + ".\n" +
		"SSH_KEY_PATH=/home/ci/.ssh/id_ed25519, integrity sha512-" + strings.Repeat("A", 86) + "==\n"
	fs := checkSecrets("x.md", []byte(text))
	if len(fs) != 2 || fs[0].Line != 2 || fs[0].Col != 21 || fs[1].Line != 3 || fs[1].Col != 16 {
		t.Fatalf("got %v", fs)
	}
	for _, f := range fs {
		if f.Key != "secret" || f.Severity != Error || strings.Contains(f.Msg, "Hunter2") || strings.Contains(f.Msg, secret[:10]) {
			t.Fatalf("bad finding %v", f)
		}
	}
}

func TestFindingString(t *testing.T) {
	f := Finding{Path: "p.md", Line: 3, Col: 4, Key: "unicode", Msg: "m", Severity: Warning}
	if f.String() != "p.md:3:4: warning: unicode: m" {
		t.Fatal(f.String())
	}
	f = Finding{Path: "p.md", Msg: "m", Severity: Error}
	if f.String() != "p.md: m" {
		t.Fatal(f.String())
	}
}

// TestFixAfterAnInterruptedRename: lint --fix killed after it wrote the
// renumbered PF-0002 but before it removed the old PF-0001 name leaves two
// files with one id; the next Fix removes the old name and renumbers
// nothing. A person's copy (same id, other bytes) is reported, not removed.
func TestFixAfterAnInterruptedRename(t *testing.T) {
	older := File{".lore/pitfalls/PF-0001-a.md", []byte(item("01JQ1000000000000000000000", "pitfall", "PF-0001", "", ""))}
	st := Store{Items: []File{older,
		{".lore/pitfalls/PF-0001-b.md", []byte(item("01JQ2000000000000000000000", "pitfall", "PF-0001", "", "## Issue\nI am PF-0001.\n"))}}}
	changes, err := Fix(st)
	if err != nil || len(changes) != 1 || changes[0].From != ".lore/pitfalls/PF-0001-b.md" {
		t.Fatalf("first fix: %+v %v", changes, err)
	}
	killed := Store{Items: append(st.Items, File{changes[0].Path, changes[0].Data})}
	if fs := Check(killed); len(fs) == 0 {
		t.Fatal("the interrupted state must not lint clean")
	}
	again, err := Fix(killed)
	if err != nil || len(again) != 1 || !again[0].Remove || again[0].Path != ".lore/pitfalls/PF-0001-b.md" {
		t.Fatalf("rerun: %+v %v", again, err)
	}
	repaired := Store{Items: []File{older, {changes[0].Path, changes[0].Data}}}
	if fs := Check(repaired); len(fs) != 0 {
		t.Fatalf("after the repair: %v", fs)
	}

	edited := append([]byte(nil), changes[0].Data...)
	edited = append(edited, "A person added this.\n"...)
	copied := Store{Items: append(st.Items, File{changes[0].Path, edited})}
	fixes, err := Fix(copied)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range fixes {
		if c.Remove {
			t.Fatalf("a file with other bytes was removed: %+v", c)
		}
	}
}

// TestStrayTempFilesAreErrors: lint names every temp file a killed write
// left behind.
func TestStrayTempFilesAreErrors(t *testing.T) {
	fs := Check(Store{Temps: []string{".lore/lessons/.x.md123", "..gitattributes9"}})
	if n, _ := Count(fs); n != 2 || fs[0].Path != "..gitattributes9" || !strings.Contains(fs[1].Msg, "temp file left by a killed lore write") {
		t.Fatalf("got %v", fs)
	}
}

// A key one or two letters from one lore reads is a typo the item would
// act without; other unknown keys (an import's, a team's) pass quietly.
func TestMisspeltKeys(t *testing.T) {
	extra := "prority: high\ntrigger:\n  tools: [Bash]\nTitle: x\ndescription: an import's own key\nowner: platform\n"
	fs := Check(Store{Items: []File{{".lore/lessons/a.md", []byte(item("01JQ1000000000000000000000", "lesson", "", extra, "## Fix\nDo it.\n"))}}})
	got := map[string]string{}
	for _, f := range fs {
		if strings.HasPrefix(f.Msg, "not a key lore reads") {
			got[f.Key] = fmt.Sprintf("%d %s", f.Line, f.Msg[strings.LastIndex(f.Msg, " ")+1:])
		}
	}
	want := map[string]string{"prority": "6 priority?", "trigger": "7 triggers?", "Title": "9 title?"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("misspelt keys %v, want %v (all findings %v)", got, want, fs)
	}
}
