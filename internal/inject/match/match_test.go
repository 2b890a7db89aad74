package match

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
	"github.com/lore-agents/lore/internal/inject/manifest"
)

func TestSimpleCommands(t *testing.T) {
	for in, want := range map[string][]string{
		"cd app && pytest -x":                   {"cd app", "pytest -x"},
		"FOO=1 make test >out.log 2>&1 | tee":   {"FOO=1 make test >out.log 2>&1", "tee"},
		"(cd a; pytest) || echo $(git push -f)": {"cd a", "pytest", "echo $(git push -f)", "git push -f"},
		"export NODE_ENV=production":            {"export NODE_ENV=production"},
		"if then fi ((":                         {"if then fi (("},
		"":                                      {""},
		"a=((":                                  {"a=(("}, // these three once looped forever
		"=((":                                   {"=(("},
		"==((":                                  {"==(("},
		"a=(x ((":                               {"a=(x (("},
	} {
		var got []string
		fuzzlimit.Run(t, func() { got = SimpleCommands(in) })
		if !reflect.DeepEqual(got, want) {
			t.Errorf("SimpleCommands(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRegexLiterals(t *testing.T) {
	for pat, want := range map[string][]string{
		`\bpytest\b`:               {"pytest"},
		`git\s+push\b.*--force`:    {"--force"},
		`^npm\s+(install|ci)\b`:    {"npm"},
		`(?i)docker\s+build`:       {"DOCKER"}, // compared ASCII case-insensitively
		`(terraform|tofu)\s+apply`: {"apply"},
		`(pytest|pyright)`:         {"test", "right"},
		`x?`:                       nil,
		`ab`:                       nil,
		`.*`:                       nil,
		`(?!x)`:                    nil,
	} {
		if got := RegexLiterals(pat); !reflect.DeepEqual(got, want) {
			t.Errorf("RegexLiterals(%q) = %q, want %q", pat, got, want)
		}
	}
	for glob, want := range map[string][]string{
		"**/conftest.py":          {"conftest.py"},
		"src/**/migrations/*.py":  {"migrations"},
		".github/workflows/*.yml": {".github/workflows"},
		"**/*.{js,ts}":            nil,
		"*":                       nil,
		"[abc]xyz/**":             {"xyz"},
	} {
		if got := GlobLiterals(glob); !reflect.DeepEqual(got, want) {
			t.Errorf("GlobLiterals(%q) = %q, want %q", glob, got, want)
		}
	}
}

func TestRegexLiteralSets(t *testing.T) {
	got := RegexLiteralSets(`\bgit\s+push\b.*--force`)
	if want := [][]string{{"git"}, {"push"}, {"--force"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("RegexLiteralSets = %q, want %q", got, want)
	}
}

// The analyses are memoized: what a caller does with its copy never
// changes the next caller's answer.
func TestPatternAnalysesAreCopies(t *testing.T) {
	const pat = `\bnpm\s+publish\b`
	sets, req := RegexLiteralSets(pat), RequiredLiterals(pat)
	sets[0][0], sets[1], req[0] = "changed", nil, "changed"
	if got, want := RegexLiteralSets(pat), [][]string{{"npm"}, {"publish"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("RegexLiteralSets again = %q, want %q", got, want)
	}
	if got, want := RequiredLiterals(pat), []string{"npm", "publish"}; !reflect.DeepEqual(got, want) {
		t.Errorf("RequiredLiterals again = %q, want %q", got, want)
	}
}

// An item is gated by the literal the fewest items share: the flag, not the
// program name that every pytest item names.
func TestCommandGatesPickRarest(t *testing.T) {
	item := func(cmds ...string) manifest.Item {
		return manifest.Item{Triggers: manifest.Triggers{Commands: cmds}}
	}
	got := literalGates([]manifest.Item{
		item(`\bpytest\b.*--cov\b`), item(`\bpytest\b`), item(`^pytest\s`), item(`.*`, `\bnpm\b`), item(`\bnpm\s+ci\b`, `\bpytest\b.*--lf`),
		item(`\bdocker\s+push\s+\S*api`), item(`\bdocker\s+build\b`), item(`\bgit\s+push\b`),
	}, func(t manifest.Triggers) []string { return t.Commands })
	// "api" is the rarest literal of its pattern, but three bytes are too
	// common in commands: the rarer of the longer ones gates it.
	want := [][]string{{"--cov"}, {"pytest"}, {"pytest"}, nil, {"npm", "--lf"}, {"docker"}, {"build"}, {"push"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commandGates = %q, want %q", got, want)
	}
}

func TestPhrases(t *testing.T) {
	for _, tc := range []struct {
		text, phrase string
		want         bool
	}{
		{"Cut the RELEASE now", "release", true},
		{"list the releases", "release", false},
		{"a version\n  bump please", "version bump", true},
		{"prerelease", "release", false},
		{"use c++ here", "c++", true},
		{"use c++x", "c++", true}, // ends in a non-word character: no boundary needed
		{"re-release", "release", true},
	} {
		if got := hasPhrase(normText(tc.text), normText(tc.phrase)); got != tc.want {
			t.Errorf("hasPhrase(%q, %q) = %v", tc.text, tc.phrase, got)
		}
	}
}

func build(t *testing.T, set manifest.Settings, items ...manifest.Item) *manifest.Manifest {
	t.Helper()
	data, err := manifest.Build(manifest.Source{Settings: set, Items: items, Buckets: Index(items, set)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var defaults = manifest.Settings{BudgetBytes: 4096, MaxItems: 3, Threshold: 0.7, ReinjectPriority: 7}

func bash(id string, prio int, cmd string) manifest.Item {
	return manifest.Item{ID: id, Title: "t" + id, File: id + ".md", Status: "active", Priority: prio, Confidence: 1,
		Triggers: manifest.Triggers{Tools: []string{"Bash"}, Commands: []string{cmd}}, Text: "text of " + id}
}

func ids(rs []Result) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.ID)
	}
	return strings.Join(s, ",")
}

func TestScoresAndOrder(t *testing.T) {
	a := bash("A", 5, `\bmake\b`)                       // 0.9 x 1.0
	b := bash("B", 7, `\bmake\b`)                       // 0.9 x 1.5
	c := bash("C", 2, `\bmake\b`)                       // 0.9 x 0.5: below
	d := bash("D", 5, `\bmake\b`)                       // ties A: id order
	d.Confidence = 0.5                                  // ...but lower confidence
	e := bash("E", 5, `\bmake\b`)                       // ties A
	e.Triggers.Keywords = []string{"build it", "other"} // 1/2: 0.4+0.4+0.05+0.05
	m := build(t, manifest.Settings{BudgetBytes: 4096, MaxItems: 10, Threshold: 0.7}, a, b, c, d, e)
	got, err := Decide(m, Call{Tool: "Bash", Command: "make all", Prompt: "please BUILD   it"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ids(got.Injected) != "B,A,E,D" {
		t.Errorf("order %s, want B,A,E,D", ids(got.Injected))
	}
	if !near(got.Injected[0].Score, 1.35) || !near(got.Injected[2].Relevance, 0.9) {
		t.Errorf("scores %v %v", got.Injected[0].Score, got.Injected[2].Relevance)
	}
	// A medium item with tools and no target scores exactly 0.7: kept within the tolerance.
	f := manifest.Item{ID: "F", Status: "active", Priority: 5, Confidence: 1, Triggers: manifest.Triggers{Tools: []string{"Glob"}}}
	m = build(t, defaults, f)
	if got, _ := Decide(m, Call{Tool: "Glob"}, nil); ids(got.Injected) != "F" {
		t.Errorf("0.7 at threshold 0.7: %s", ids(got.Injected))
	}
}

func TestBudgetAndDedup(t *testing.T) {
	big := bash("A", 7, "make")
	big.Text = strings.Repeat("a", 300)
	mid := bash("B", 5, "make")
	mid.Text = strings.Repeat("b", 300)
	small := bash("C", 5, "make")
	small.Text = "c"
	extra := bash("D", 5, "make")
	deny := bash("Z", 9, "make")
	deny.Deny, deny.Fix = true, "run make -n first"
	m := build(t, manifest.Settings{BudgetBytes: 400, MaxItems: 3, Threshold: 0.7}, big, mid, small, extra, deny)
	got, err := Decide(m, Call{Tool: "Bash", Command: "make"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Z (deny, 1.8) first; A's 300 bytes fit; B falls back to its title; C fits; D over maxItems...
	if ids(got.Injected) != "Z,A,B" || !got.Injected[2].Fallback || ids(got.Dropped) != "C,D" {
		t.Errorf("injected %s dropped %s (fallback %v)", ids(got.Injected), ids(got.Dropped), got.Injected[2].Fallback)
	}
	if !got.Injected[0].Deny || got.Injected[0].DenyReason != "run make -n first" {
		t.Errorf("deny %+v", got.Injected[0])
	}
	// Seen items are skipped, asked by id; a deny is never deduplicated.
	asked := map[string]bool{}
	seen := func(id []byte) bool { asked[string(id)] = true; return true }
	got, _ = Decide(m, Call{Tool: "Bash", Command: "make"}, seen)
	if ids(got.Injected) != "Z" || !asked["A"] || !asked["D"] || asked["Z"] {
		t.Errorf("with everything seen: %s (asked %v)", ids(got.Injected), asked)
	}
}

func TestTargets(t *testing.T) {
	p := manifest.Item{ID: "P", Status: "active", Priority: 7, Confidence: 1,
		Triggers: manifest.Triggers{Tools: []string{"Edit", "Grep"}, Paths: []string{"**/conftest.py"}, Unless: []string{"^vendor/"}}}
	u := bash("U", 7, `^pytest\b`)
	u.Triggers.Unless = []string{"--no-header"}
	k := manifest.Item{ID: "K", Status: "active", Priority: 7, Confidence: 1, Triggers: manifest.Triggers{Keywords: []string{"release"}}}
	m := build(t, defaults, p, u, k)
	for _, tc := range []struct {
		c    Call
		want string
	}{
		{Call{Tool: "MultiEdit", Path: "conftest.py"}, "P"},
		{Call{Tool: "Edit", Path: "./a/.hidden/conftest.py"}, "P"},
		{Call{Tool: "Edit", Path: "vendor/conftest.py"}, ""},
		{Call{Tool: "Grep"}, ""}, // Grep without a path has no path target
		{Call{Tool: "Read", Path: "conftest.py"}, ""},
		{Call{Tool: "Bash", Command: "cd x && pytest"}, "U"},
		{Call{Tool: "Bash", Command: "cd x && pytest --no-header"}, ""},
		{Call{Tool: "Bash", Command: "echo pytest"}, ""},
		{Call{Tool: "Bash", Command: "ls", Prompt: "do the release"}, "K"},
		{Call{Tool: "WebFetch", Prompt: "do the Release"}, "K"},
		{Call{Tool: "WebFetch", Prompt: "releases"}, ""},
	} {
		got, err := Decide(m, tc.c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ids(got.Injected) != tc.want {
			t.Errorf("%+v: injected %q, want %q", tc.c, ids(got.Injected), tc.want)
		}
	}
	got, _ := DecidePrompt(m, "ready for the release?", nil, nil)
	// keyword-only: the fraction of its phrases present (docs/design.md,
	// Matching and scoring)
	if ids(got.Injected) != "K" || !near(got.Injected[0].Relevance, 1) {
		t.Errorf("DecidePrompt: %s %+v", ids(got.Injected), got.Injected)
	}
	if got, _ := DecidePrompt(m, "pytest please", nil, nil); len(got.Injected) != 0 {
		t.Errorf("DecidePrompt took a tool item: %s", ids(got.Injected))
	}
}

func near(a, b float64) bool { return a-b < Tolerance && b-a < Tolerance }

// FuzzSimpleCommands: any line splits without panicking or looping, into
// slices of itself (offsetIn relies on it). testdata/fuzz holds the lines that once looped ("a=((").
func FuzzSimpleCommands(f *testing.F) {
	for _, s := range []string{"cd a && pytest -x", "(a; b) | c $(d)", "FOO=1 x >o 2>&1", "if then", "echo 'unterminated"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var cmds []string
		fuzzlimit.Run(t, func() { cmds = SimpleCommands(line) })
		for _, c := range cmds {
			if off := offsetIn(line, c); off < 0 || off+len(c) > len(line) || line[off:off+len(c)] != c {
				t.Fatalf("%q is not a slice of %q (offset %d)", c, line, off)
			}
		}
	})
}

// An item that names another client's tool (Gemini CLI's shell, Codex's)
// is bucketed and matched as lore's, so it fires on every client's calls.
func TestOtherClientsToolNames(t *testing.T) {
	for name, want := range map[string]string{"run_shell_command": "Bash", "shell": "Bash", "exec_command": "Bash",
		"apply_patch": "Edit", "replace": "Edit", "read_file": "Read", "write_file": "Write", "grep_search": "Grep",
		"bash": "Bash", "MultiEdit": "Edit", "web_fetch": "WebFetch", "mcp__db__query": "mcp__db__query"} {
		if got := Tool(name); got != want {
			t.Errorf("Tool(%q) = %q, want %q", name, got, want)
		}
	}
	gem := bash("G", 7, `\bblack\b`)
	gem.Triggers.Tools = []string{"run_shell_command"}
	m := build(t, defaults, gem)
	for _, tool := range []string{"Bash", "run_shell_command"} {
		if got, err := Decide(m, Call{Tool: tool, Command: "black app"}, nil); err != nil || ids(got.Injected) != "G" {
			t.Errorf("%s call: %s, %v", tool, ids(got.Injected), err)
		}
	}
}
