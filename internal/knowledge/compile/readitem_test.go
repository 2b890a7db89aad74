package compile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/knowledge/lint"
)

const lessonHead = "---\nid: 01JQXYZ8K2M4N6P8Q0R2S4T6V1\nkind: lesson\ntitle: t\nstatus: active\n---\n\n## Fix\n"

// TestReadItemRefusesOversizedFilesBySize: a file over lint's limit is
// refused with its name and size, whether it is one byte over or a 50 MB
// sparse file (all NUL bytes: had it been read, the parser would have
// called it binary instead); a file at the limit is parsed.
func TestReadItemRefusesOversizedFilesBySize(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "at.md")
	body := lessonHead + strings.Repeat("x", lint.MaxItemBytes-len(lessonHead))
	if err := os.WriteFile(at, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if it, err := ReadItem(at, "lessons/at.md"); err != nil || len(it.Raw()) != lint.MaxItemBytes {
		t.Fatalf("at the limit: %v", err)
	}
	over := filepath.Join(dir, "over.md")
	if err := os.WriteFile(over, []byte(body+"x"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.md")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 50<<20); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{over: "lessons/over.md:1: oversized item: 16385 bytes", huge: "lessons/huge.md:1: oversized item: 52428800 bytes"} {
		_, err := ReadItem(path, "lessons/"+filepath.Base(path))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", path, err, want)
		}
	}
}

// TestSanitizeASCII: the printable-ASCII shortcut keeps what the full
// filter keeps and removes every ASCII control but newline and tab.
func TestSanitizeASCII(t *testing.T) {
	for c := range 0x80 {
		in := "a" + string(rune(c)) + "b"
		want := in
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			want = "ab"
		}
		if got := Sanitize(in); got != want {
			t.Errorf("%#x: %q, want %q", c, got, want)
		}
	}
	if got := Sanitize("x\u202ey\u200bz"); got != "xyz" {
		t.Errorf("bidi and zero-width kept: %q", got)
	}
}
