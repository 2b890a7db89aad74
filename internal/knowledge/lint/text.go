package lint

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// hiddenRunes are characters a reviewer cannot see that change what an
// agent reads: bidi controls (Trojan Source) and invisible characters
// (zero-width, tag characters used to smuggle instructions).
var hiddenRunes = map[rune]string{
	0x00AD: "soft hyphen", 0x034F: "combining grapheme joiner", 0x061C: "arabic letter mark",
	0x115F: "hangul choseong filler", 0x1160: "hangul jungseong filler", 0x180E: "mongolian vowel separator",
	0x200B: "zero width space", 0x200C: "zero width non-joiner", 0x200D: "zero width joiner",
	0x200E: "left-to-right mark", 0x200F: "right-to-left mark",
	0x202A: "left-to-right embedding", 0x202B: "right-to-left embedding", 0x202C: "pop directional formatting",
	0x202D: "left-to-right override", 0x202E: "right-to-left override",
	0x2060: "word joiner", 0x2061: "function application", 0x2062: "invisible times",
	0x2063: "invisible separator", 0x2064: "invisible plus",
	0x2066: "left-to-right isolate", 0x2067: "right-to-left isolate", 0x2068: "first strong isolate",
	0x2069: "pop directional isolate", 0x3164: "hangul filler", 0xFEFF: "zero width no-break space",
	0xFFA0: "halfwidth hangul filler",
}

// hiddenName names r when a reviewer cannot see it: the named fillers and
// joiners above, every format character (Unicode Cf: bidi controls, tag
// characters, zero-width marks) and every variation selector.
func hiddenName(r rune) (string, bool) {
	if n, ok := hiddenRunes[r]; ok {
		return n, true
	}
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return "tag character", true
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return "variation selector", true
	case unicode.Is(unicode.Cf, r):
		return "format character", true
	}
	return "", false
}

// Hidden reports whether lint rejects r as a character a reviewer cannot
// see: an import takes such characters out of the text it brings in.
func Hidden(r rune) bool {
	_, hidden := hiddenName(r)
	return hidden
}

// checkText flags hidden characters (with line and column, in characters)
// and secrets in a file's text. A BOM at the very start is allowed.
func checkText(p string, data []byte) []Finding {
	return append(checkHidden(p, data), checkSecrets(p, data)...)
}

// checkHidden flags every hidden character: each run of adjacent ones is
// one finding at its first character, counting the rest (a tag-smuggled
// sentence is one problem to remove, not a hundred).
func checkHidden(p string, data []byte) []Finding {
	if ascii(data) {
		return nil // no ASCII character is hidden: most items
	}
	return hiddenRuns(p, data)
}

