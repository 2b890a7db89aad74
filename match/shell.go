package match

import (
	"strings"
	"unsafe"
)

// SimpleCommands splits a shell command line into the source text of its
// simple commands, across |, |&, &&, ||, ;, &, newlines, subshells, blocks,
// if/while/until/for/case bodies, functions, and command or process
// substitutions (whose commands are listed after the command that holds
// them). A simple command's text runs from its first word (VAR=x prefixes
// included) to its last word or redirection. A line that does not scan (an
// unterminated quote or substitution) is one command: the whole line.
//
// Why not mvdan.cc/sh: it is the real parser and it is this function's
// oracle (shell_oracle_test.go checks the two agree on a corpus and on
// generated Bash), but linking it costs the hook ~0.12 ms of
// package initialisation (its fileutil compiles two regexps at init) and
// 125 KB of code, more than the whole start-up budget of a hook call that
// no item names (DESIGN section 14). This scanner allocates only the result.
func SimpleCommands(line string) []string {
	s := &shellScanner{src: line}
	if !s.list(0) || s.pos < len(s.src) || len(s.cmds) == 0 {
		return []string{line}
	}
	return s.cmds
}

// offsetIn returns where cmd, one of the strings SimpleCommands(line)
// returned, starts in line. They are all slices of line, so this is
// pointer arithmetic: no search, and no offsets kept on the hook's path.
func offsetIn(line, cmd string) int {
	return int(uintptr(unsafe.Pointer(unsafe.StringData(cmd))) - uintptr(unsafe.Pointer(unsafe.StringData(line))))
}

type shellScanner struct {
	src  string
	pos  int
	cmds []string
	subs []string // substitution commands found inside the current command's words
	// inert collects the spans the shell does not run, when spans is set
	// (only for a deny: tool calls that no deny item matches never pay).
	inert []span
	spans bool
	// heredocs waiting for the next newline, in order.
	heredocs   []heredoc
	backquotes int  // depth of `...` substitutions: a backquote closes one
	redirected bool // the last word() was a redirection
}

// span is a byte range [start, end) of the scanned line.
type span struct{ start, end int }

// inertSpans returns the byte ranges of a command line that the shell does
// not run: quoted strings (less the command substitutions inside double
// quotes), here-document bodies with their closing delimiter, and comments.
// A here-document body is data even when unquoted: its $(...) is not looked
// into. ok is false when the line does not scan: then all of it counts as
// code. FuzzInertSpansOracle checks it against mvdan.cc/sh.
func inertSpans(line string) (spans []span, ok bool) {
	s := &shellScanner{src: line, spans: true}
	if !s.list(0) || s.pos < len(s.src) {
		return nil, false
	}
	return s.inert, true
}

func (s *shellScanner) inertSpan(start, end int) {
	if s.spans && start < end {
		s.inert = append(s.inert, span{start, min(end, len(s.src))})
	}
}

// heredoc is a here-document whose body follows the next newline. Like
// the parser, the body belongs to the text of the command that opened it.
type heredoc struct {
	delim string
	strip bool // <<- strips leading tabs
	cmd   int  // index in cmds of that command, -1 until it is recorded
	start int  // offset where that command starts
}

// list scans commands until the end of input or, inside a construct, the
// closing token: ')' for subshells and substitutions (close == ')'), '}'
// for blocks, '`' for backquotes. It reports false on a scan error.
func (s *shellScanner) list(close byte) bool {
	for {
		s.blanks(true)
		if s.pos >= len(s.src) {
			return close == 0
		}
		c := s.src[s.pos]
		switch {
		case c == close && close != '}':
			return true
		case close == '}' && c == '}' && s.wordEnds(s.pos+1):
			return true
		case c == ')' || c == '`' && s.backquotes > 0 || c == '}' && s.wordEnds(s.pos+1):
			return false // a closer that is not ours
		case c == ';' || c == '&' || c == '|':
			s.operator()
		default:
			// A command that reads nothing would be met again forever.
			if at := s.pos; !s.command(close) || s.pos == at {
				return false
			}
		}
	}
}

// blanks skips spaces and tabs, comments, and (when newlines) newlines,
// reading any pending here-document bodies at each newline.
func (s *shellScanner) blanks(newlines bool) {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t':
			s.pos++
		case c == '\\' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '\n':
			s.pos += 2
		case c == '#':
			start := s.pos
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
			s.inertSpan(start, s.pos)
		case c == '\n' && newlines:
			s.pos++
			s.readHeredocs()
		default:
			return
		}
	}
}

