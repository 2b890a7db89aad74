package lint

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
)

// ordinaryCommands is what an agent's shell runs all day. A deny regex
// that matches more than a quarter of them blocks the agent's shell rather
// than one mistake.
var ordinaryCommands = []string{
	"ls", "ls -la", "pwd", "cd src", "cat README.md", "head -n 20 main.go", "echo hello",
	"grep -rn TODO .", "find . -name '*.go'", "mkdir -p build", "cp a.txt b.txt", "mv old new",
	"git status", "git diff", "git add -A", "git commit -m 'fix typo'", "git log --oneline", "git checkout -b feature",
	"go build ./...", "go test ./...", "go vet ./...", "make", "make test",
	"npm install", "npm test", "npm run build", "yarn", "node index.js",
	"python main.py", "python -m pytest", "pip install -r requirements.txt", "pytest -x",
	"cargo build", "cargo test", "docker ps", "curl -s http://localhost:8080/health",
	"sed -n 1,40p file.txt", "wc -l *.go", "which go", "env",
}

// minLiteral is the shortest text (in characters) a specific deny regex or
// glob must require in every match: "rm", "git push", ".env".
const minLiteral = 2

// checkDeny enforces docs/design.md, Matching and scoring: a deny item must
// name a specific target. Each command regex must require a literal of two or
// more characters in every match and match at most a quarter of the ordinary
// commands above; each path glob must hold two or more literal characters.
// An enforce: once item blocks a call too (the first of each context), so
// its targets must be as specific; that it has one is markdown.Validate's.
func checkDeny(it *markdown.Item) []Finding {
	if it.Enforce != markdown.EnforceDeny && it.Enforce != markdown.EnforceOnce {
		return nil
	}
	t := it.Triggers
	bad := func(key, msg string) Finding {
		return Finding{Path: it.Path, Line: it.KeyLine(key), Key: key, Severity: Error,
			Msg: it.Enforce + " needs a specific target: " + msg}
	}
	if len(t.Commands)+len(t.Paths)+len(t.Content) == 0 {
		if it.Enforce == markdown.EnforceOnce {
			return nil
		}
		return []Finding{bad("enforce", "set triggers.commands, triggers.paths or triggers.content; deny blocks only calls that match a target")}
	}
	return denyTargets(t, bad)
}

// denyTargets flags each target of a deny that matches almost anything.
func denyTargets(t markdown.Triggers, bad func(key, msg string) Finding) []Finding {
	var out []Finding
	for _, pat := range t.Commands {
		if msg := broadCommand(pat); msg != "" {
			out = append(out, bad("triggers.commands", msg))
		}
	}
	for _, pat := range t.Content {
		if match.RegexLiterals(pat) == nil {
			out = append(out, bad("triggers.content", fmt.Sprintf("%q names no code (no literal of three or more characters): it would block almost any edit; name the code, e.g. 'datetime\\.utcnow\\('", pat)))
		}
	}
	for _, g := range t.Paths {
		if literalChars(g) < minLiteral {
			out = append(out, bad("triggers.paths", fmt.Sprintf("%q matches almost any path; name the file or folder, e.g. '**/.env'", g)))
		}
	}
	return out
}

// broadCommand says why a deny regex matches almost any command, or "".
// A regex that does not compile is markdown.Validate's to report.
func broadCommand(pat string) string {
	re, err := regexp.Compile(pat)
	if err != nil {
		return ""
	}
	parsed, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return ""
	}
	if requiredLiteral(parsed.Simplify()) < minLiteral {
		return fmt.Sprintf("%q does not require any text of %d or more characters, so it matches almost any command; name the command, e.g. '^git push --force'", pat, minLiteral)
	}
	if hits := ordinaryHits(re); len(hits)*4 > len(ordinaryCommands) {
		return fmt.Sprintf("%q matches %d of %d ordinary commands (%q, %q, ...); name the command, e.g. '^git push --force'", pat, len(hits), len(ordinaryCommands), hits[0], hits[1])
	}
	return ""
}

// ordinaryHits returns the ordinary commands re matches.
func ordinaryHits(re *regexp.Regexp) []string {
	var hits []string
	for _, c := range ordinaryCommands {
		if re.MatchString(c) {
			hits = append(hits, c)
		}
	}
	return hits
}

// requiredLiteral is a lower bound on the longest literal text that every
// match of re contains, in characters (0 when a match may contain none).
func requiredLiteral(re *syntax.Regexp) int { return literals(re).best }

// litInfo describes a regex node's literal text: exact is its length when
// the node matches one fixed text (-1 otherwise); every match starts with
// pre and ends with suf literal characters and contains a run of best.
type litInfo struct{ exact, pre, suf, best int }

func literals(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpLiteral:
		n := len(re.Rune)
		return litInfo{n, n, n, n}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{} // zero width: a literal run goes on across it
	case syntax.OpCapture:
		return literals(re.Sub[0])
	case syntax.OpPlus, syntax.OpRepeat:
		if re.Op == syntax.OpPlus || re.Min >= 1 {
			in := literals(re.Sub[0])
			in.exact = -1
			return in
		}
	case syntax.OpConcat:
		return concatLiterals(re.Sub)
	case syntax.OpAlternate:
		return alternateLiterals(re.Sub)
	}
	return litInfo{exact: -1} // a class, any character, an optional part
}

// alternateLiterals keeps what every alternative has.
func alternateLiterals(subs []*syntax.Regexp) litInfo {
	out := literals(subs[0])
	out.exact = -1
	for _, s := range subs[1:] {
		in := literals(s)
		out.pre, out.suf, out.best = min(out.pre, in.pre), min(out.suf, in.suf), min(out.best, in.best)
	}
	return out
}

// concatLiterals joins the runs of adjacent parts: the parser factors
// ^(cd|cat) into c(?:d|at), whose run is still two characters.
func concatLiterals(subs []*syntax.Regexp) litInfo {
	out := litInfo{exact: 0}
	run := 0
	for _, s := range subs {
		in := literals(s)
		if in.exact >= 0 {
			run += in.exact
			if out.exact >= 0 {
				out.exact += in.exact
				out.pre += in.exact
			}
			out.best = max(out.best, run)
			continue
		}
		out.best = max(out.best, run+in.pre, in.best)
		if out.exact >= 0 {
			out.pre += in.pre
			out.exact = -1
		}
		run = in.suf
	}
	out.suf = run
	return out
}

// literalChars counts a glob's characters that are not wildcards,
// brackets or separators.
func literalChars(glob string) int {
	n := 0
	inClass := false
	for _, r := range glob {
		switch {
		case r == '[':
			inClass = true
		case r == ']':
			inClass = false
		case inClass || strings.ContainsRune("*?/{},\\", r):
		default:
			n++
		}
	}
	return n
}
