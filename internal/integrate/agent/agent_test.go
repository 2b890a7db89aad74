package agent

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

// userFiles are settings files as users have them; lore's install then
// uninstall must give each back byte for byte.
var userFiles = map[string]string{
	"empty object":         "{}",
	"empty object newline": "{}\n",
	"empty hooks":          `{"hooks":{}}`,
	"empty hooks spaced":   "{\n  \"hooks\": {}\n}\n",
	"compact":              `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify && say done"}]}]}}`,
	"four spaces": `{
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}
        ]
    },
    "unknownKey": [1, {"a": "b"}]
}
`,
	"tabs":                "{\n\t\"hooks\": {\n\t\t\"SessionStart\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]\n\t\t\t}\n\t\t]\n\t}\n}",
	"crlf and empty list": "{\r\n  \"hooks\": {\r\n    \"Stop\": []\r\n  }\r\n}\r\n",
}

func TestMergeUnmergeRestoresBytes(t *testing.T) {
	for _, a := range Agents {
		for name, user := range userFiles {
			merged, err := a.Merge([]byte(user), false)
			if err != nil {
				t.Fatalf("%s %s: %v", a.Name, name, err)
			}
			if reg, err := a.Status(merged); err != nil || reg.State != Current {
				t.Errorf("%s %s: after merge %+v %v\n%s", a.Name, name, reg, err, merged)
			}
			for _, ev := range a.Events() {
				if !strings.Contains(string(merged), "lore-hook "+a.Name+" "+ev+";") {
					t.Errorf("%s %s: %s not registered:\n%s", a.Name, name, ev, merged)
				}
			}
			back, err := a.Unmerge(merged)
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != user {
				t.Errorf("%s %s: uninstall changed the user's file:\n%q\nwant\n%q", a.Name, name, back, user)
			}
			if Empty(back) {
				t.Errorf("%s %s: the user's file would be deleted", a.Name, name)
			}
		}
	}
}

func TestMergeKeepsIndentation(t *testing.T) {
	a := Named("claude")
	for name, want := range map[string]string{"four spaces": "\n    \"hooks\": {\n        \"PreToolUse\": [", "tabs": "\n\t\t\t{\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\""} {
		merged, err := a.Merge([]byte(userFiles[name]), false)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(merged), want) {
			t.Errorf("%s: lore's entries are not indented like the file:\n%s", name, merged)
		}
	}
	merged, _ := a.Merge([]byte(userFiles["four spaces"]), false)
	if !strings.Contains(string(merged), `{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]},`) {
		t.Errorf("the user's compact entry was reformatted:\n%s", merged)
	}
}

