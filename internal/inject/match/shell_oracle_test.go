package match

import (
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// The scanner is checked against mvdan.cc/sh on a corpus and on generated
// Bash. A fuzz run against the parser (printable ASCII, lines where it finds
// commands) found the regressions at the end of shellCorpus; what it still
// reports are the parser's own position quirks on degenerate input, such as
// "A+=" ending at the "+".

// oracleSimpleCommands is SimpleCommands computed by the real Bash parser,
// mvdan.cc/sh: the simple commands (and declarations) in walk order, each
// from its first word or redirection to its last. nil when it rejects the line.
func oracleSimpleCommands(line string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil
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
		return true
	})
	if len(out) == 0 {
		return []string{line}
	}
	return out
}

// shellCorpus are command lines agents really run.
var shellCorpus = []string{
	"pytest -x tests/",
	"cd app && pytest -x",
	"source .venv/bin/activate && python -m pytest --no-header -q",
	"FOO=1 make test >out.log 2>&1 | tee build.log",
	"(cd a; pytest) || echo $(git push -f)",
	"git add -A && git commit -m \"fix: handle && in messages\" && git push origin HEAD --force-with-lease",
	"npm install && npm run build; echo done",
	"for f in $(ls *.py); do python $f; done",
	"while read -r line; do echo \"$line\"; done < <(git log --oneline)",
	"if [ -f go.mod ]; then go test ./...; else echo none; fi",
	"case $1 in start) ./run.sh;; stop|halt) kill $(cat pid);; esac",
	"export PATH=$HOME/bin:$PATH; which lore",
	"echo 'single && quoted' \"double $(date +%s) nested\" `uname -a`",
	"docker build -t app . && docker run --rm -it app bash -c 'pytest'",
	"cat <<EOF > notes.txt\nrm -rf /\nEOF\nls",
	"time go build ./... 2>&1 | grep -v warning",
	"! grep -q TODO main.go && echo clean",
	"[[ -n $CI && $X == y ]] && make release",
	"let i=i+1; echo $((i * 2))",
	"f() { echo in f; }; f",
	"{ pytest; ruff check .; } &> log.txt &",
	"python - <<'PY'\nimport os\nprint(os.getcwd())\nPY",
	"diff <(sort a) >(wc -l) || true",
	"git log --format='%h %s' | head -n 5 |& cat",
	"rm -rf node_modules dist .cache && pnpm i --frozen-lockfile",
	"kubectl apply -f k8s/ --dry-run=client -o yaml | kubectl diff -f -",
	"A=1 B=2 env | sort",
	"echo ${HOME:-/root} ${#PATH} ${x//a/b}",
	"until curl -sf localhost:8080/health; do sleep 1; done",
	"select x in a b; do echo $x; break; done",
	"for ((i=0; i<3; i++)); do echo $i; done",
	"declare -a arr=(1 2 3); local y=2",
	"echo a # a comment with && and ; inside\necho b",
	"x=$(cd sub && pwd) y=`git rev-parse HEAD` ./deploy.sh",
	// Differences a fuzz run against the parser found, now regressions.
	">0&0", "0&\\", "A= A&``000", "\\  ", "let A&0%0;#000", "while read l; do x; done < <(ls) > out",
}

func TestSimpleCommandsAgreeWithParser(t *testing.T) {
	for _, line := range shellCorpus {
		want := oracleSimpleCommands(line)
		if want == nil {
			t.Fatalf("the oracle rejects corpus line %q", line)
		}
		if got := SimpleCommands(line); !reflect.DeepEqual(got, want) {
			t.Errorf("SimpleCommands(%q)\n got  %q\n want %q", line, got, want)
		}
	}
}

