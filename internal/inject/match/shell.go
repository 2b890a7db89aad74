package match

import (
	"slices"
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
// no item names (docs/design.md, Performance and quality bars). This scanner
// allocates only the result.
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
	// drops collects the offsets of the bytes quote removal takes out,
	// when unquoting is set (only for a line that has a quote or a
	// backslash).
	drops     []int
	unquoting bool
	// heredocs waiting for the next newline, in order.
	heredocs   []heredoc
	backquotes int  // depth of `...` substitutions: a backquote closes one
	redirected bool // the last word() was a redirection
	// joins are the offsets of the backslash-newlines the shell removes.
	joins []int
}

// joinContinuations returns line with the backslash-newlines the shell
// removes taken out: between and inside words, in double quotes and in
// ${...}, but not in single quotes, $'...', comments or here-document
// bodies (bash keeps those). Patterns then see "git push \<newline>--force"
// as the one command bash runs. A line that does not scan runs nowhere;
// all its continuations go, so a deny still sees the most it can.
func joinContinuations(line string) string {
	if !strings.Contains(line, "\\\n") {
		return line
	}
	s := &shellScanner{src: line}
	if !s.list(0) || s.pos < len(s.src) {
		return strings.ReplaceAll(line, "\\\n", "")
	}
	var b strings.Builder
	b.Grow(len(line))
	last := 0
	for _, at := range s.joins {
		b.WriteString(line[last:at])
		last = at + 2
	}
	b.WriteString(line[last:])
	return b.String()
}

// escape skips a backslash and the byte it escapes, noting a
// continuation (a backslash-newline) for joinContinuations. A scan that
// backs up and reads the same bytes again notes it once.
func (s *shellScanner) escape() {
	if s.pos+1 < len(s.src) && s.src[s.pos+1] == '\n' && (len(s.joins) == 0 || s.joins[len(s.joins)-1] < s.pos) {
		s.joins = append(s.joins, s.pos)
	}
	s.pos = min(s.pos+2, len(s.src)) // a trailing backslash is literal
}

// unquote returns line as the shell reads its words, after quote removal
// (the quotes that open and close strings and the backslashes that escape
// a byte taken out: "orders".db and orders\.db are orders.db), and drops,
// the offsets in line of the bytes taken out, ascending. The escapes of
// $'...' are kept as written. A line that does not scan is returned as it
// is, with no drops. TestUnquoteAgreesWithParser checks it against
// mvdan.cc/sh's own quote removal.
func unquote(line string) (string, []int) {
	s := &shellScanner{src: line, unquoting: true}
	if !s.list(0) || s.pos < len(s.src) || len(s.drops) == 0 {
		return line, nil
	}
	slices.Sort(s.drops)
	drops := slices.Compact(s.drops) // a scan that backs up notes a byte twice
	return unquoted(line, 0, drops), drops
}

// unquoted is text, which starts at off in the line drops were taken of,
// without the bytes drops names.
func unquoted(text string, off int, drops []int) string {
	i, _ := slices.BinarySearch(drops, off)
	drops = drops[i:]
	if len(drops) == 0 || drops[0] >= off+len(text) {
		return text
	}
	b := make([]byte, 0, len(text))
	last := 0
	for _, d := range drops {
		if d -= off; d >= len(text) {
			break
		}
		b = append(b, text[last:d]...)
		last = d + 1
	}
	return string(append(b, text[last:]...))
}

// lineOffset returns where the byte at k of unquoted(text, off, drops)
// lies in the line: k past off, and one further for each byte taken out
// before it.
func lineOffset(off, k int, drops []int) int {
	i, _ := slices.BinarySearch(drops, off)
	at := off + k
	for _, d := range drops[i:] {
		if d > at {
			break
		}
		at++
	}
	return at
}

// drop notes that quote removal takes the byte at i out.
func (s *shellScanner) drop(i int) {
	if s.unquoting {
		s.drops = append(s.drops, i)
	}
}