func TestNewFileIsDeletedOnUninstall(t *testing.T) {
	for _, a := range Agents {
		data, err := a.Merge(nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {") {
			t.Errorf("%s: new file layout:\n%s", a.Name, data)
		}
		back, _ := a.Unmerge(data)
		if !Empty(back) {
			t.Errorf("%s: a file lore created is not empty after uninstall: %q", a.Name, back)
		}
		// A user entry added after the install keeps the file.
		withUser := strings.Replace(string(data), "\"hooks\": {\n", "\"hooks\": {\n    \"Notification\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"beep\"}]}],\n", 1)
		back, err = a.Unmerge([]byte(withUser))
		if err != nil || Empty(back) || !strings.Contains(string(back), "beep") || strings.Contains(string(back), "lore") {
			t.Errorf("%s: user's entry lost or lore's left: %v\n%s", a.Name, err, back)
		}
	}
}

func TestStaleRegistrationIsReplaced(t *testing.T) {
	a := Named("claude")
	old := `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]},
      {"hooks": [{"type": "command", "command": "/home/alice/go/bin/lore-hook claude PreToolUse", "timeout": 10}]}
    ],
    "PreCompact": [
      {"hooks": [{"type": "command", "command": "lore-hook claude PreCompact", "timeout": 10}]}
    ]
  }
}
`
	reg, err := a.Status([]byte(old))
	if err != nil || reg.State != Stale {
		t.Fatalf("%+v %v", reg, err)
	}
	why := strings.Join(reg.Why, "; ")
	for _, w := range []string{"SessionStart is not registered", "PreToolUse has another lore version's entry", "PreCompact is registered but this lore does not use it"} {
		if !strings.Contains(why, w) {
			t.Errorf("why %q lacks %q", why, w)
		}
	}
	merged, err := a.Merge([]byte(old), false)
	if err != nil {
		t.Fatal(err)
	}
	s := string(merged)
	if strings.Contains(s, "PreCompact") || strings.Contains(s, "/home/alice") || !strings.Contains(s, "guard.sh") {
		t.Errorf("stale entries kept or the user's lost:\n%s", s)
	}
	if reg, _ := a.Status(merged); reg.State != Current {
		t.Errorf("after merge: %+v", reg)
	}
}

func TestFailClosedOnlyWhereOffered(t *testing.T) {
	data, err := Named("claude").Merge(nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), `"onFailure": "block"`) != 1 {
		t.Errorf("onFailure must be on the PreToolUse guard only:\n%s", data)
	}
	if reg, _ := Named("claude").Status(data); !reg.Closed || reg.State != Current {
		t.Errorf("closed registration read back as %+v", reg)
	}
	if reg, _ := Named("claude").Status(mustMerge(t, "claude", false)); reg.Closed {
		t.Error("an open registration reads as closed")
	}
	data, _ = Named("gemini").Merge(nil, true)
	if strings.Contains(string(data), "onFailure") || strings.Contains(string(data), "exit 1") {
		t.Errorf("gemini has no onFailure:\n%s", data)
	}
}