// genShell builds a random, syntactically valid Bash command line.
func genShell(r *rand.Rand, depth int) string {
	words := []string{"pytest", "-x", "git", "push", "--force", "a.txt", "'q && r'", `"d $x"`, "$HOME", "${y:-z}", "X=1", "2>&1", ">out", "<in", "-n"}
	simple := func() string {
		n := 1 + r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[r.Intn(len(words))]
		}
		if strings.Contains(parts[0], ">") || strings.Contains(parts[0], "<") || strings.HasPrefix(parts[0], "2") {
			parts[0] = "echo"
		}
		if depth > 0 && r.Intn(4) == 0 {
			parts = append(parts, "$("+genShell(r, depth-1)+")")
		}
		return strings.Join(parts, " ")
	}
	ops := []string{" && ", " || ", " | ", "; ", " |& ", "\n"}
	var b strings.Builder
	for i, n := 0, 1+r.Intn(3); i < n; i++ {
		if i > 0 {
			b.WriteString(ops[r.Intn(len(ops))])
		}
		switch k := r.Intn(8); {
		case depth > 0 && k == 0:
			fmt.Fprintf(&b, "(%s)", genShell(r, depth-1))
		case depth > 0 && k == 1:
			fmt.Fprintf(&b, "{ %s; }", genShell(r, depth-1))
		case depth > 0 && k == 2:
			fmt.Fprintf(&b, "if %s; then %s; fi", simple(), genShell(r, depth-1))
		case depth > 0 && k == 3:
			fmt.Fprintf(&b, "for v in a $(%s); do %s; done", simple(), simple())
		default:
			b.WriteString(simple())
		}
	}
	return b.String()
}

func TestSimpleCommandsAgreeOnGenerated(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		line := genShell(r, 2)
		want := oracleSimpleCommands(line)
		if want == nil {
			continue // the generator made something Bash rejects; not a disagreement
		}
		if got := SimpleCommands(line); !reflect.DeepEqual(got, want) {
			t.Fatalf("SimpleCommands(%q)\n got  %q\n want %q", line, got, want)
		}
	}
}

// oracleInert marks the bytes of line that mvdan.cc/sh parses as quoted
// strings (less the command substitutions directly inside double quotes
// and the name of each simple command, which is run however quoted),
// comments and here-document bodies (all of a body, as inertSpans reads
// it). ok is false when the parser rejects the line.
func oracleInert(line string) (mask []bool, ok bool) {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, false
	}
	mask, ok = make([]bool, len(line)), true
	set := func(from, to syntax.Pos, v bool) {
		for i := int(from.Offset()); i < int(to.Offset()) && i < len(line); i++ {
			mask[i] = v
		}
	}
	var hdocs, names, scripts [][2]syntax.Pos
	// Walk is pre-order: a double-quoted string is marked, and its
	// substitutions cleared, before the strings inside them are marked.
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Comment:
			if at := int(x.Pos().Offset()); at > 0 && !strings.ContainsRune(" \t\n;&|()`", rune(line[at-1])) {
				// Inside $(...) the parser takes "''#x" for a comment;
				// bash (and the scanner) read one word "#x".
				ok = false
			}
			if strings.Contains(line[x.Pos().Offset():min(int(x.End().Offset()), len(line))], "\n") {
				ok = false // "#\" then a newline: the parser continues the comment, bash does not
			}
			set(n.Pos(), n.End(), true)
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				names = append(names, [2]syntax.Pos{x.Args[0].Pos(), x.Args[0].End()})
			}
			// A script another shell runs (bash -c '...', eval "...") is
			// parsed as a line of its own: the parser takes it for a
			// string. Which words are scripts is the scanner's rule
			// (scriptRunner); what is code in them is the parser's.
			var runs scriptRunner
			for i, a := range x.Args {
				w := line[a.Pos().Offset():min(int(a.End().Offset()), len(line))]
				if i > 0 && runs.script() {
					scripts = append(scripts, [2]syntax.Pos{a.Pos(), a.End()})
				}
				runs = runs.next(w)
			}
		case *syntax.SglQuoted:
			set(n.Pos(), n.End(), true)
		case *syntax.ExtGlob:
			ok = false // !(...) and friends: the parser keeps quotes in them as pattern text
		case *syntax.ArithmCmd, *syntax.ArithmExp:
			if strings.ContainsAny(line[n.Pos().Offset():min(int(n.End().Offset()), len(line))], `'"`) {
				ok = false // the scanner skips (( )) and $(( )) whole: quotes there are not spans
			}
		case *syntax.DblQuoted:
			set(x.Pos(), x.End(), true)
			for _, p := range x.Parts {
				if cs, ok := p.(*syntax.CmdSubst); ok {
					set(cs.Pos(), cs.End(), false)
				}
			}
		case *syntax.Redirect:
			if x.Hdoc == nil {
				break
			}
			if !strings.Contains(line[x.Word.End().Offset():min(int(x.Hdoc.Pos().Offset()), len(line))], "\n") ||
				!closedHeredoc(line[:min(int(x.Hdoc.End().Offset()), len(line))], line[x.Word.Pos().Offset():x.Word.End().Offset()]) {
				ok = false // no line after it, or no closing line: the parser's positions are off
			}
			hdocs = append(hdocs, [2]syntax.Pos{x.Hdoc.Pos(), x.Hdoc.End()})
		}
		return true
	})
	for _, w := range names {
		set(w[0], w[1], false)
	}
	for _, w := range scripts {
		from, to := int(w[0].Offset()), min(int(w[1].Offset()), len(line))
		text := line[from:to]
		if !quotedScript(text) {
			continue // not one quoted string the scanner reads as a script
		}
		inner, iok := oracleInert(text[1 : len(text)-1])
		if !iok {
			continue // a script that does not parse stays a string
		}
		for i, v := range inner {
			mask[from+1+i] = v
		}
		mask[from], mask[to-1] = false, false
	}
	for _, h := range hdocs {
		set(h[0], h[1], true)
	}
	return mask, ok
}