// dropEscape notes the backslash at pos, which escapes the byte after it,
// and that byte too when it is a newline (a continuation). A trailing
// backslash is literal.
func (s *shellScanner) dropEscape() {
	if s.pos+1 < len(s.src) {
		s.drop(s.pos)
		if s.src[s.pos+1] == '\n' {
			s.drop(s.pos + 1)
		}
	}
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
		if c == close && close != '}' || s.closer(c) {
			return c == close // a closer that is not ours is an error
		}
		if isOperator(c) {
			s.operator()
			continue
		}
		// A command that reads nothing would be met again forever.
		if at := s.pos; !s.command(close) || s.pos == at {
			return false
		}
	}
}

// closer reports whether c at pos closes a construct: ')', '`' inside
// backquotes, or a '}' that is a word of its own.
func (s *shellScanner) closer(c byte) bool {
	return c == ')' || c == '`' && s.backquotes > 0 || c == '}' && s.wordEnds(s.pos+1)
}

// isOperator reports whether c starts a control operator.
func isOperator(c byte) bool { return c == ';' || c == '&' || c == '|' }

// blanks skips spaces and tabs, comments, and (when newlines) newlines,
// reading any pending here-document bodies at each newline.
func (s *shellScanner) blanks(newlines bool) {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t':
			s.pos++
		case c == '\\' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '\n':
			s.dropEscape()
			s.escape()
		case c == '#':
			s.comment()
		case c == '\n' && newlines:
			s.pos++
			s.readHeredocs()
		default:
			return
		}
	}
}

// comment skips a comment up to its newline.
func (s *shellScanner) comment() {
	start := s.pos
	for s.pos < len(s.src) && s.src[s.pos] != '\n' {
		s.pos++
	}
	s.inertSpan(start, s.pos)
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
		return s.subshell()
	}
	start := s.pos
	switch w := s.bareWord(); {
	case w == "{" && s.wordEnds(s.pos):
		return s.compound('}')
	case w == "[[":
		return s.skipUntilWord("]]")
	case w == "for" || w == "select":
		return s.skipHeader()
	case w == "case":
		return s.caseClause()
	case w == "let":
		return s.skipLet()
	case w == "function":
		s.functionHead()
		return true
	case w == "done" || w == "fi":
		return s.redirectsAfterCompound()
	case reserved(w):
		return true
	}
	s.pos = start
	return s.simple()
}

// subshell scans ( list ) or skips (( arithmetic )), from the '('.
func (s *shellScanner) subshell() bool {
	if strings.HasPrefix(s.src[s.pos:], "((") {
		return s.skipArith(s.pos + 2)
	}
	s.pos++
	return s.compound(')')
}

// compound scans the list of a subshell or block after its opening token,
// its closer and the redirections after it.
func (s *shellScanner) compound(close byte) bool {
	if !s.list(close) {
		return false
	}
	s.pos++
	return s.redirectsAfterCompound()
}

// functionHead skips the name and () after "function"; the body is the
// next command.
func (s *shellScanner) functionHead() {
	s.blanks(false)
	s.bareWord() // the name
	s.blanks(false)
	if strings.HasPrefix(s.src[s.pos:], "()") {
		s.pos += 2
	}
}

// simple scans words, assignments and redirections up to an operator,
// recording the command text, then the commands of its substitutions.
func (s *shellScanner) simple() bool {
	start, end := s.pos, s.pos
	words := false // a redirection alone is not a command
	named := false // the command's name (its first word but assignments) was read
	var runs scriptRunner
	outer := s.subs
	s.subs = nil
	defer func() { s.subs = outer }()
	for n := 0; ; n++ {
		s.blanks(false)
		if n == 1 && words && s.functionDefinition() {
			return true
		}
		if s.simpleEnds() {
			break
		}
		at, spans := s.pos, len(s.inert)
		if !s.wordAdvances() {
			return false
		}
		if s.spans && !s.redirected {
			w := s.src[at:s.pos]
			switch {
			case !named && !assignment(w):
				// The command's name is run, quoted or not: "$VENV/bin/pytest".
				s.inert, named = s.inert[:spans], true
			case runs.script():
				s.script(at, spans)
			}
			runs = runs.next(w)
		}
		words = words || !s.redirected
		end = s.pos
	}
	if end > start && words {
		s.record(start, end)
	}
	s.cmds = append(s.cmds, s.subs...)
	return true
}