// operator skips a control operator: ; ;; & && | || |&.
func (s *shellScanner) operator() {
	c := s.src[s.pos]
	s.pos++
	if s.pos < len(s.src) && (s.src[s.pos] == c || c == '|' && s.src[s.pos] == '&') {
		s.pos++
	}
}

// reserved reports the words that start no simple command. A switch, not a
// map: a package-level map is built at init, on every hook call.
func reserved(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "time":
		return true
	}
	return false
}

// command scans one command: a compound construct or a simple command.
func (s *shellScanner) command(close byte) bool {
	if s.src[s.pos] == '(' {
		if strings.HasPrefix(s.src[s.pos:], "((") {
			return s.skipArith(s.pos + 2)
		}
		s.pos++
		if !s.list(')') {
			return false
		}
		s.pos++
		return s.redirectsAfterCompound()
	}
	start := s.pos
	switch w := s.bareWord(); {
	case w == "{" && s.wordEnds(s.pos):
		if !s.list('}') {
			return false
		}
		s.pos++
		return s.redirectsAfterCompound()
	case w == "[[":
		return s.skipUntilWord("]]")
	case w == "for" || w == "select":
		return s.skipHeader()
	case w == "case":
		return s.caseClause()
	case w == "let":
		return s.skipLet()
	case w == "function":
		s.blanks(false)
		s.bareWord() // the name
		s.blanks(false)
		if strings.HasPrefix(s.src[s.pos:], "()") {
			s.pos += 2
		}
		return true
	case w == "done" || w == "fi":
		return s.redirectsAfterCompound()
	case reserved(w):
		return true
	}
	s.pos = start
	return s.simple()
}

// simple scans words, assignments and redirections up to an operator,
// recording the command text, then the commands of its substitutions.
func (s *shellScanner) simple() bool {
	start, end := s.pos, s.pos
	words := false // a redirection alone is not a command
	outer := s.subs
	s.subs = nil
	defer func() { s.subs = outer }()
	for n := 0; ; n++ {
		s.blanks(false)
		if n == 1 && words && strings.HasPrefix(s.src[s.pos:], "()") {
			// name() { body }: a function definition, not a command.
			s.pos += 2
			s.subs = nil
			return true
		}
		if s.pos >= len(s.src) {
			break
		}
		c := s.src[s.pos]
		if c == '\n' || c == ';' || c == '|' || c == ')' || c == '`' && s.backquotes > 0 ||
			c == '&' && !strings.HasPrefix(s.src[s.pos:], "&>") {
			break
		}
		at := s.pos
		if !s.word() || s.pos == at {
			return false
		}
		words = words || !s.redirected
		end = s.pos
	}
	if end > start && words {
		for i := range s.heredocs {
			if s.heredocs[i].cmd < 0 {
				s.heredocs[i].cmd, s.heredocs[i].start = len(s.cmds), start
			}
		}
		s.cmds = append(s.cmds, s.src[start:end])
	}
	s.cmds = append(s.cmds, s.subs...)
	return true
}

// skipLet skips the arithmetic of a let command (not a simple command for
// the parser; & and | are operators inside it), keeping substitutions.
func (s *shellScanner) skipLet() bool {
	for {
		s.blanks(false)
		if s.pos >= len(s.src) || strings.IndexByte("\n;)`", s.src[s.pos]) >= 0 {
			s.flushSubs()
			return true
		}
		at := s.pos
		if !s.word() {
			return false
		}
		if s.pos == at {
			s.pos++ // an arithmetic operator: & | < >
		}
	}
}

// flushSubs records the commands of substitutions met outside a simple
// command (in a for header, a case word, a redirection after a compound).
func (s *shellScanner) flushSubs() {
	s.cmds = append(s.cmds, s.subs...)
	s.subs = nil
}

// redirectsAfterCompound skips redirections after ) or }.
func (s *shellScanner) redirectsAfterCompound() bool {
	for {
		s.blanks(false)
		if s.pos >= len(s.src) || !strings.ContainsRune("<>0123456789", rune(s.src[s.pos])) && !strings.HasPrefix(s.src[s.pos:], "&>") {
			s.flushSubs()
			return true
		}
		at := s.pos
		if !s.word() || s.pos == at {
			return false
		}
	}
}