// closedHeredoc reports whether text, up to where the parser ends a
// here-document, ends with its delimiter on a line of its own (after tabs).
func closedHeredoc(text, word string) bool {
	delim := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(word)
	if !strings.HasSuffix(text, delim) {
		return false
	}
	before := strings.TrimRight(text[:len(text)-len(delim)], "\t")
	return strings.HasSuffix(before, "\n")
}

// scannerInert is inertSpans as a mask.
func scannerInert(line string) (mask []bool, ok bool) {
	spans, ok := inertSpans(line)
	mask = make([]bool, len(line))
	for _, sp := range spans {
		for i := sp.start; i < sp.end; i++ {
			mask[i] = true
		}
	}
	return mask, ok
}

// maskString draws a mask under its line: ^ under inert bytes.
func maskString(line string, mask []bool) string {
	b := []byte(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, line))
	m := make([]byte, len(mask))
	for i, v := range mask {
		m[i] = ' '
		if v {
			m[i] = '^'
		}
	}
	return string(b) + "\n" + string(m)
}

// inertCorpus: lines that mention commands only as data, and the shapes
// that make quoting hard.
var inertCorpus = []string{
	`git commit -m "fix pytest flakiness in CI"`,
	`echo "a $(pytest "x") b" 'q' # c`,
	"echo \"run `pytest -x` now\" and 'pytest'",
	"cat <<EOF > notes.txt\npytest -x\nEOF\nls",
	"git commit -F- <<'EOF'\nSpeed up pytest\n\nRuns pytest -n auto.\nEOF",
	"cat <<-\"E\"\n\tpytest\n\tE\necho done",
	`echo $'it\'s pytest' $"pytest"`,
	`echo ${x:-'pytest'} "${y:-pytest}"`,
	"ls # pytest later\n# pytest -x\nls",
	"gh pr create --title \"Speed up pytest\" --body \"$(cat <<'EOF'\npytest -n auto\nEOF\n)\"",
	`python -c "import pytest; print(pytest.__version__)"`,
	`echo "$((1+2)) $HOME \"pytest\" \$(not)"`,
	"cat <<A <<B\na\nA\nb\nB",
	"cat <<EOF\nEOF\necho x",
}

func TestInertSpansAgreeWithParser(t *testing.T) {
	lines := append(append([]string{}, inertCorpus...), shellCorpus...)
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 2000; i++ {
		lines = append(lines, genQuoted(r))
	}
	compared := 0
	for i, line := range lines {
		want, ok := oracleInert(line)
		if !ok && i < len(inertCorpus) {
			t.Errorf("the oracle does not read corpus line %q", line)
		}
		if !ok {
			continue
		}
		got, ok := scannerInert(line)
		if !ok {
			t.Errorf("the scanner fails on %q, which the parser reads", line)
			continue
		}
		compared++
		if !reflect.DeepEqual(got, want) {
			t.Errorf("inert spans differ:\n got\n%s\n want\n%s", maskString(line, got), maskString(line, want))
		}
	}
	if compared < len(inertCorpus)+len(shellCorpus) {
		t.Fatalf("only %d lines compared", compared)
	}
}

