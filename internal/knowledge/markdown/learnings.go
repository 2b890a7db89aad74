package markdown

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// PreambleLines is the number of leading lines of learnings.md that are never
// entries (docs/design.md, learnings.md).
const PreambleLines = 10

// Entry is one H2 entry of learnings.md.
type Entry struct {
	Title string // heading text: the H2 line without "## ", trimmed
	Line  int    // 1-based line of the heading
	Start int    // byte offset of the heading line
	End   int    // byte offset where the next entry (or the file) starts
	Body  string // text under the heading, trimmed
	Kind  string // from an optional first body line "kind: pitfall|lesson|decision"
}

// Learnings is a parsed learnings.md.
type Learnings struct {
	Lines   int // number of lines in the file
	Entries []Entry
}

// ParseLearnings reads the staging file. It never fails on content: any text
// is a valid learnings file; binary or non-UTF-8 input is an *Error.
func ParseLearnings(path string, data []byte) (*Learnings, error) {
	return parseLearnings(path, data, true)
}

// parseLearnings is ParseLearnings; fast takes plainEntries' path for a
// plain file, otherwise goldmark decides (HeadingTexts, the definition the
// fast paths are checked against, always asks goldmark).
func parseLearnings(path string, data []byte, fast bool) (*Learnings, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, errorf(path, lineAt(data, i), "", "binary file (NUL byte), not a learnings file")
	}
	if !utf8.Valid(data) {
		return nil, errorf(path, lineAt(data, firstInvalidUTF8(data)), "", "invalid UTF-8")
	}
	l := &Learnings{Lines: CountLines(data)}
	if fast {
		if entries, ok := plainEntries(data); ok {
			l.Entries = entries
			return l, nil
		}
	}
	for _, s := range parseSections(data, 0) {
		if s.Line <= PreambleLines {
			continue
		}
		l.Entries = append(l.Entries, Entry{
			Title: s.Title, Line: s.Line, Start: s.Start, End: s.End,
			Body: s.Content, Kind: entryKind(s.Content),
		})
	}
	return l, nil
}

// HeadingTexts returns the set of entry titles of a learnings file, the V(C)
// of docs/design.md, Ages and staleness.
func HeadingTexts(data []byte) map[string]bool {
	set := map[string]bool{}
	l, err := parseLearnings("", data, false)
	if err != nil {
		return set
	}
	for _, e := range l.Entries {
		set[e.Title] = true
	}
	return set
}

// CountLines counts lines as wc -l would, plus a last line without a newline.
func CountLines(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

func entryKind(body string) string {
	first, _, _ := strings.Cut(body, "\n")
	k, v, ok := strings.Cut(strings.TrimSpace(first), ":")
	if !ok || strings.TrimSpace(k) != "kind" {
		return ""
	}
	switch v = strings.TrimSpace(v); v {
	case KindLesson, KindPitfall, KindDecision:
		return v
	}
	return ""
}

// AppendEntry returns data with a new H2 entry appended, separated by a
// blank line. A file shorter than the preamble is padded so the entry is
// not mistaken for preamble.
func AppendEntry(data []byte, title, body string) []byte {
	var b bytes.Buffer
	b.Write(data)
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		b.WriteByte('\n')
	}
	for CountLines(b.Bytes()) < PreambleLines {
		b.WriteByte('\n')
	}
	if !bytes.HasSuffix(b.Bytes(), []byte("\n\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("## " + strings.TrimSpace(title) + "\n")
	if body = strings.TrimSpace(body); body != "" {
		b.WriteString(body + "\n")
	}
	return b.Bytes()
}