// word scans one word or redirection (operator plus its target), with
// quotes, escapes and substitutions; commands in substitutions go to subs.
func (s *shellScanner) word() bool {
	if s.redirected = s.redirection(); s.redirected {
		s.blanks(false)
		if s.pos >= len(s.src) {
			return false
		}
	}
	return s.wordText()
}

// wordText scans the text of a word, after any redirection operator.
func (s *shellScanner) wordText() bool {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == ')':
			return true
		case c == '`':
			if s.backquotes > 0 {
				return true
			}
			s.pos++
			if !s.substitution('`') {
				return false
			}
		case c == '(':
			if s.pos == 0 || s.src[s.pos-1] != '=' {
				return true // an operator: "name()" or a syntax error
			}
			s.pos++ // an array assignment: arr=(a b c)
			for s.pos < len(s.src) && s.src[s.pos] != ')' {
				if c := s.src[s.pos]; c == ' ' || c == '\t' || c == '\n' {
					s.pos++
					continue
				}
				if at := s.pos; !s.word() || s.pos == at {
					return false // "a=((": no word, no progress
				}
			}
			if s.pos >= len(s.src) {
				return false
			}
			s.pos++
		case c == '&' || c == '<' || c == '>':
			if c == '<' || c == '>' {
				if s.pos+1 < len(s.src) && s.src[s.pos+1] == '(' {
					s.pos += 2
					if !s.substitution(')') {
						return false
					}
					continue
				}
			}
			return true
		case c == '\\':
			s.pos = min(s.pos+2, len(s.src)) // a trailing backslash is literal
		case c == '\'':
			i := strings.IndexByte(s.src[s.pos+1:], '\'')
			if i < 0 {
				return false
			}
			s.inertSpan(s.pos, s.pos+i+2)
			s.pos += i + 2
		case c == '"':
			if !s.doubleQuoted(s.pos) {
				return false
			}
		case c == '$':
			if !s.dollar() {
				return false
			}
		default:
			s.pos++
		}
	}
	return s.pos <= len(s.src)
}

// redirection skips a redirection operator (with an fd number or {var}
// before it) and reports whether there was one. A here-document operator
// queues its body for the next newline.
func (s *shellScanner) redirection() bool {
	i := s.pos
	for i < len(s.src) && s.src[i] >= '0' && s.src[i] <= '9' {
		i++
	}
	if i < len(s.src) && s.src[i] == '&' && i == s.pos && i+1 < len(s.src) && s.src[i+1] == '>' {
		i++
	}
	if i >= len(s.src) || (s.src[i] != '<' && s.src[i] != '>') || strings.HasPrefix(s.src[i:], "<(") || strings.HasPrefix(s.src[i:], ">(") {
		return false
	}
	op := s.src[i:]
	switch {
	case strings.HasPrefix(op, "<<<"):
		i += 3
	case strings.HasPrefix(op, "<<-"), strings.HasPrefix(op, "<<"):
		strip := strings.HasPrefix(op, "<<-")
		i += 2
		if strip {
			i++
		}
		s.pos = i
		s.blanks(false)
		d := s.pos
		if !s.wordText() { // in "<<0<x" the delimiter is 0, not a redirection 0<x
			return false
		}
		delim := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(s.src[d:s.pos])
		s.heredocs = append(s.heredocs, heredoc{delim: delim, strip: strip, cmd: -1})
		s.pos = d // word() is called again by the caller for the delimiter
		return true
	case strings.HasPrefix(op, ">>"), strings.HasPrefix(op, "<>"), strings.HasPrefix(op, ">&"),
		strings.HasPrefix(op, "<&"), strings.HasPrefix(op, ">|"):
		i += 2
	default:
		i++
	}
	s.pos = i
	return true
}