// scriptRunner is what the words of a simple command read so far say of
// the next one: whether it is a script another shell runs (bash -c
// '...', sudo sh -c '...', eval "..."), code rather than a quoted string.
type scriptRunner uint8

const (
	runsNothing scriptRunner = iota
	runsShell                // a shell was named: its -c flag makes the next word the script
	runsScript               // the next word is a script
	runsEval                 // every word is a script
)

func (r scriptRunner) script() bool { return r == runsScript || r == runsEval }

// next is what r says of the word after w.
func (r scriptRunner) next(w string) scriptRunner {
	switch {
	case r == runsEval:
		return r
	case r == runsShell && len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w, 'c') > 0 &&
		strings.Trim(w[1:], "abcdefghijklmnopqrstuvwxyz") == "":
		return runsScript // -c, -lc, -ec, -euxc
	case r == runsShell || r == runsScript:
		return runsShell // an option of the shell, or $0 and the args after the script
	}
	name := strings.Trim(w, `"'`)
	name = name[strings.LastIndexByte(name, '/')+1:]
	switch name {
	case "eval":
		return runsEval
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "su":
		return runsShell // su -c runs its command with the user's shell
	}
	return runsNothing
}

// script makes the word at at, a script another shell runs, code: its
// spans are those of the script inside it, scanned as a command line of
// its own. A word that is not one quoted string as the shell gets it
// (quotedScript), or a script that does not scan, stays a quoted string.
func (s *shellScanner) script(at, spans int) {
	if !quotedScript(s.src[at:s.pos]) {
		return
	}
	inner := &shellScanner{src: s.src[:s.pos-1], pos: at + 1, spans: true}
	if !inner.list(0) || inner.pos != len(inner.src) {
		return
	}
	s.inert = append(s.inert[:spans], inner.inert...)
}

// quotedScript reports whether the word w hands another shell its script
// byte for byte: one single-quoted string, or one double-quoted string
// without a backslash or backquote.
func quotedScript(w string) bool {
	return len(w) >= 2 && w[0] == w[len(w)-1] && strings.IndexByte(w[1:len(w)-1], w[0]) < 0 &&
		(w[0] == '\'' || w[0] == '"' && !strings.ContainsAny(w, "\\`"))
}

// assignment reports whether a word of a simple command is a variable
// assignment (NAME=value, NAME+=value, NAME[i]=value), not its name.
func assignment(w string) bool {
	i := 0
	for i < len(w) && (w[i] == '_' || w[i] >= 'a' && w[i] <= 'z' || w[i] >= 'A' && w[i] <= 'Z' || i > 0 && w[i] >= '0' && w[i] <= '9') {
		i++
	}
	if i > 0 && i < len(w) && w[i] == '[' {
		if j := strings.IndexByte(w[i:], ']'); j > 0 {
			i += j + 1
		}
	}
	if i > 0 && i < len(w) && w[i] == '+' {
		i++
	}
	return i > 0 && i < len(w) && w[i] == '='
}

// functionDefinition skips the () of name() { body }, a function
// definition, not a command, and reports whether it was there.
func (s *shellScanner) functionDefinition() bool {
	if !strings.HasPrefix(s.src[s.pos:], "()") {
		return false
	}
	s.pos += 2
	s.subs = nil
	return true
}

// simpleEnds reports whether a simple command ends at pos: end of input,
// a newline, an operator or a closer.
func (s *shellScanner) simpleEnds() bool {
	if s.pos >= len(s.src) {
		return true
	}
	c := s.src[s.pos]
	return c == '\n' || c == ';' || c == '|' || c == ')' || c == '`' && s.backquotes > 0 ||
		c == '&' && !strings.HasPrefix(s.src[s.pos:], "&>")
}