func mustMerge(t *testing.T, agent string, closed bool) []byte {
	data, err := Named(agent).Merge(nil, closed)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestAgentFormats(t *testing.T) {
	codex := string(mustMerge(t, "codex", false))
	if !strings.Contains(codex, "\"SubagentStop\": [") || strings.Contains(codex, "\"PostToolUse\"") || strings.Contains(codex, "\"name\"") {
		t.Errorf("codex hooks.json:\n%s", codex)
	}
	gemini := string(mustMerge(t, "gemini", false))
	for _, want := range []string{`"BeforeTool": [`, `"AfterTool": [`, `"BeforeAgent": [`, `"name": "lore"`, `"timeout": 10000`} {
		if !strings.Contains(gemini, want) {
			t.Errorf("gemini settings lack %s:\n%s", want, gemini)
		}
	}
	if strings.Contains(gemini, "PreCompress") || strings.Contains(string(mustMerge(t, "claude", false)), "PreCompact") {
		t.Error("compaction events must not be registered: their {} only adds noise")
	}
	commented := "{\n  // my settings\n  \"theme\": \"dark\" /* keep */\n}\n"
	merged, err := Named("gemini").Merge([]byte(commented), false)
	if err != nil {
		t.Fatal(err)
	}
	if back, _ := Named("gemini").Unmerge(merged); string(back) != commented {
		t.Errorf("gemini comments lost:\n%s", back)
	}
}

func TestMergeRejectsBrokenSettings(t *testing.T) {
	for _, bad := range []string{`[1]`, `{"hooks":`, `{"a":1} {"b":2}`, `{"hooks":{"Stop":{"not":"a list"}}}`, `{"hooks":[]}`, "{\n\n  \"a\": tru\n}", ""} {
		_, err := Named("claude").Merge([]byte(bad), false)
		if err == nil || !strings.Contains(err.Error(), ".claude/settings.json") {
			t.Errorf("Merge(%q) = %v, want an error naming the file", bad, err)
		}
	}
	_, err := Named("claude").Merge([]byte("{\n\n  \"a\": tru\n}"), false)
	if err == nil || !strings.HasPrefix(err.Error(), ".claude/settings.json:3: ") {
		t.Errorf("error does not name the line: %v", err)
	}
	_, err = Named("codex").Merge([]byte("{\n  \"hooks\": {\n    \"Stop\": {}\n  }\n}"), false)
	if err == nil || err.Error() != ".codex/hooks.json:3: hooks.Stop: not a list" {
		t.Errorf("error does not name file, line and key: %v", err)
	}
}

func TestIsLoreCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"lore-hook claude PreToolUse":              true,
		"/usr/local/bin/lore-hook claude Stop":     true,
		`"/opt/my tools/lore" hook claude Stop`:    true,
		`"/opt/my tools/lore" build`:               false,
		"lore hook gemini BeforeTool":              true,
		"lore build --quiet":                       false,
		"my-lore-hook claude PreToolUse":           false,
		"C:\\bin\\lore-hook.exe claude PreToolUse": true,
		Named("codex").Command("Stop", false):      true,
		"guard.sh":                                 false,
	} {
		if got := IsLoreCommand(cmd); got != want {
			t.Errorf("IsLoreCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestCommandWithoutBinaries runs the registered command line in a real
// shell: with nothing on PATH it answers {} and exits 0 (fail open), or
// exits 1 when fail-closed; with lore-hook on PATH it runs it.
func TestCommandWithoutBinaries(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	// PATH holds only sh (as every PATH does) and what a case puts there.
	empty := t.TempDir()
	bin := t.TempDir()
	for _, dir := range []string{empty, bin} {
		if err := os.Symlink(sh, filepath.Join(dir, "sh")); err != nil {
			t.Fatal(err)
		}
	}
	run := func(cmd, path string) (string, int) {
		c := exec.Command(sh, "-c", cmd)
		c.Env = []string{"PATH=" + path}
		c.Stdin = strings.NewReader(`{"session_id":"s"}`)
		out, err := c.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out)), code
	}
	for _, a := range Agents {
		if out, code := run(a.Command("PreToolUse", false), empty); out != "{}" || code != 0 {
			t.Errorf("%s fail open: %q exit %d", a.Name, out, code)
		}
	}
	if _, code := run(Named("claude").Command("PreToolUse", true), empty); code != 1 {
		t.Errorf("fail closed: exit %d, want 1", code)
	}
	if c := Named("codex").Command("Stop", false); !strings.HasPrefix(c, "sh -c '") || strings.Count(c, "'") != 2 {
		t.Errorf("codex runs hooks in $SHELL, which may be fish: the line must be one sh -c argument: %s", c)
	}
	script := "#!" + sh + "\nread line; echo \"hook $1 $2 got $line\"\n"
	if err := os.WriteFile(filepath.Join(bin, "lore-hook"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := run(Named("codex").Command("Stop", false), bin); out != `hook codex Stop got {"session_id":"s"}` || code != 0 {
		t.Errorf("lore-hook on PATH: %q exit %d", out, code)
	}
	loreScript := "#!" + sh + "\nread line; echo \"lore $1 $2 $3\"\n"
	os.Remove(filepath.Join(bin, "lore-hook"))
	os.WriteFile(filepath.Join(bin, "lore"), []byte(loreScript), 0o755)
	if out, _ := run(Named("gemini").Command("BeforeTool", false), bin); out != "lore hook gemini BeforeTool" {
		t.Errorf("fallback to lore hook: %q", out)
	}
}

func FuzzMergeRoundTrip(f *testing.F) {
	for _, s := range userFiles {
		f.Add(s)
	}
	f.Add(`{"hooks":{"Stop":[{"hooks":[{"command":"guard.sh"},{"command":"lore hook claude Stop"}]}],"Stop":[]}}`)
	f.Fuzz(func(t *testing.T, user string) {
		// Under a time limit: a settings file that makes the merge loop is
		// a failure, not a stuck run.
		fuzzlimit.Run(t, func() {
			for _, a := range Agents {
				merged, err := a.Merge([]byte(user), false)
				if err != nil {
					return // not a settings object: refused, nothing written
				}
				back, err := a.Unmerge(merged)
				if err != nil {
					t.Errorf("%s: unmerge of lore's own merge: %v\n%s", a.Name, err, merged)
					return
				}
				if reg, _ := a.Status([]byte(user)); reg.State == Missing && string(back) != user {
					t.Errorf("%s: round trip changed\n%q\ninto\n%q", a.Name, user, back)
					return
				}
			}
		})
	})
}

func TestInstallRefusesSymlinkedSettings(t *testing.T) {
	root := t.TempDir()
	shared := filepath.Join(t.TempDir(), "shared.json")
	os.WriteFile(shared, []byte("{}\n"), 0o644)
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	if err := os.Symlink(shared, filepath.Join(root, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	_, err := Named("claude").Install(root, Options{})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("install through a symlink: %v", err)
	}
	if data, _ := os.ReadFile(shared); string(data) != "{}\n" {
		t.Errorf("the link's target changed: %q", data)
	}
	if fi, _ := os.Lstat(filepath.Join(root, ".claude", "settings.json")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
}

func TestInstallKeepsFileMode(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, ".codex", "hooks.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(`{"hooks":{}}`), 0o600)
	if _, err := Named("codex").Install(root, Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if _, err := Named("codex").Uninstall(root, nil); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != `{"hooks":{}}` {
		t.Errorf("after uninstall: %q", data)
	}
}

func TestTurnedOff(t *testing.T) {
	for _, c := range []struct {
		agent, file string
		set, off    bool
	}{
		{"claude", `{"disableAllHooks": true}`, true, true},
		{"claude", `{"disableAllHooks": false}`, true, false},
		{"claude", `{"hooks": {}}`, false, false},
		{"gemini", "{\n  // user settings\n  \"hooksConfig\": {\"enabled\": false}\n}", true, true},
		{"gemini", `{"hooksConfig": {"enabled": true}}`, true, false},
		{"codex", `{"disableAllHooks": true}`, false, false}, // Codex has no such setting
	} {
		set, off, err := Named(c.agent).OffIn([]byte(c.file))
		if err != nil || set != c.set || off != c.off {
			t.Errorf("%s %s: set %v off %v (%v)", c.agent, c.file, set, off, err)
		}
	}
	if _, _, err := Named("claude").OffIn([]byte("{\n  \"disableAllHooks\": tru\n}")); err == nil || !strings.HasPrefix(err.Error(), "2: ") {
		t.Errorf("a broken file's error names its line: %v", err)
	}
	if k, v := Named("gemini").OffSetting(); k != "hooksConfig.enabled" || v != "false" {
		t.Errorf("gemini's off setting: %q %q", k, v)
	}
}

func TestDuplicateEventKeys(t *testing.T) {
	user := `{"hooks":{"Stop":[],"Stop":[{"hooks":[{"type":"command","command":"lore-hook claude Stop"}]}]}}`
	back, err := Named("claude").Unmerge([]byte(user))
	if err != nil || strings.Contains(string(back), "lore-hook") {
		t.Errorf("lore's entry under a repeated key: %v\n%s", err, back)
	}
}

// Install and Uninstall return what they did, in order, as data the
// command line prints (the lines are asserted by the init scripts).
func TestInstallSteps(t *testing.T) {
	root := t.TempDir()
	codex := Named("codex")
	steps, err := codex.Install(root, Options{Guards: GuardsClosed})
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{Did: "note", Why: "Codex CLI has no way to block a call when a hook cannot run: its guards fail open"},
		{Did: "created", Path: ".codex/hooks.json", Why: "lore hooks: " + strings.Join(codex.Events(), ", ")},
		{Did: "note", Why: codex.NoCommands},
		{Did: "trust", Why: codex.Trust},
	}
	if !reflect.DeepEqual(steps, want) {
		t.Errorf("install steps\n%+v\nwant\n%+v", steps, want)
	}
	if steps, err = codex.Uninstall(root, nil); err != nil || !reflect.DeepEqual(steps, []Step{{Did: "removed", Path: ".codex/hooks.json"}}) {
		t.Errorf("uninstall steps %+v, %v", steps, err)
	}
}