// readHeredocs skips the bodies of queued here-documents, line by line.
func (s *shellScanner) readHeredocs() {
	for _, h := range s.heredocs {
		body, closed := s.pos, false
		for s.pos < len(s.src) && !closed {
			at := s.pos
			nl := strings.IndexByte(s.src[s.pos:], '\n')
			line := s.src[s.pos:]
			if nl >= 0 {
				line = line[:nl]
			}
			s.pos += len(line)
			end := s.pos
			if nl >= 0 {
				s.pos++
			}
			if h.strip {
				line = strings.TrimLeft(line, "\t")
			}
			if closed = line == h.delim; closed {
				if h.cmd >= 0 && h.cmd < len(s.cmds) {
					s.cmds[h.cmd] = s.src[h.start:end]
				}
				// As in the parser, an empty body has no span, unless
				// <<- stripped tabs before the delimiter.
				if at > body || end-at > len(line) {
					s.inertSpan(body, end)
				}
			}
		}
		if !closed {
			s.inertSpan(body, s.pos) // unterminated: the rest is its body
		}
	}
	s.heredocs = nil
}

// doubleQuoted scans "..." from its opening quote; from is where the
// string starts ($"..." starts at the $). Its text is inert but for the
// command substitutions in it.
func (s *shellScanner) doubleQuoted(from int) bool {
	s.pos++
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case '"':
			s.pos++
			s.inertSpan(from, s.pos)
			return true
		case '\\':
			s.pos += 2
		case '$':
			at := s.pos
			if at+1 < len(s.src) && (s.src[at+1] == '"' || s.src[at+1] == '\'') {
				s.pos++ // a plain $: no $"..." or $'...' inside double quotes
				continue
			}
			subst := strings.HasPrefix(s.src[at:], "$(") && !strings.HasPrefix(s.src[at:], "$((")
			if subst {
				s.inertSpan(from, at)
			}
			if !s.dollar() {
				return false
			}
			if subst {
				from = s.pos // the text resumes after the substitution
			}
		case '`':
			if s.backquotes > 0 {
				return false // nested backquotes need escaping; not scanned
			}
			s.inertSpan(from, s.pos)
			s.pos++
			if !s.substitution('`') {
				return false
			}
			from = s.pos
		default:
			s.pos++
		}
	}
	return false
}

// dollar skips $name, ${...}, $((...)), $(...) (a substitution), $'...'
// and $"...".
func (s *shellScanner) dollar() bool {
	rest := s.src[s.pos:]
	switch {
	case strings.HasPrefix(rest, "$'"):
		// ANSI-C quoting: backslash escapes, \' included.
		for i := s.pos + 2; i < len(s.src); i++ {
			switch s.src[i] {
			case '\\':
				i++
			case '\'':
				s.inertSpan(s.pos, i+1)
				s.pos = i + 1
				return true
			}
		}
		return false
	case strings.HasPrefix(rest, "$\""):
		s.pos++
		return s.doubleQuoted(s.pos - 1)
	case strings.HasPrefix(rest, "$(("):
		return s.skipArith(s.pos + 3)
	case strings.HasPrefix(rest, "$("):
		s.pos += 2
		return s.substitution(')')
	case strings.HasPrefix(rest, "${"):
		depth := 0
		for s.pos < len(s.src) {
			switch s.src[s.pos] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					s.pos++
					return true
				}
			case '\\':
				s.pos++
			case '$':
				if strings.HasPrefix(s.src[s.pos:], "$'") {
					if !s.dollar() {
						return false
					}
					continue
				}
				if s.pos+1 < len(s.src) && strings.IndexByte("$?!#@*-", s.src[s.pos+1]) >= 0 {
					s.pos++ // $$ and the like: "$$''" is $$ and '', not $''
				}
			case '"':
				if !s.doubleQuoted(s.pos) {
					return false
				}
				continue
			case '\'':
				if i := strings.IndexByte(s.src[s.pos+1:], '\''); i >= 0 {
					s.inertSpan(s.pos, s.pos+i+2)
					s.pos += i + 1
				}
			}
			s.pos++
		}
		return false
	}
	s.pos++
	if s.pos < len(s.src) && strings.IndexByte("$?!#@*-", s.src[s.pos]) >= 0 {
		s.pos++ // a special parameter: "$$(" is $$ and a (, not $ and $(
	}
	return true
}

// substitution scans the command list of $(...), <(...), >(...) or `...`;
// its commands are recorded after the command that contains it.
func (s *shellScanner) substitution(close byte) bool {
	outer, outerSubs := s.cmds, s.subs
	s.cmds, s.subs = nil, nil
	if close == '`' {
		s.backquotes++
		defer func() { s.backquotes-- }()
	}
	ok := s.list(close)
	inner := s.cmds
	s.cmds, s.subs = outer, append(outerSubs, inner...)
	if !ok || s.pos >= len(s.src) {
		return false
	}
	s.pos++
	return true
}

