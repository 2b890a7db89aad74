package markdown

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var nonSlug = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// Slug turns a title into a file name stem: lowercase ASCII words joined
// by dashes, at most 60 characters, cut at a word boundary when one is
// near; "item" when nothing is left.
func Slug(title string) string {
	s := strings.Trim(nonSlug().ReplaceAllString(strings.ToLower(title), "-"), "-")
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
		if i := strings.LastIndexByte(s, '-'); i > 30 {
			s = s[:i]
		}
	}
	if s == "" {
		s = "item"
	}
	return s
}

var refNumRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:PF|ADR)-(\d+)`) })

// RefNumber is the number of a PF-/ADR- ref or of a file name that starts
// with one ("PF-0012-disk.md" is 12); 0 when there is none.
func RefNumber(s string) int {
	m := refNumRe().FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// FormatRef is the n-th human number of a kind: FormatRef("pitfall", 3) is
// "PF-0003"; "" for kinds without refs.
func FormatRef(kind string, n int) string {
	if RefPrefix(kind) == "" {
		return ""
	}
	return fmt.Sprintf("%s-%04d", RefPrefix(kind), n)
}

// FreeName is the one way a new file is named when its name may be taken:
// folder/name when taken says it is free, else the first free of
// folder/<stem>-2, -3, ..., where the stem is name without its .md (which
// the suffixed name keeps). taken is asked about each name in that order
// and may hold more than the disk: names a caller planned but has not
// written yet.
func FreeName(folder, name string, taken func(rel string) bool) string {
	stem, ext := name, ""
	if s, ok := strings.CutSuffix(name, ".md"); ok {
		stem, ext = s, ".md"
	}
	rel := path.Join(folder, name)
	for i := 2; taken(rel); i++ {
		rel = path.Join(folder, stem+"-"+strconv.Itoa(i)+ext)
	}
	return rel
}
