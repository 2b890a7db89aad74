package lore

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// The repository explains itself: its Go files cite its own docs/ by file
// and heading ("docs/design.md, Matching and scoring"), never documents a
// person who clones lore does not have, and its Markdown links resolve
// (docs/architecture.md, Tests).

// outsideDocs are citations of documents that do not ship with lore,
// read from testdata so that this file names none of them.
var outsideDocs = readPatterns("testdata/citations/outside.txt")

// citation is "docs/<file>.md, " followed by the heading it names.
var citation = regexp.MustCompile(`docs/([a-z]+\.md), `)

func TestGoCitesOnlyDocs(t *testing.T) {
	heads := docHeadings(t)
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "tmp" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || path == "docs_test.go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, p := range citeProblems(string(data), heads) {
			t.Errorf("%s: %s", path, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked only %d Go files", files)
	}
}

// TestCiteProblemsFails: the check above catches what it claims to.
func TestCiteProblemsFails(t *testing.T) {
	heads := map[string][]string{"design.md": {"Matching and scoring", "Item format"}}
	for _, bad := range lines("testdata/citations/bad.txt") {
		if len(citeProblems(bad, heads)) == 0 {
			t.Errorf("no problem found in %q", bad)
		}
	}
	for _, good := range []string{
		"// (docs/design.md, Matching and scoring): the tool filter",
		"// runs docs/design.md, Matching\n\t// and scoring, for one call",
		"// the design (docs/design.md)",
		"x := \"(docs/design.md, Item format)\"",
	} {
		if p := citeProblems(good, heads); len(p) > 0 {
			t.Errorf("%q: %v", good, p)
		}
	}
}

// citeProblems lists the outside citations in a Go file's text and the
// docs/ citations whose heading does not exist. Comment lines are joined,
// so a heading wrapped across two lines still reads as one.
func citeProblems(src string, heads map[string][]string) []string {
	var out []string
	for i, line := range strings.Split(src, "\n") {
		for _, re := range outsideDocs {
			if m := re.FindString(line); m != "" {
				out = append(out, fmt.Sprintf("line %d cites %q, which does not ship with lore: cite docs/<file>.md, <heading>", i+1, m))
			}
		}
	}
	text := joinComments(src)
	for _, m := range citation.FindAllStringSubmatchIndex(text, -1) {
		file, rest := text[m[2]:m[3]], text[m[1]:]
		hs, ok := heads[file]
		if !ok {
			out = append(out, fmt.Sprintf("cites docs/%s, which does not exist", file))
			continue
		}
		if !namesHeading(rest, hs) {
			out = append(out, fmt.Sprintf("cites docs/%s, %q: no such heading", file, firstWords(rest, 5)))
		}
	}
	return out
}

// joinComments removes the comment markers and indentation at line starts
// and joins the lines with one space.
func joinComments(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		lines[i] = strings.TrimSpace(strings.TrimPrefix(l, "//"))
	}
	return strings.Join(lines, " ")
}

// namesHeading: rest starts with one of the headings, followed by a
// character that cannot continue a word.
func namesHeading(rest string, heads []string) bool {
	for _, h := range heads {
		if after, ok := strings.CutPrefix(rest, h); ok {
			if after == "" || !isWordRune([]rune(after)[0]) {
				return true
			}
		}
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// docHeadings reads the headings of every docs/*.md file, outside code
// fences, with their Markdown marks removed.
func docHeadings(t *testing.T) map[string][]string {
	t.Helper()
	paths, err := filepath.Glob("docs/*.md")
	if err != nil || len(paths) < 4 {
		t.Fatalf("docs/*.md: %v (%d files)", err, len(paths))
	}
	heads := map[string][]string{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		heads[filepath.Base(p)] = markdownHeadings(string(data))
	}
	return heads
}

var headingLine = regexp.MustCompile(`^#{1,6} +(.+?) *#*$`)

func markdownHeadings(md string) []string {
	var out []string
	for _, l := range outsideFences(md) {
		if m := headingLine.FindStringSubmatch(l); m != nil {
			out = append(out, strings.ReplaceAll(m[1], "`", ""))
		}
	}
	return out
}

// outsideFences are the lines of md that are not in a code fence.
func outsideFences(md string) []string {
	var out []string
	fence := ""
	for _, l := range strings.Split(md, "\n") {
		trim := strings.TrimSpace(l)
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			switch {
			case fence == "":
				fence = trim[:3]
			case strings.HasPrefix(trim, fence):
				fence = ""
			}
			continue
		}
		if fence == "" {
			out = append(out, l)
		}
	}
	return out
}

// TestDocLinks: every relative link in the README and docs/ names a file
// that exists and, with a #fragment, a heading in it (GitHub's anchors).
func TestDocLinks(t *testing.T) {
	files, _ := filepath.Glob("docs/*.md")
	files = append(files, "README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(strings.Join(outsideFences(string(data)), "\n"), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: %v", f, target, err)
				continue
			}
			checked++
			if frag == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !is(anchors(string(body))...)(frag) {
				t.Errorf("%s: link %s: no heading with that anchor in %s", f, target, file)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d links", checked)
	}
}

// TestAnchors: the anchors are GitHub's.
func TestAnchors(t *testing.T) {
	got := anchors("# lore\n## learnings.md\n## Learnings: ages and consolidation\n## `lore ages` [FILE]\n## Tests\n## Tests\n```\n## Not\n```\n")
	want := []string{"lore", "learningsmd", "learnings-ages-and-consolidation", "lore-ages-file", "tests", "tests-1"}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("anchors = %v, want %v", got, want)
	}
}

// anchors are the fragment names GitHub gives a Markdown file's headings:
// lowercase, punctuation but - and _ dropped, spaces as -, repeats -1, -2.
func anchors(md string) []string {
	seen := map[string]int{}
	var out []string
	for _, h := range markdownHeadings(md) {
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || isWordRune(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", a, n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

// readPatterns compiles the regular expressions of file, one a line.
func readPatterns(file string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, l := range lines(file) {
		out = append(out, regexp.MustCompile(strings.TrimSpace(l)))
	}
	return out
}

// lines are the lines of a testdata file that are neither blank nor "#"
// comments; a missing file is a broken checkout.
func lines(file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		panic(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}