// record adds the simple command src[start:end], and makes it the command
// of the here-documents it opened.
func (s *shellScanner) record(start, end int) {
	for i := range s.heredocs {
		if s.heredocs[i].cmd < 0 {
			s.heredocs[i].cmd, s.heredocs[i].start = len(s.cmds), start
		}
	}
	s.cmds = append(s.cmds, s.src[start:end])
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
		if !s.wordAdvances() {
			return false
		}
	}
}

// wordAdvances scans a word and reports whether it read one: false on a
// scan error or when the next byte starts no word.
func (s *shellScanner) wordAdvances() bool {
	at := s.pos
	return s.word() && s.pos != at
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

// part is how scanning a piece of a word went.
type part int

const (
	partMore part = iota // the word goes on
	partEnd              // the word ended before pos
	partBad              // a scan error
)

func partOf(ok bool) part {
	if ok {
		return partMore
	}
	return partBad
}

// special marks the bytes that end a word or start a part of it other
// than a plain byte. An array literal: static data, no init-time cost.
var special = [256]bool{' ': true, '\t': true, '\n': true, ';': true, '|': true, ')': true, '`': true, '(': true,
	'&': true, '<': true, '>': true, '\\': true, '\'': true, '"': true, '$': true}

// wordText scans the text of a word, after any redirection operator.
func (s *shellScanner) wordText() bool {
	for s.pos < len(s.src) {
		if !special[s.src[s.pos]] {
			s.pos++ // most bytes: no call
			continue
		}
		switch s.wordPart() {
		case partEnd:
			return true
		case partBad:
			return false
		}
	}
	return s.pos <= len(s.src)
}

// wordPart scans one piece of a word: a quoted string, an escape, a
// substitution, an array or one plain byte.
func (s *shellScanner) wordPart() part {
	switch c := s.src[s.pos]; c {
	case ' ', '\t', '\n', ';', '|', ')':
		return partEnd
	case '`':
		return s.backquotePart()
	case '(':
		return s.arrayPart()
	case '&', '<', '>':
		return s.processPart()
	case '\\':
		s.dropEscape()
		s.escape()
	case '\'':
		return partOf(s.singleQuoted())
	case '"':
		return partOf(s.doubleQuoted(s.pos))
	case '$':
		return partOf(s.dollar())
	default:
		s.pos++
	}
	return partMore
}

// backquotePart scans `...`, or ends the word at the backquote that
// closes the one it is in.
func (s *shellScanner) backquotePart() part {
	if s.backquotes > 0 {
		return partEnd
	}
	s.pos++
	return partOf(s.substitution('`'))
}

// arrayPart scans an array assignment's (a b c) after its '='; any other
// '(' is an operator: "name()" or a syntax error.
func (s *shellScanner) arrayPart() part {
	if s.pos == 0 || s.src[s.pos-1] != '=' {
		return partEnd
	}
	s.pos++
	for s.pos < len(s.src) && s.src[s.pos] != ')' {
		if c := s.src[s.pos]; c == ' ' || c == '\t' || c == '\n' {
			s.pos++
			continue
		}
		if !s.wordAdvances() {
			return partBad // "a=((": no word, no progress
		}
	}
	if s.pos >= len(s.src) {
		return partBad
	}
	s.pos++
	return partMore
}

// processPart scans a process substitution <(...) or >(...); any other
// & < > ends the word (a redirection or an operator follows).
func (s *shellScanner) processPart() part {
	if s.src[s.pos] == '&' || s.pos+1 >= len(s.src) || s.src[s.pos+1] != '(' {
		return partEnd
	}
	s.pos += 2
	return partOf(s.substitution(')'))
}

// singleQuoted scans '...' from its opening quote; false when unterminated.
func (s *shellScanner) singleQuoted() bool {
	i := strings.IndexByte(s.src[s.pos+1:], '\'')
	if i < 0 {
		return false
	}
	s.inertSpan(s.pos, s.pos+i+2)
	s.drop(s.pos)
	s.drop(s.pos + i + 1)
	s.pos += i + 2
	return true
}

// redirection skips a redirection operator (with an fd number or {var}
// before it) and reports whether there was one. A here-document operator
// queues its body for the next newline.
func (s *shellScanner) redirection() bool {
	i := s.redirectionAt()
	if i < 0 {
		return false
	}
	op := s.src[i:]
	if strings.HasPrefix(op, "<<") && !strings.HasPrefix(op, "<<<") {
		return s.heredocOperator(i)
	}
	s.pos = i + redirectionLen(op)
	return true
}

// redirectionAt returns where the < or > of a redirection at pos is,
// after its fd number or the & of &>; -1 when there is none (a process
// substitution is not one).
func (s *shellScanner) redirectionAt() int {
	i := s.digitsEnd()
	if i == s.pos && strings.HasPrefix(s.src[i:], "&>") {
		i++
	}
	if i >= len(s.src) || s.src[i] != '<' && s.src[i] != '>' || i+1 < len(s.src) && s.src[i+1] == '(' {
		return -1
	}
	return i
}

// digitsEnd returns where the digits at pos end.
func (s *shellScanner) digitsEnd() int {
	i := s.pos
	for i < len(s.src) && s.src[i] >= '0' && s.src[i] <= '9' {
		i++
	}
	return i
}

// redirectionLen is the length of the operator op starts with (not a
// here-document's).
func redirectionLen(op string) int {
	if strings.HasPrefix(op, "<<<") {
		return 3
	}
	for _, two := range [...]string{">>", "<>", ">&", "<&", ">|"} {
		if strings.HasPrefix(op, two) {
			return 2
		}
	}
	return 1
}

// heredocOperator skips << or <<- at i and queues the here-document; pos
// is left at its delimiter word.
func (s *shellScanner) heredocOperator(i int) bool {
	strip := strings.HasPrefix(s.src[i:], "<<-")
	s.pos = i + 2
	if strip {
		s.pos++
	}
	s.blanks(false)
	d := s.pos
	if !s.wordText() { // in "<<0<x" the delimiter is 0, not a redirection 0<x
		return false
	}
	delim := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(s.src[d:s.pos])
	s.heredocs = append(s.heredocs, heredoc{delim: delim, strip: strip, cmd: -1})
	s.pos = d // word() is called again by the caller for the delimiter
	return true
}

// readHeredocs skips the bodies of queued here-documents, line by line.
func (s *shellScanner) readHeredocs() {
	for _, h := range s.heredocs {
		s.heredocBody(h)
	}
	s.heredocs = nil
}

// heredocBody skips the body of h up to its delimiter line, which ends
// the text of the command that opened it.
func (s *shellScanner) heredocBody(h heredoc) {
	body := s.pos
	for s.pos < len(s.src) {
		at := s.pos
		line, end := s.line()
		if h.strip {
			line = strings.TrimLeft(line, "\t")
		}
		if line != h.delim {
			continue
		}
		if h.cmd >= 0 && h.cmd < len(s.cmds) {
			s.cmds[h.cmd] = s.src[h.start:end]
		}
		// As in the parser, an empty body has no span, unless <<- stripped
		// tabs before the delimiter.
		if at > body || end-at > len(line) {
			s.inertSpan(body, end)
		}
		return
	}
	s.inertSpan(body, s.pos) // unterminated: the rest is its body
}

// line reads the line at pos, leaving pos after its newline, and returns
// it without the newline and where it ends.
func (s *shellScanner) line() (line string, end int) {
	line = s.src[s.pos:]
	nl := strings.IndexByte(line, '\n')
	if nl >= 0 {
		line = line[:nl]
	}
	s.pos += len(line)
	end = s.pos
	if nl >= 0 {
		s.pos++
	}
	return line, end
}

// doubleQuoted scans "..." from its opening quote; from is where the
// string starts ($"..." starts at the $). Its text is inert but for the
// command substitutions in it.
func (s *shellScanner) doubleQuoted(from int) bool {
	if from < s.pos {
		s.drop(from) // the $ of $"..."
	}
	s.drop(s.pos)
	s.pos++
	for s.pos < len(s.src) {
		ok := true
		switch s.src[s.pos] {
		case '"':
			s.drop(s.pos)
			s.pos++
			s.inertSpan(from, s.pos)
			return true
		case '\\':
			if s.pos+1 < len(s.src) && strings.IndexByte("$`\"\\\n", s.src[s.pos+1]) >= 0 {
				s.dropEscape() // in double quotes a backslash escapes only these
			}
			s.escape()
		case '$':
			from, ok = s.quotedDollar(from)
		case '`':
			from, ok = s.quotedBackquote(from)
		default:
			s.pos++
		}
		if !ok {
			return false
		}
	}
	return false
}

// quotedDollar scans a $ inside double quotes, where the quoted text runs
// from from; it returns where the text resumes.
func (s *shellScanner) quotedDollar(from int) (int, bool) {
	at := s.pos
	if at+1 < len(s.src) && (s.src[at+1] == '"' || s.src[at+1] == '\'') {
		s.pos++ // a plain $: no $"..." or $'...' inside double quotes
		return from, true
	}
	subst := strings.HasPrefix(s.src[at:], "$(") && !strings.HasPrefix(s.src[at:], "$((")
	if subst {
		s.inertSpan(from, at)
	}
	if !s.dollar() {
		return from, false
	}
	if subst {
		from = s.pos // the text resumes after the substitution
	}
	return from, true
}

// quotedBackquote scans `...` inside double quotes, like quotedDollar.
func (s *shellScanner) quotedBackquote(from int) (int, bool) {
	if s.backquotes > 0 {
		return from, false // nested backquotes need escaping; not scanned
	}
	s.inertSpan(from, s.pos)
	s.pos++
	if !s.substitution('`') {
		return from, false
	}
	return s.pos, true
}

// dollar skips $name, ${...}, $((...)), $(...) (a substitution), $'...'
// and $"...".
func (s *shellScanner) dollar() bool {
	next := byte(0)
	if s.pos+1 < len(s.src) {
		next = s.src[s.pos+1]
	}
	switch next {
	case '\'':
		return s.ansiQuoted()
	case '"':
		s.pos++
		return s.doubleQuoted(s.pos - 1)
	case '(':
		if strings.HasPrefix(s.src[s.pos:], "$((") {
			return s.skipArith(s.pos + 3)
		}
		s.pos += 2
		return s.substitution(')')
	case '{':
		return s.paramExpansion()
	}
	s.pos++
	if s.pos < len(s.src) && specialParam(s.src[s.pos]) {
		s.pos++ // a special parameter: "$$(" is $$ and a (, not $ and $(
	}
	return true
}

// specialParam reports the names of the one-character special parameters
// other than digits.
func specialParam(c byte) bool { return strings.IndexByte("$?!#@*-", c) >= 0 }

// ansiQuoted scans $'...' (ANSI-C quoting: backslash escapes, \' included).
func (s *shellScanner) ansiQuoted() bool {
	for i := s.pos + 2; i < len(s.src); i++ {
		switch s.src[i] {
		case '\\':
			i++
		case '\'':
			s.inertSpan(s.pos, i+1)
			s.drop(s.pos)
			s.drop(s.pos + 1)
			s.drop(i)
			s.pos = i + 1
			return true
		}
	}
	return false
}

// paramExpansion scans ${...} up to its matching brace.
func (s *shellScanner) paramExpansion() bool {
	depth := 0
	for s.pos < len(s.src) {
		ok := true
		switch s.src[s.pos] {
		case '{':
			depth++
			s.pos++
		case '}':
			depth--
			s.pos++
			if depth == 0 {
				return true
			}
		case '\\':
			s.dropEscape()
			s.escape()
		case '$':
			ok = s.innerDollar()
		case '"':
			ok = s.doubleQuoted(s.pos)
		case '\'':
			if !s.singleQuoted() {
				s.pos++ // unterminated: a plain quote
			}
		default:
			s.pos++
		}
		if !ok {
			return false
		}
	}
	return false
}

// innerDollar skips a $ inside ${...}: $'...' is quoted, and $$ and the
// like are one parameter.
func (s *shellScanner) innerDollar() bool {
	if strings.HasPrefix(s.src[s.pos:], "$'") {
		return s.dollar()
	}
	if s.pos+1 < len(s.src) && specialParam(s.src[s.pos+1]) {
		s.pos++ // "$$''" is $$ and '', not $''
	}
	s.pos++
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
			if depth > 0 {
				depth--
				continue
			}
			if !strings.HasPrefix(s.src[i:], "))") {
				return false
			}
			s.pos = i + 2
			return true
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
		if done, ok := s.headerWord(); done || !ok {
			return ok
		}
	}
	return false
}

