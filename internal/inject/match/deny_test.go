package match

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// denyCall is a labelled Bash call: does it run a guarded command?
type denyCall struct {
	what, cmd string
	runs      bool
}

// denyCalls are commands as agents write them. Those that only mention
// pytest or a force push (in a message, an argument, a heredoc, a comment)
// must not be blocked; those that run one must.
var denyCalls = []denyCall{
	{"commit message", `git commit -m "fix pytest flakiness in CI"`, false},
	{"commit message, single quotes", `git commit -qm 'pytest: mark slow tests'`, false},
	{"commit message about force push", `git commit -m "docs: never git push --force to main"`, false},
	{"commit message heredoc", "git commit -F- <<'EOF'\nSpeed up pytest\n\nRun pytest -n auto in CI.\nEOF", false},
	{"commit message heredoc in $()", "git commit -m \"$(cat <<'EOF'\nci: run pytest -x\nEOF\n)\"", false},
	{"echo", `echo "run pytest -x to reproduce"`, false},
	{"echo, single quotes", `echo 'git push --force is blocked here'`, false},
	{"printf", `printf '%s\n' "pytest -q" > cmd.txt`, false},
	{"grep", `grep -rn "pytest" docs/`, false},
	{"grep, single quotes", `grep -n 'pytest' setup.cfg pyproject.toml`, false},
	{"git log grep", `git log --oneline --grep="pytest"`, false},
	{"rg", `rg -l 'git push --force' .github/`, false},
	{"gh pr create body", `gh pr create --title "Speed up pytest" --body "Runs pytest in parallel; no git push --force needed"`, false},
	{"gh issue comment", `gh issue comment 12 --body 'pytest hangs on main'`, false},
	{"sed", `sed -i 's/pytest/python -m pytest --no-header/' Makefile`, false},
	{"python -c", `python -c "import pytest; print(pytest.__version__)"`, false},
	{"jq", `jq '.scripts.pytest' package.json`, false},
	{"heredoc to a file", "cat > notes.md <<EOF\nRun pytest later.\nEOF", false},
	{"indented heredoc", "cat <<-'MSG'\n\tgit push --force\n\tMSG", false},
	{"comment", "ls tests # pytest later", false},
	{"comment line", "# pytest -x\nls tests", false},
	{"ANSI-C string", `echo $'pytest\'s cache'`, false},
	{"quoted default", `echo "${RUNNER:-pytest}"`, false},
	{"a guarded command quoted whole", `echo 'never rm -rf "$HOME"'`, false},

	{"bare", "pytest -x", true},
	{"after cd", "cd app && pytest", true},
	{"env prefix", "TERM=dumb pytest", true},
	{"substitution", "$(pytest)", true},
	{"substitution in quotes", `echo "$(pytest -q)"`, true},
	{"backquotes in quotes", "echo \"`pytest -q`\"", true},
	{"subshell", "(cd app; pytest tests/)", true},
	{"loop", "for t in a b; do pytest $t; done", true},
	{"python -m", "python -m pytest --no-header", true},
	{"with a comment", "pytest -x # the slow ones", true},
	{"after a quoted commit", `git commit -m "wip" && pytest`, true},
	{"after a heredoc", "cat <<EOF > x\ndata\nEOF\npytest", true},
	{"force push", "git push origin main --force", true},
	{"force push with a message nearby", `git commit -m "x" && git push --force`, true},
	{"a guard that names a quoted argument", `rm -rf "$HOME"`, true},
	{"the same after cd", `cd /tmp && rm -rf "$HOME" # cleanup`, true},
	// Bash removes a backslash-newline outside single quotes: one command.
	{"force push continued on the next line", "git push \\\n--force origin main", true},
	{"a word continued on the next line", "git pu\\\nsh origin main --for\\\nce", true},
	{"continued inside single quotes: still a mention", "echo 'git push \\\n--force'", false},
	// The shell runs words after quote removal, and a command's name
	// however it is quoted.
	{"a quoted command name", `"$VENV/bin/pytest" -x tests/`, true},
	{"a command name quoted in part", `py"test" -x`, true},
	{"a word quoted in part", `git push origin main "--for"ce`, true},
	{"an escaped byte", `git push origin main --forc\e`, true},
	{"a message quoted in pieces", `git commit -m "run py"test" later"`, false},
	{"a quoted assignment before the command", `RUNNER="pytest -x" make test`, false},
	// A string another shell runs is a script: code, with its own quotes.
	{"bash -c", `bash -c 'cd app && pytest -x'`, true},
	{"sh -c, double quotes", `sh -c "pytest -q"`, true},
	{"a login shell's -lc", `bash -lc 'git push origin main --force'`, true},
	{"sudo and a path", `sudo /bin/sh -c 'rm -rf "$HOME"'`, true},
	{"in a container", `docker exec -it app bash -c 'pytest tests/'`, true},
	{"timeout", `timeout 300 bash -euc "pytest -x"`, true},
	{"eval", `eval "pytest -x"`, true},
	{"su -c", `su -c 'pytest -x' ci`, true},
	{"a mention inside the script", `bash -c 'echo "run pytest later"'`, false},
	{"a script quoted in a message", `git commit -m "use bash -c 'pytest -x' in CI"`, false},
	{"a shell without -c", `bash scripts/check.sh 'pytest -x'`, false},
	{"a script's own argument", `bash -c 'echo "$1"' _ 'pytest -x'`, false},
}