// genQuoted is genShell with quoted strings, comments and here-documents.
func genQuoted(r *rand.Rand) string {
	parts := []string{
		genShell(r, 2),
		`echo "pytest $(git push --force) x"`,
		"echo \"a `pytest` b\"",
		`echo 'git push --force' "$HOME"`,
		`echo $'pytest\'s' $"x y"`,
		"cat <<'EOF'\npytest -x\nEOF",
		"cat <<EOF >out\n$HOME pytest\nEOF",
		"ls # pytest",
		`x="$(echo "pytest")"`,
	}
	var b strings.Builder
	for i, n := 0, 1+r.Intn(3); i < n; i++ {
		if i > 0 {
			b.WriteString([]string{" && ", "; ", "\n", " | "}[r.Intn(4)])
		}
		b.WriteString(parts[r.Intn(len(parts))])
	}
	return b.String()
}

// FuzzInertSpansOracle: wherever the parser and the scanner both read a
// line of printable ASCII, they agree on which bytes are quoted, heredoc or
// comment text.
func FuzzInertSpansOracle(f *testing.F) {
	for _, s := range inertCorpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, c := range []byte(line) {
			if (c < ' ' || c > '~') && c != '\n' && c != '\t' {
				return // the parser's positions are its own around NUL and invalid UTF-8
			}
		}
		var got []bool
		var ok bool
		fuzzlimit.Run(t, func() { got, ok = scannerInert(line) })
		want, wok := oracleInert(line)
		if !ok || !wok {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("inert spans differ:\n got\n%s\n want\n%s", maskString(line, got), maskString(line, want))
		}
	})
}

// continuedCorpus are command lines continued with backslash-newline, in
// every place the shell removes one (between words, inside a word, inside
// double quotes and ${...}) or keeps it (single quotes, $'...', quoted
// here-document bodies). A comment ending in a backslash is left out: the
// parser continues it, bash does not.
var continuedCorpus = []string{
	"git push \\\n--force origin main",
	"git push\\\n --force",
	"git pu\\\nsh origin main --for\\\nce",
	"cd app && \\\n  pytest -x \\\n  tests/",
	"echo \"a \\\nb\" 'c \\\nd' $'e \\\nf' g",
	"echo ${HOME\\\n} $(git \\\npush --force) `ls \\\n-la`",
	"cat <<'EOF'\nkept \\\nhere\nEOF\ngit push \\\n-f",
	"x=1 \\\ny=2 \\\nmake \\\ntest | tee out",
	"if true; then \\\ngit push --force; fi",
	"echo ok\\\n",
}

// parseShape is what the parser makes of a line, without positions: the
// node types in walk order, and the text of each run of literals.
func parseShape(t *testing.T, line string) string {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		t.Fatalf("the parser rejects %q: %v", line, err)
	}
	var b strings.Builder
	lit := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case nil:
		case *syntax.Lit:
			if !lit {
				b.WriteString(" lit:")
			}
			b.WriteString(x.Value)
			lit = true
		case *syntax.SglQuoted:
			fmt.Fprintf(&b, " sgl:%v:%q", x.Dollar, x.Value)
			lit = false
		default:
			fmt.Fprintf(&b, " %T", n)
			lit = false
		}
		return true
	})
	return b.String()
}

// keptContinuations are the ranges where the parser keeps a
// backslash-newline as text: single-quoted strings and here-document bodies.
func keptContinuations(t *testing.T, line string) (spans []span) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		t.Fatalf("the parser rejects %q: %v", line, err)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.SglQuoted:
			spans = append(spans, span{int(x.Pos().Offset()), int(x.End().Offset())})
		case *syntax.Redirect:
			if x.Hdoc != nil {
				spans = append(spans, span{int(x.Hdoc.Pos().Offset()), int(x.Hdoc.End().Offset())})
			}
		}
		return true
	})
	return spans
}