// headerWord scans one word or arithmetic of a for/select header; done
// when it is the "do" that ends the header (left unread).
func (s *shellScanner) headerWord() (done, ok bool) {
	if strings.HasPrefix(s.src[s.pos:], "((") {
		return false, s.skipArith(s.pos + 2)
	}
	at := s.pos
	if w := s.bareWord(); w == "do" {
		s.pos = at
		s.flushSubs()
		return true, true
	} else if s.pos > at {
		return false, true
	}
	return false, s.wordAdvances()
}

// skipUntilWord skips words up to and including a closing word ("]]").
func (s *shellScanner) skipUntilWord(end string) bool {
	for {
		s.blanks(false)
		if s.pos >= len(s.src) {
			return false
		}
		if s.isWord(end) {
			return true
		}
		start := s.pos
		if !s.word() {
			return false
		}
		if s.pos == start {
			s.pos++ // an operator character inside [[ ]], such as < or &&
		}
	}
}

// isWord reads the bare word w at pos, or reads nothing and reports false.
func (s *shellScanner) isWord(w string) bool {
	start := s.pos
	if s.bareWord() == w {
		return true
	}
	s.pos = start
	return false
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
		if s.isWord("esac") {
			return s.redirectsAfterCompound()
		}
		if !s.casePattern() || !s.caseBody() {
			return false
		}
	}
}

