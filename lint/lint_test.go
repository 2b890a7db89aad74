package lint

import (
	"reflect"
	"strings"
	"testing"
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
	for _, f := range st.Items {
		after.Items = append(after.Items, f)
	}
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
	if len(fs) != 2 || fs[0].Line != 2 || fs[0].Col != 2 || fs[1].Key != "secret" || fs[1].Col != 6 {
		t.Fatalf("got %v", fs)
	}
	if strings.Contains(fs[1].Msg, "abc123DEF") {
		t.Fatalf("the finding leaks the secret: %s", fs[1].Msg)
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
