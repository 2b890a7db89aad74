package markdown

import (
	"bytes"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Section is one H2 section of a Markdown body.
type Section struct {
	Title   string // heading line without the leading "## ", trimmed
	Line    int    // 1-based file line of the heading
	Start   int    // byte offset of the heading line in the file
	End     int    // byte offset where the next H2 (or the file) starts
	Content string // text between the heading and End, trimmed
}

// mdParser is goldmark's default parser (goldmark.DefaultParser), built on
// first use: every command links this package, few parse an item's
// sections. Built from the parser package, not goldmark's root, which would
// link and initialise its HTML renderer too.
var mdParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
})

// blockParser is mdParser without inline parsers, for parseSections:
// CommonMark decides blocks before inlines, so it finds the same headings
// for a third less work (7 against 11 µs on a typical item), and sections
// are parsed for every item a build reads.
var blockParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
})

// parseSections finds the top-level H2 headings of data[from:] with goldmark
// (so a "## " inside a code fence is not a heading). Offsets and lines are
// those of the whole file.
func parseSections(data []byte, from int) []Section {
	if secs, ok := quickSections(data, from); ok {
		return secs
	}
	return sectionsOf(blockParser(), data, from)
}

func sectionsOf(p parser.Parser, data []byte, from int) []Section {
	body := data[from:]
	doc := p.Parse(text.NewReader(body))
	var secs []Section
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 2 {
			continue
		}
		start, titleLine := headingLine(body, h)
		if start < 0 {
			continue
		}
		secs = append(secs, Section{
			Title: headingText(titleLine),
			Line:  lineAt(data, from+start),
			Start: from + start,
		})
	}
	fillSections(data, secs)
	return secs
}

// fillSections sets each section's end, where the next starts, and its
// content.
func fillSections(data []byte, secs []Section) {
	for i := range secs {
		end := len(data)
		if i+1 < len(secs) {
			end = secs[i+1].Start
		}
		secs[i].End = end
		bodyStart := secs[i].Start + lineLen(data[secs[i].Start:])
		if bodyStart > end { // a setext heading: its underline ends it
			bodyStart = end
		}
		secs[i].Content = strings.TrimSpace(string(data[bodyStart:end]))
	}
}

// headingLine returns the offset of the start of the heading's first source
// line and that line's text. goldmark's Lines() of an ATX heading point at
// the text after the "##"; walk back to the line start. An empty heading
// ("##" alone) has no lines and is skipped.
func headingLine(body []byte, h *ast.Heading) (int, []byte) {
	if h.Lines().Len() == 0 {
		return -1, nil
	}
	seg := h.Lines().At(0)
	start := bytes.LastIndexByte(body[:seg.Start], '\n') + 1
	return start, body[start : start+lineLen(body[start:])]
}

// headingText is the heading line without its leading "## " (or, for a
// setext heading, the line itself), trimmed.
func headingText(line []byte) string {
	s := strings.TrimSpace(strings.TrimRight(string(line), "\r\n"))
	return strings.TrimSpace(strings.TrimPrefix(s, "##"))
}

// lineLen is the length of the first line of b including its newline.
func lineLen(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	return len(b)
}