// casePattern scans a case item's pattern up to and including its
// unquoted ')'.
func (s *shellScanner) casePattern() bool {
	if s.pos < len(s.src) && s.src[s.pos] == '(' {
		s.pos++
	}
	for s.pos < len(s.src) && s.src[s.pos] != ')' {
		if c := s.src[s.pos]; c == '|' || c == ' ' || c == '\t' {
			s.pos++
			continue
		}
		if !s.wordAdvances() {
			return false
		}
	}
	if s.pos >= len(s.src) {
		return false
	}
	s.pos++
	return true
}

// caseBody scans a case item's commands up to and including ;; ;& or ;;&,
// or up to esac.
func (s *shellScanner) caseBody() bool {
	for {
		s.blanks(true)
		if s.pos >= len(s.src) {
			return false
		}
		if s.caseItemEnd() {
			return true
		}
		if at := s.pos; s.isWord("esac") {
			s.pos = at
			return true
		}
		if isOperator(s.src[s.pos]) {
			s.operator()
			continue
		}
		// A command that reads nothing (a stray ')') would loop forever.
		if at := s.pos; !s.command(0) || s.pos == at {
			return false
		}
	}
}

// caseItemEnd skips the ;; ;& or ;;& that ends a case item.
func (s *shellScanner) caseItemEnd() bool {
	rest := s.src[s.pos:]
	if !strings.HasPrefix(rest, ";;") && !strings.HasPrefix(rest, ";&") {
		return false
	}
	s.pos += 2
	if strings.HasPrefix(s.src[s.pos:], "&") {
		s.pos++
	}
	return true
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
	for s.pos < len(s.src) && bareByte(s.src[s.pos]) {
		s.pos++
	}
	if !s.wordEnds(s.pos) {
		s.pos = start
		return ""
	}
	return s.src[start:s.pos]
}

// bareByte reports the bytes of a bare word.
func bareByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '!' || c == '[' || c == ']'
}

// wordEnds reports whether a word ending at i is complete: end of input,
// a blank, or an operator.
func (s *shellScanner) wordEnds(i int) bool {
	return i >= len(s.src) || strings.IndexByte(" \t\n;&|()<>", s.src[i]) >= 0
}
