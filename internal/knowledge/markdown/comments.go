package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// HTMLComments returns the byte ranges of the HTML comments in the
// Markdown src that a renderer (GitHub's view of a file) hides: comment
// blocks and inline comments, not ones inside code, which are shown.
func HTMLComments(src []byte) [][2]int {
	if !bytes.Contains(src, []byte("<!--")) {
		return nil
	}
	var out [][2]int
	doc := mdParser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.HTMLBlock:
			if x.HTMLBlockType == ast.HTMLBlockType2 && x.Lines().Len() > 0 {
				out = append(out, commentAt(src, x.Lines().At(0).Start))
			}
		case *ast.RawHTML:
			if x.Segments.Len() > 0 {
				if start := x.Segments.At(0).Start; bytes.HasPrefix(src[start:], []byte("<!--")) {
					out = append(out, [2]int{start, x.Segments.At(x.Segments.Len() - 1).Stop})
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// commentAt is the range of the comment that starts at or after from, up to
// its "-->" (or the end of src, which an unclosed comment hides).
func commentAt(src []byte, from int) [2]int {
	start := from + bytes.Index(src[from:], []byte("<!--"))
	if end := bytes.Index(src[start+4:], []byte("-->")); end >= 0 {
		return [2]int{start, start + 4 + end + 3}
	}
	return [2]int{start, len(src)}
}
