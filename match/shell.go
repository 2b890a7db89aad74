package match

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// SimpleCommands splits a shell command line into the source text of its
// simple commands, across |, &&, ||, ;, subshells, blocks and command or
// process substitutions. A simple command's text includes its VAR=x
// prefixes and redirections. A line the parser rejects (or that has no
// simple command at all) is one command: the whole line.
func SimpleCommands(line string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return []string{line}
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || st.Cmd == nil {
			return true
		}
		switch st.Cmd.(type) {
		case *syntax.CallExpr, *syntax.DeclClause:
		default:
			return true
		}
		start, end := st.Cmd.Pos().Offset(), st.Cmd.End().Offset()
		for _, r := range st.Redirs {
			start = min(start, r.Pos().Offset())
			end = max(end, r.End().Offset())
		}
		if start < end && int(end) <= len(line) {
			out = append(out, line[start:end])
		}
		return true // substitutions inside the words are commands too
	})
	if len(out) == 0 {
		return []string{line}
	}
	return out
}