var (
	pyRE    = regexp.MustCompile(`\bpytest\b`)
	forceRE = regexp.MustCompile(`git\s+push\s.*--force(\s|$)`)
	homeRE  = regexp.MustCompile(`rm\s+-rf\s+"?\$HOME`)
)

func TestDenyOnlyOutsideQuotes(t *testing.T) {
	py := bash("P", 9, pyRE.String())
	py.Deny = true
	force := bash("F", 10, forceRE.String())
	force.Deny = true
	home := bash("H", 10, homeRE.String())
	home.Deny = true
	m := build(t, manifest.Settings{BudgetBytes: 4096, MaxItems: 3, Threshold: 0.7}, py, force, home)
	mentions, runs := 0, 0
	for _, c := range denyCalls {
		d, err := Decide(m, Call{Tool: "Bash", Command: c.cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		denied := false
		for _, r := range d.Injected {
			denied = denied || r.Deny
		}
		if denied != c.runs {
			t.Errorf("%s: %q denied=%v, want %v", c.what, c.cmd, denied, c.runs)
		}
		if c.runs {
			runs++
		} else {
			mentions++
			if (pyRE.MatchString(c.cmd) || forceRE.MatchString(c.cmd) || homeRE.MatchString(c.cmd)) && len(d.Injected) == 0 {
				t.Errorf("%s: %q: a mention still injects the lesson", c.what, c.cmd)
			}
		}
	}
	if !t.Failed() {
		t.Logf("0 of %d calls that only mention a guarded command denied; %d of %d that run one denied", mentions, runs, runs)
	}
	d, err := Explain(m, Call{Tool: "Bash", Command: `git commit -m "fix pytest"`})
	if err != nil || len(d.Injected) != 1 || d.Injected[0].Deny || !hasReason(d.Injected[0], "deny not applied") {
		t.Errorf("lore match does not say why the deny was not applied: %+v %v", d.Injected, err)
	}
}

func hasReason(r Result, s string) bool {
	for _, why := range r.Reasons {
		if strings.Contains(why, s) {
			return true
		}
	}
	return false
}

// TestHoldOnlyOutsideQuotes: enforce: once holds the calls that run the
// command, as a deny blocks them, and never one that only mentions it; a
// held item seen in the context is not scored again (later calls
// proceed), and lore match names the hold.
func TestHoldOnlyOutsideQuotes(t *testing.T) {
	py := bash("P", 5, pyRE.String())
	py.Hold = true
	m := build(t, manifest.Settings{BudgetBytes: 4096, MaxItems: 3, Threshold: 0.7}, py)
	for _, c := range denyCalls {
		if !pyRE.MatchString(c.cmd) {
			continue
		}
		d, err := Decide(m, Call{Tool: "Bash", Command: c.cmd}, nil)
		if err != nil || len(d.Injected) != 1 {
			t.Fatalf("%s: %+v %v", c.what, d.Injected, err)
		}
		if r := d.Injected[0]; r.Hold != c.runs || r.Deny {
			t.Errorf("%s: %q hold=%v deny=%v, want hold %v", c.what, c.cmd, r.Hold, r.Deny, c.runs)
		}
	}
	seen := func(id []byte) bool { return string(id) == "P" }
	if d, err := Decide(m, Call{Tool: "Bash", Command: "pytest -x"}, seen); err != nil || len(d.Injected) != 0 {
		t.Errorf("a hold already shown in the context: %+v %v", d.Injected, err)
	}
	d, err := Explain(m, Call{Tool: "Bash", Command: "pytest -x"})
	if err != nil || len(d.Injected) != 1 || !d.Injected[0].Hold || !hasReason(d.Injected[0], "enforce: once") {
		t.Errorf("lore match does not name the hold: %+v %v", d.Injected, err)
	}
	d, err = Explain(m, Call{Tool: "Bash", Command: `git commit -m "fix pytest"`})
	if err != nil || len(d.Injected) != 1 || d.Injected[0].Hold || !hasReason(d.Injected[0], "enforce: once") || !hasReason(d.Injected[0], "not applied") {
		t.Errorf("lore match does not say why the hold was not applied: %+v %v", d.Injected, err)
	}
}

// TestHoldAlwaysFits: a hold is never cut by inject.maxItems, like a deny.
func TestHoldAlwaysFits(t *testing.T) {
	var items []manifest.Item
	for _, id := range []string{"A", "B", "C"} {
		items = append(items, bash(id, 8, pyRE.String()))
	}
	low := bash("L", 5, pyRE.String())
	low.Hold = true
	m := build(t, manifest.Settings{BudgetBytes: 4096, MaxItems: 2, Threshold: 0.7}, append(items, low)...)
	d, err := Decide(m, Call{Tool: "Bash", Command: "pytest"}, nil)
	if err != nil || ids(d.Injected) != "A,B,L" || ids(d.Dropped) != "C" {
		t.Errorf("injected %s dropped %s (%v), want A,B,L and C", ids(d.Injected), ids(d.Dropped), err)
	}
}
