package markdown

import "fmt"

// Error is a problem in a user's file, located by path, line and key so the
// CLI can print "path:line: key: message".
type Error struct {
	Path string // as the caller named the file
	Line int    // 1-based; 0 when the whole file is meant
	Key  string // frontmatter key (dotted for nested keys), or "" for none
	Msg  string
}

func (e *Error) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

func errorf(path string, line int, key, format string, args ...any) *Error {
	return &Error{Path: path, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
}