// skipArith skips an arithmetic expression up to its closing "))".
func (s *shellScanner) skipArith(from int) bool {
	depth := 0
	for i := from; i < len(s.src); i++ {
		switch s.src[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				if i+1 < len(s.src) && s.src[i+1] == ')' {
					s.pos = i + 2
					return true
				}
				return false
			}
			depth--
		}
	}
	return false
}

// skipHeader skips a for/select header up to its ; or newline.
func (s *shellScanner) skipHeader() bool {
	for s.pos < len(s.src) {
		s.blanks(false)
		if s.pos >= len(s.src) {
			return false
		}
		if c := s.src[s.pos]; c == ';' || c == '\n' {
			s.pos++
			s.flushSubs()
			return true
		}
		if strings.HasPrefix(s.src[s.pos:], "((") {
			if !s.skipArith(s.pos + 2) {
				return false
			}
			continue
		}
		at := s.pos
		if w := s.bareWord(); w == "do" {
			s.pos = at
			s.flushSubs()
			return true
		} else if s.pos > at {
			continue
		}
		if !s.word() || s.pos == at {
			return false
		}
	}
	return false
}

// skipUntilWord skips words up to and including a closing word ("]]").
func (s *shellScanner) skipUntilWord(end string) bool {
	for {
		s.blanks(false)
		if s.pos >= len(s.src) {
			return false
		}
		start := s.pos
		if s.bareWord() == end {
			return true
		}
		s.pos = start
		if !s.word() {
			return false
		}
		if s.pos == start {
			s.pos++ // an operator character inside [[ ]], such as < or &&
		}
	}
}

// caseClause scans case WORD in (PATTERN) LIST ;; ... esac.
func (s *shellScanner) caseClause() bool {
	s.blanks(false)
	if !s.word() {
		return false
	}
	s.flushSubs()
	s.blanks(true)
	if s.bareWord() != "in" {
		return false
	}
	for {
		s.blanks(true)
		start := s.pos
		if s.bareWord() == "esac" {
			return s.redirectsAfterCompound()
		}
		s.pos = start
		// The pattern, up to its unquoted ')'.
		if s.pos < len(s.src) && s.src[s.pos] == '(' {
			s.pos++
		}
		for s.pos < len(s.src) && s.src[s.pos] != ')' {
			if c := s.src[s.pos]; c == '|' || c == ' ' || c == '\t' {
				s.pos++
				continue
			}
			at := s.pos
			if !s.word() || s.pos == at {
				return false
			}
		}
		if s.pos >= len(s.src) {
			return false
		}
		s.pos++
		// The commands, up to ;; ;& ;;& or esac.
		for {
			s.blanks(true)
			if s.pos >= len(s.src) {
				return false
			}
			rest := s.src[s.pos:]
			if strings.HasPrefix(rest, ";;") || strings.HasPrefix(rest, ";&") {
				s.pos += 2
				if strings.HasPrefix(s.src[s.pos:], "&") {
					s.pos++
				}
				break
			}
			start := s.pos
			if s.bareWord() == "esac" {
				s.pos = start
				break
			}
			s.pos = start
			if c := s.src[s.pos]; c == ';' || c == '&' || c == '|' {
				s.operator()
				continue
			}
			if !s.command(0) {
				return false
			}
		}
	}
}

// bareWord reads a plain word made of letters, digits, _ ! [ ] { ( and
// returns it, leaving pos after it; "" when the next byte starts no such
// word. Used only to recognise reserved words and '(' / '{'.
func (s *shellScanner) bareWord() string {
	start := s.pos
	if s.pos < len(s.src) && (s.src[s.pos] == '(' || s.src[s.pos] == '{') {
		s.pos++
		return s.src[start:s.pos]
	}
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '!' || c == '[' || c == ']' {
			s.pos++
			continue
		}
		break
	}
	if !s.wordEnds(s.pos) {
		s.pos = start
		return ""
	}
	return s.src[start:s.pos]
}

// wordEnds reports whether a word ending at i is complete: end of input,
// a blank, or an operator.
func (s *shellScanner) wordEnds(i int) bool {
	return i >= len(s.src) || strings.IndexByte(" \t\n;&|()<>", s.src[i]) >= 0
}