// hiddenRuns is checkHidden reading each character.
func hiddenRuns(p string, data []byte) []Finding {
	var out []Finding
	line, col := 1, 0
	more := 0 // hidden characters after the first of the current run
	end := func() {
		if more > 0 {
			out[len(out)-1].Msg += fmt.Sprintf(" (and %d more right after it)", more)
		}
		more = 0
	}
	inRun := false
	for i := 0; i < len(data); {
		r, n := rune(data[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(data[i:])
		}
		col++
		name, hidden := "", false
		if r >= 0x80 { // no ASCII character is hidden: spare the lookups
			name, hidden = hiddenName(r)
		}
		switch {
		case !hidden || r == 0xFEFF && i == 0:
			end()
			inRun = false
		case inRun:
			more++
		default:
			out = append(out, Finding{Path: p, Line: line, Col: col, Key: "unicode",
				Msg: fmt.Sprintf("invisible or bidi character U+%04X (%s): remove it; it can hide text from reviewers", r, name), Severity: Error})
			inRun = true
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		i += n
	}
	end()
	return out
}

// ascii says data holds no byte of a multi-byte character. It reads
// eight bytes at a time: every item pays for it.
func ascii(data []byte) bool {
	for len(data) >= 8 {
		if binary.LittleEndian.Uint64(data)&0x8080808080808080 != 0 {
			return false
		}
		data = data[8:]
	}
	for _, c := range data {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// position returns the 1-based line and character column of a byte offset.
func position(data []byte, off int) (line, col int) {
	start := strings.LastIndexByte(string(data[:off]), '\n') + 1
	line = strings.Count(string(data[:off]), "\n") + 1
	return line, utf8.RuneCount(data[start:off]) + 1
}

// fetchRes find a download piped into an interpreter: the classic way to
// turn a lesson into remote code execution by the agent that reads it.
var fetchRes = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:ba|z|k|da|fi|c|tc)?sh\b`),
		regexp.MustCompile(`(?i)\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]*\|\s*(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php|iex|pwsh|powershell|source)\b`),
		regexp.MustCompile(`(?i)(?:\$\(|<\(|` + "`" + `)\s*(?:curl|wget)\b`),
	}
})

// descriptive sections say what went wrong; a fetch pipeline there is the
// mistake being described, not an instruction.
var descriptive = map[string]bool{"mistake": true, "issue": true, "impact": true, "context": true}

// checkFetch flags shell pipelines from a network fetcher into an
// interpreter in the sections an agent is told to follow.
func checkFetch(it *markdown.Item) []Finding {
	if !itemNamesFetcher(it.Raw()) {
		return nil // no line can name one: most items
	}
	return fetches(it)
}

// fetches is checkFetch reading each section.
func fetches(it *markdown.Item) []Finding {
	var out []Finding
	raw := it.Raw()
	for _, s := range it.Sections {
		if !descriptive[strings.ToLower(s.Title)] {
			out = append(out, sectionFetches(it.Path, raw, s)...)
		}
	}
	return out
}

// sectionFetches is checkFetch for one section of the item's raw bytes.
func sectionFetches(p string, raw []byte, s markdown.Section) []Finding {
	var out []Finding
	off := s.Start
	fenced := false
	for _, line := range strings.SplitAfter(string(raw[s.Start:s.End]), "\n") {
		t := strings.TrimLeft(line, " ")
		fence := strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
		if fence {
			fenced = !fenced
		}
		text := line
		if !fenced && !fence && !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "\t") {
			text = unspan(line) // prose: its backticks delimit code, they do not run it
		}
		if loc := fetchIn(text); loc != nil {
			l, c := position(raw, off+loc[0])
			out = append(out, Finding{Path: p, Line: l, Col: c, Key: "fetch",
				Msg: fmt.Sprintf("## %s pipes a download into an interpreter (%q): an agent would run remote code; pin and verify the script instead", s.Title, firstLine(line[loc[0]:loc[1]])), Severity: Error})
		}
		off += len(line)
	}
	return out
}

// fetchIn returns where the first fetch pipeline in text is, or nil.
func fetchIn(text string) []int {
	if !namesFetcher(text) {
		return nil
	}
	for _, re := range fetchRes() {
		if loc := re.FindStringIndex(text); loc != nil {
			return loc
		}
	}
	return nil
}

// namesFetcher says text names a fetcher, as every fetchRes pattern does:
// most lines name none and skip the three regexps, which were a fifth of
// a cold build at 10,000 items (docs/design.md, Incremental build). The
// words hold no letter whose case folding ToLower misses (k, s).
func namesFetcher(text string) bool {
	l := strings.ToLower(text)
	for _, w := range fetchers {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

var fetchers = []string{"curl", "wget", "fetch", "iwr", "irm", "invoke-"}

// itemNamesFetcher says one of data's lines may name a fetcher (none
// holds a line break, so a line that names one is in an item that does).
// An ASCII item is read in place, each byte lowered as ToLower lowers it:
// lower-casing a copy of each item cost a cold build as much as the
// lines it spares (docs/design.md, Incremental build).
func itemNamesFetcher(data []byte) bool {
	if !ascii(data) {
		return namesFetcher(string(data))
	}
	for i := 0; i+1 < len(data); i++ {
		if m, n := fetcherPairs[data[i]], data[i+1]|0x20; m == 0 || n < 'a' || n > 'z' || m&(1<<(n-'a')) == 0 {
			continue // no fetcher starts with these two letters: most bytes
		}
		for _, w := range fetchers {
			if lowerPrefix(data[i:], w) {
				return true
			}
		}
	}
	return false
}

// fetcherPairs has, for each letter a fetcher starts with (in either
// case), the second letters that may follow it, a bit for each from a.
var fetcherPairs = func() (pairs [256]uint32) {
	for _, w := range fetchers {
		pairs[w[0]] |= 1 << (w[1] - 'a')
		pairs[w[0]-'a'+'A'] |= 1 << (w[1] - 'a')
	}
	return pairs
}()

// lowerPrefix says the ASCII text b, lower-cased, begins with w.
func lowerPrefix(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		c := b[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// unspan blanks the backtick runs that open and close Markdown code spans
// in a prose line (offsets kept), so `curl -s URL | jq .name` is read as
// the command it shows and not as a command substitution. A backtick
// inside a longer-delimited span, or one that closes nothing, stays.
func unspan(line string) string {
	b := []byte(line)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := backticks(b, i)
		closeAt := closingRun(b, i+n, n)
		if closeAt < 0 {
			i += n // a literal run: left as it is
			continue
		}
		for k := 0; k < n; k++ {
			b[i+k], b[closeAt+k] = ' ', ' '
		}
		i = closeAt + n
	}
	return string(b)
}

// backticks is the length of the backtick run at i.
func backticks(b []byte, i int) int {
	j := i
	for j < len(b) && b[j] == '`' {
		j++
	}
	return j - i
}

// closingRun returns where the first run of exactly n backticks from
// from starts, or -1.
func closingRun(b []byte, from, n int) int {
	for j := from; j < len(b); {
		if b[j] != '`' {
			j++
			continue
		}
		m := backticks(b, j)
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
