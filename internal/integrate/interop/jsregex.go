package interop

import (
	"fmt"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// jsCommand turns a JavaScript regex (source and flags) into an RE2
// command pattern and the unless patterns of its trailing negative
// lookahead (docs/design.md, Item format: "X(?!.*(A|B))" is "X" unless A or B).
func jsCommand(source, flags string) (pat string, unless []string, err error) {
	prefix, err := jsFlags(flags)
	if err != nil {
		return "", nil, err
	}
	if base, alts, ok := lint.SplitLookahead(source); ok {
		for _, a := range alts {
			unless = append(unless, prefix+a)
		}
		return prefix + base, unless, nil
	}
	if err := markdown.CheckRegex(source); err != nil {
		return "", nil, err
	}
	return prefix + source, nil, nil
}

// jsFlags maps the flags that change what a pattern matches to RE2's
// inline flags; g and y only change how JavaScript iterates.
func jsFlags(flags string) (string, error) {
	var f string
	for _, c := range flags {
		switch c {
		case 'i', 'm', 's':
			f += string(c)
		case 'g', 'y', 'u', 'd':
		default:
			return "", fmt.Errorf("regex flag %q has no RE2 equivalent", c)
		}
	}
	if f == "" {
		return "", nil
	}
	return "(?" + f + ")", nil
}

// jsPathGlob turns a JavaScript regex tested (unanchored) against an
// absolute file path into doublestar globs over the repo-relative path
// that decide the same, plus unless patterns for a leading negative
// lookahead. It handles the shapes path patterns are written in:
// ".*/name", ".*/[^/]*\.ext", ".*/dir/.*", alternations of literals, "$",
// and "^(?!...).*"; anything else is an error that names what it met.
func jsPathGlob(source, flags string) (globs, unless []string, err error) {
	fold, err := pathFlags(flags)
	if err != nil {
		return nil, nil, err
	}
	s, unless, err := pathAnchor(source, fold)
	if err != nil {
		return nil, nil, err
	}
	s, open := openEnds(strings.TrimPrefix(s, ".*"))
	body, err := globBody(s, fold)
	if err != nil {
		return nil, nil, err
	}
	return pathGlobs(body, open), unless, nil
}

// openEnds strips a trailing "$" or ".*"; open when anything may follow
// what is left (no "$", or a ".*").
func openEnds(s string) (string, bool) {
	anchoredEnd := strings.HasSuffix(s, "$") && !strings.HasSuffix(s, `\$`)
	s = strings.TrimSuffix(s, "$")
	if strings.HasSuffix(s, ".*") && !strings.HasSuffix(s, `\.*`) {
		return strings.TrimSuffix(s, ".*"), true
	}
	return s, !anchoredEnd
}

// pathFlags reads a path pattern's flags: fold for i.
func pathFlags(flags string) (fold bool, err error) {
	for _, c := range flags {
		switch c {
		case 'i':
			fold = true
		case 'g', 'y', 'u', 'd':
		default:
			return false, fmt.Errorf("regex flag %q has no glob equivalent", c)
		}
	}
	return fold, nil
}

// pathAnchor strips a leading ^, which must be followed (after an
// optional negative lookahead, returned as an unless pattern) by ".*".
func pathAnchor(source string, fold bool) (s string, unless []string, err error) {
	s, ok := strings.CutPrefix(source, "^")
	if !ok {
		return s, nil, nil
	}
	if strings.HasPrefix(s, "(?!") {
		end := groupEnd(s)
		if end < 0 {
			return "", nil, fmt.Errorf("unbalanced group in %q", source)
		}
		inner, err := lookaheadUnless(s[3:end], fold)
		if err != nil {
			return "", nil, err
		}
		unless, s = append(unless, inner), s[end+1:]
	}
	if !strings.HasPrefix(s, ".*") {
		return "", nil, fmt.Errorf("anchored at the absolute path's start: machine-specific")
	}
	return s, unless, nil
}

// lookaheadUnless turns the body of a leading (?!...) into an unless
// pattern over the repo-relative path.
func lookaheadUnless(inner string, fold bool) (string, error) {
	// The lookahead sees the absolute path; ".*/" before a name is "at
	// the root or after a slash" of the repo-relative one.
	inner = strings.TrimPrefix(inner, ".*")
	if strings.HasPrefix(inner, "/") {
		inner = "(?:^|/)" + inner[1:]
	}
	if err := markdown.CheckRegex(inner); err != nil {
		return "", err
	}
	if fold {
		inner = "(?i)" + inner
	}
	return inner, nil
}

// pathGlobs anchors a glob body: where a match can start, after a slash
// is a path component's start (or the root), anywhere else inside a
// component; open: anything may follow it.
func pathGlobs(body string, open bool) []string {
	if strings.HasPrefix(body, "/") {
		body = "**" + body
	} else {
		body = "**/*" + body
	}
	switch {
	case strings.HasSuffix(body, "/") && open:
		return []string{body + "**"}
	case open:
		// More of the name, and deeper folders (two globs: doublestar's
		// "x*/**" does not match "x" itself).
		return []string{body + "*", body + "*/**"}
	}
	return []string{body}
}

// globBody translates the regex between its open ends into glob syntax.
func globBody(s string, fold bool) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.HasPrefix(s[i:], ".*") && strings.HasSuffix(b.String(), "/"):
			b.WriteString("**/*") // any folders, then the rest of a name
			i++
		case strings.HasPrefix(s[i:], "[^/]*"):
			b.WriteString("*")
			i += len("[^/]*") - 1
		case c == '\\' && i+1 < len(s) && escapable(s[i+1]):
			i++
			writeLit(&b, s[i], fold)
		case c == '(':
			end, err := globGroup(&b, s[i:], fold)
			if err != nil {
				return "", err
			}
			i += end
		case isNameByte(c) || c == '/':
			writeLit(&b, c, fold)
		default:
			return "", fmt.Errorf("%q at offset %d has no glob equivalent", s[i:], i)
		}
	}
	return b.String(), nil
}

// globGroup writes the group s starts with, an alternation of names, as a
// glob {a,b} and returns the offset of its ")".
func globGroup(b *strings.Builder, s string, fold bool) (int, error) {
	end := groupEnd(s)
	if end < 0 {
		return 0, fmt.Errorf("unbalanced group")
	}
	var alts []string
	for _, a := range strings.Split(strings.TrimPrefix(s[1:end], "?:"), "|") {
		g, err := globBody(a, fold)
		if err != nil || strings.ContainsAny(g, "*/{") {
			return 0, fmt.Errorf("group %q is not a list of names", s[:end+1])
		}
		alts = append(alts, g)
	}
	b.WriteString("{" + strings.Join(alts, ",") + "}")
	return end, nil
}

// escapable reports the bytes a backslash makes literal in a path pattern.
func escapable(c byte) bool { return strings.IndexByte(`.-_/$^+()[]{}*?|`, c) >= 0 }

func isNameByte(c byte) bool {
	return isAlnum(c) || c == '-' || c == '_'
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// writeLit writes one literal byte, as a two-case class under the i flag
// and escaped where glob syntax would read it.
func writeLit(b *strings.Builder, c byte, fold bool) {
	lo, up := strings.ToLower(string(c)), strings.ToUpper(string(c))
	switch {
	case fold && lo != up:
		b.WriteString("[" + lo + up + "]")
	case strings.IndexByte(`*?[]{}\`, c) >= 0:
		b.WriteString(`\` + string(c))
	default:
		b.WriteByte(c)
	}
}

// groupEnd is the offset of the ")" closing the group that s starts with.
func groupEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