// TestJoinContinuationsAgreeWithParser: joining a line's continuations
// changes nothing the parser reads, leaves none outside single quotes and
// here-document bodies, and the simple commands of the joined line are
// the parser's.
func TestJoinContinuationsAgreeWithParser(t *testing.T) {
	for _, line := range continuedCorpus {
		joined := joinContinuations(line)
		if got, want := parseShape(t, joined), parseShape(t, line); got != want {
			t.Errorf("joinContinuations(%q) = %q parses differently:\n got  %s\n want %s", line, joined, got, want)
		}
		kept := keptContinuations(t, joined)
		for at := strings.Index(joined, "\\\n"); at >= 0; {
			if !inSpan(at, kept) {
				t.Errorf("joinContinuations(%q) = %q keeps the continuation at %d", line, joined, at)
			}
			next := strings.Index(joined[at+2:], "\\\n")
			if next < 0 {
				break
			}
			at += 2 + next
		}
		if got, want := SimpleCommands(joined), oracleSimpleCommands(joined); !reflect.DeepEqual(got, want) {
			t.Errorf("SimpleCommands(%q)\n got  %q\n want %q", joined, got, want)
		}
	}
	if s := "no continuation here"; joinContinuations(s) != s {
		t.Errorf("a line with no continuation changed")
	}
}

// unquoteCorpus are words quoted in part, escaped, and quoted whole, as
// commands write paths, names and messages.
var unquoteCorpus = []string{
	`rm -f "orders".db orders"".db ord"ers.d"b orders\.db 'orders'.db`,
	`"$VENV/bin/pytest" -x "tests/unit"`,
	`py"test" -x && git push origin main "--for"ce`,
	`git commit -m "say \"hi\" and \$HOME \x"`,
	`echo $"x y" $'a b' "a\\b" 'c\d' \'q\'`,
	`X="a b" Y='c' make "${T:-x}" test`,
	"cat <<'E\"OF' > \"out file\"\nbody \"x\"\nE\"OF\necho \"done\"",
	`echo "$(echo 'in'"side")"`,
}

// oracleWords are the words of line the parser reads with no expansion
// in them (no parameter, substitution, arithmetic, brace, tilde or glob,
// no escape inside $'...'; here-document bodies are not words), each with
// the text its quote removal gives.
func oracleWords(line string) (words []syntax.Node, want []string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, nil
	}
	bodies := map[*syntax.Word]bool{} // here-document bodies: data, not words
	syntax.Walk(f, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && r.Hdoc != nil {
			bodies[r.Hdoc] = true
		}
		w, ok := n.(*syntax.Word)
		if !ok || bodies[w] || !plainWord(w) {
			return true
		}
		if fields, err := expand.Fields(nil, w); err == nil && len(fields) == 1 {
			words, want = append(words, w), append(want, fields[0])
		}
		return true
	})
	return words, want
}

// plainWord reports whether quote removal alone makes w's text.
func plainWord(w *syntax.Word) bool {
	for i, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(x.Value, "~") || strings.ContainsAny(x.Value, "*?[{") {
				return false
			}
		case *syntax.SglQuoted:
			if x.Dollar && strings.Contains(x.Value, `\`) {
				return false
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// delimiterAndMore finds a line that starts with the generated lines'
// here-document delimiter and goes on.
var delimiterAndMore = regexp.MustCompile(`(?m)^EOF[^\n]`)

// TestUnquoteAgreesWithParser: each word the parser reads with no
// expansion in it is, with the bytes unquote takes out of the line left
// out, the text mvdan.cc/sh's quote removal makes of it.
func TestUnquoteAgreesWithParser(t *testing.T) {
	lines := append(append(append([]string{}, unquoteCorpus...), inertCorpus...), shellCorpus...)
	for _, c := range denyCalls {
		lines = append(lines, c.cmd)
	}
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		lines = append(lines, genQuoted(r))
	}
	compared := 0
	for _, line := range lines {
		if _, ok := oracleInert(line); !ok || delimiterAndMore.MatchString(line) {
			// The parser's own quirks (oracleInert); and it ends a
			// here-document at "EOF && ls", where bash reads on to a
			// line that is the delimiter alone.
			continue
		}
		words, want := oracleWords(line)
		_, drops := unquote(line)
		for i, w := range words {
			from, to := int(w.Pos().Offset()), int(w.End().Offset())
			if got := unquoted(line[from:to], from, drops); got != want[i] {
				t.Errorf("in %q, the word %q: unquote reads %q, the parser %q", line, line[from:to], got, want[i])
			}
			compared++
		}
	}
	if compared < 5000 {
		t.Fatalf("only %d words compared", compared)
	}
	bare, _ := unquote(unquoteCorpus[0])
	if want := "rm -f orders.db orders.db orders.db orders.db orders.db"; bare != want {
		t.Errorf("unquote(%q) = %q, want %q", unquoteCorpus[0], bare, want)
	}
}
