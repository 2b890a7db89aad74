package doctor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/integrate/agent"
)

// fakeEnv is a getenv over m.
func fakeEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// install registers lore with the agent in the env's work tree.
func install(t *testing.T, e Env, name string) {
	t.Helper()
	if _, err := agent.Named(name).Install(e.Root, agent.Options{}); err != nil {
		t.Fatal(err)
	}
}

// findings are the messages of the check's findings at level.
func findings(r Report, check string, level Level) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Check == check && f.Level == level {
			out = append(out, f)
		}
	}
	return out
}

func TestLocate(t *testing.T) {
	p := Locate(fakeEnv(map[string]string{"HOME": "/h"}), "linux")
	want := Places{CodexConfig: "/h/.codex/config.toml", ClaudeUser: "/h/.claude/settings.json", ClaudeManaged: "/etc/claude-code",
		GeminiUser: "/h/.gemini/settings.json", GeminiSystem: "/etc/gemini-cli/settings.json", GeminiTrusted: "/h/.gemini/trustedFolders.json"}
	if p != want {
		t.Errorf("defaults:\n got %+v\nwant %+v", p, want)
	}
	p = Locate(fakeEnv(map[string]string{"HOME": "/h", "CODEX_HOME": "/c", "CLAUDE_CONFIG_DIR": "/cl",
		"GEMINI_CLI_TRUSTED_FOLDERS_PATH": "/g/tf.json", "GEMINI_CLI_TRUST_WORKSPACE": "true"}), "darwin")
	if p.CodexConfig != "/c/config.toml" || p.ClaudeUser != "/cl/settings.json" || p.GeminiTrusted != "/g/tf.json" ||
		p.GeminiTrustEnv != "true" || p.ClaudeManaged != "/Library/Application Support/ClaudeCode" {
		t.Errorf("from the environment: %+v", p)
	}
	if p := Locate(fakeEnv(nil), "linux"); p.CodexConfig != "" || p.ClaudeUser != "" {
		t.Errorf("no home: %+v", p)
	}
}

// The hashes Codex 0.169.0 itself reported (app-server hooks/list,
// currentHash) for lore's entries as `lore init --agent codex` wrote them.
func TestCodexHashMatchesCodex(t *testing.T) {
	cmd := func(ev string) string {
		return "sh -c 'if command -v lore-hook >/dev/null 2>&1; then GOMAXPROCS=1 exec lore-hook codex " + ev +
			"; elif command -v lore >/dev/null 2>&1; then GOMAXPROCS=1 exec lore hook codex " + ev + `; else echo "{}"; fi'`
	}
	ten := uint64(10)
	for _, c := range []struct{ event, want string }{
		{"PreToolUse", "sha256:8b15710123fc6c3a3cb38e31382cb69f5db6513da71d0f7f39628e99006a208e"},
		{"SessionStart", "sha256:3d904366952a2ec8f66b0a9648889fa0c818bf97c17a7224828ec0132cb28add"},
		{"UserPromptSubmit", "sha256:356052ddecf44aff4bdb6c2402cf112a0d47641bda0d02d2c6d70c9301de5588"},
		{"Stop", "sha256:f7e38c64f77ee0992db93ac23ba1fabdc7876cd7d207ba8027b6068afb2e3f35"},
		// Codex clamps SessionEnd's timeout to 3 s before hashing.
		{"SessionEnd", "sha256:c87c274ce2ce1d8e24e9b98658df5dd3fc46098a12197d9d3d7849d6bf320947"},
	} {
		if got := codexHash(codexHook{event: c.event, command: cmd(c.event), timeout: &ten}); got != c.want {
			t.Errorf("%s: %s, Codex 0.169 says %s", c.event, got, c.want)
		}
	}
	if snake("UserPromptSubmit") != "user_prompt_submit" || snake("Stop") != "stop" {
		t.Errorf("snake: %s %s", snake("UserPromptSubmit"), snake("Stop"))
	}
}

// codexConfigText is $CODEX_HOME/config.toml as Codex writes it after
// "Trust this folder" and "Trust all and continue", for the hooks given.
func codexConfigText(t *testing.T, root string, hashes map[string]string, extra string) string {
	t.Helper()
	hooks, err := codexLoreHooks(root)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "model = \"gpt-5.5\"\n\n[projects.%q]\ntrust_level = \"trusted\"\n\n[hooks.state]\n", root)
	for _, h := range hooks {
		hash, ok := hashes[h.event]
		if !ok {
			hash = codexHash(h)
		}
		if hash == "-" {
			continue
		}
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", codexKeys(filepath.Join(root, ".codex", "hooks.json"), h)[0], hash)
		if h.event == "Stop" {
			b.WriteString(extra)
		}
	}
	return b.String()
}

func TestCodexTrust(t *testing.T) {
	e := env(t)
	install(t, e, "codex")
	cfg := e.Places.CodexConfig

	// Straight after lore init: the project is not trusted, nor any hook.
	r := Run(e)
	acts := findings(r, "codex", Action)
	if len(acts) != 2 || !strings.Contains(acts[0].Message, "is not a trusted project in "+cfg) ||
		!strings.Contains(acts[1].Message, "never trusted: SessionStart, UserPromptSubmit, PreToolUse, SubagentStart, SubagentStop, Stop, SessionEnd") ||
		!strings.Contains(acts[1].Fix, "Hooks need review") || !strings.Contains(acts[1].Fix, "--dangerously-bypass-hook-trust") {
		t.Fatalf("untrusted: %+v", r.Findings)
	}

	// Trusted as Codex writes it.
	write(t, cfg, codexConfigText(t, e.Root, nil, "enabled = true\n"))
	r = Run(e)
	if r.Action || len(findings(r, "codex", OK)) != 2 || !strings.Contains(findings(r, "codex", OK)[1].Message, "Codex trusts lore's 7 hooks") {
		t.Errorf("trusted: %+v", r.Findings)
	}

	// A rewrite of a hook after trusting it, one never trusted, one turned off.
	write(t, cfg, codexConfigText(t, e.Root, map[string]string{"PreToolUse": "sha256:0000", "SessionEnd": "-"}, "enabled = false\n"))
	acts = findings(Run(e), "codex", Action)
	if len(acts) != 1 || acts[0].Message != "Codex skips these lore hooks, `codex exec` without a word: never trusted: SessionEnd; "+
		"changed since trusted: PreToolUse; turned off in Codex's /hooks: Stop" || !strings.Contains(acts[0].Fix, "enabled = false") {
		t.Errorf("mixed: %+v", acts)
	}

	// The project marked untrusted; a broken config.toml names its line.
	write(t, cfg, fmt.Sprintf("[projects.%q]\ntrust_level = \"untrusted\"\n", e.Root))
	if acts = findings(Run(e), "codex", Action); len(acts) != 2 || !strings.Contains(acts[0].Message, `"untrusted": Codex loads no project hooks here`) {
		t.Errorf("untrusted project: %+v", acts)
	}
	write(t, cfg, "model = \"x\"\n[projects.\"/x\"]\ntrust_level = trusted\n")
	if acts = findings(Run(e), "codex", Action); len(acts) != 1 || !strings.Contains(acts[0].Message, cfg+": toml: line 3") {
		t.Errorf("broken config.toml: %+v", acts)
	}
}

// A linked worktree is trusted with its main checkout.
func TestCodexTrustsWorktreeWithItsCheckout(t *testing.T) {
	main := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"},
		{"worktree", "add", "-q", filepath.Join(main, "wt")}} {
		if out, err := exec.Command("git", append([]string{"-C", main}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	wt := filepath.Join(main, "wt")
	if keys := trustKeys(wt); !slices.Equal(keys, append(pathForms(wt), pathForms(main)...)) {
		t.Errorf("trust keys of a worktree: %q", keys)
	}
	if keys := trustKeys(main); !slices.Equal(keys, pathForms(main)) {
		t.Errorf("trust keys of the checkout: %q", keys)
	}
}

func TestClaudeHooksOffInEveryFile(t *testing.T) {
	home, managed := t.TempDir(), t.TempDir()
	e := env(t)
	e.Places = Locate(fakeEnv(map[string]string{"HOME": home}), "linux")
	e.Places.ClaudeManaged = managed
	user := filepath.Join(home, ".claude", "settings.json")
	local := filepath.Join(e.Root, ".claude", "settings.local.json")
	off := "{\n  \"permissions\": {\"allow\": [\"Bash(make:*)\"]},\n  \"disableAllHooks\": true\n}\n"

	for _, c := range []struct {
		name, path, want string
	}{
		{"user", user, user + " turns every hook off (disableAllHooks: true), lore's too"},
		{"local", local, ".claude/settings.local.json turns every hook off (disableAllHooks: true), lore's too"},
		{"managed", filepath.Join(managed, "managed-settings.json"), "managed-settings.json turns every hook off"},
		{"drop-in", filepath.Join(managed, "managed-settings.d", "10-hooks.json"), "10-hooks.json turns every hook off"},
	} {
		write(t, c.path, off)
		acts := findings(Run(e), "claude", Action)
		if len(acts) != 1 || !strings.Contains(acts[0].Message, c.want) {
			t.Errorf("%s: %+v", c.name, acts)
		}
		os.Remove(c.path)
	}

	// The file of higher precedence decides: local false over user true.
	write(t, user, off)
	write(t, local, `{"disableAllHooks": false}`)
	if acts := findings(Run(e), "claude", Action); len(acts) != 0 {
		t.Errorf("local false over user true: %+v", acts)
	}
	// A user file Claude Code cannot read leaves it unmeasured, not broken.
	os.Remove(local)
	write(t, user, "{\n  \"disableAllHooks\": tru\n}")
	if r := Run(e); r.Action || len(findings(r, "claude", Info)) == 0 || !strings.Contains(findings(r, "claude", Info)[0].Message, "unmeasured") {
		t.Errorf("broken user settings: %+v", r.Findings)
	}
	os.Remove(user)
	write(t, filepath.Join(managed, "managed-settings.json"), `{"allowManagedHooksOnly": true}`)
	if acts := findings(Run(e), "claude", Action); len(acts) != 1 || !strings.Contains(acts[0].Message, "allows only managed hooks") {
		t.Errorf("allowManagedHooksOnly: %+v", acts)
	}
}

func TestGeminiTrust(t *testing.T) {
	e := env(t)
	install(t, e, "gemini")
	trusted := e.Places.GeminiTrusted

	acts := findings(Run(e), "gemini", Action)
	if len(acts) != 1 || !strings.Contains(acts[0].Message, "does not trust this folder") || !strings.Contains(acts[0].Fix, "not --skip-trust") ||
		!strings.Contains(acts[0].Fix, "GEMINI_CLI_TRUST_WORKSPACE=true") {
		t.Fatalf("untrusted: %+v", acts)
	}
	for _, c := range []struct {
		name, file string
		action     bool
	}{
		{"folder", fmt.Sprintf("{\n  %q: \"TRUST_FOLDER\"\n}", e.Root), false},
		{"parent", fmt.Sprintf(`{%q: "TRUST_PARENT"}`, filepath.Join(filepath.Dir(e.Root), "sibling")), false},
		{"longest rule wins", fmt.Sprintf(`{%q: "TRUST_FOLDER", %q: "DO_NOT_TRUST"}`, filepath.Dir(e.Root), e.Root), true},
		{"another folder", fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, e.Root+"-other"), true},
	} {
		write(t, trusted, c.file)
		if acts := findings(Run(e), "gemini", Action); (len(acts) > 0) != c.action {
			t.Errorf("%s: %+v", c.name, acts)
		}
	}
	write(t, trusted, "{")
	if acts := findings(Run(e), "gemini", Action); len(acts) != 1 || !strings.Contains(acts[0].Message, "refuses to start") {
		t.Errorf("broken trustedFolders.json: %+v", acts)
	}
	os.Remove(trusted)

	// Folder trust turned off in the user's settings trusts every folder;
	// the user's settings can also turn the hooks off.
	write(t, e.Places.GeminiUser, "{\n  // mine\n  \"security\": {\"folderTrust\": {\"enabled\": false}}\n}")
	if acts := findings(Run(e), "gemini", Action); len(acts) != 0 {
		t.Errorf("folder trust off: %+v", acts)
	}
	write(t, e.Places.GeminiUser, `{"security": {"folderTrust": {"enabled": false}}, "hooksConfig": {"enabled": false}}`)
	if acts := findings(Run(e), "gemini", Action); len(acts) != 1 || !strings.Contains(acts[0].Message, "settings.json turns every hook off (hooksConfig.enabled: false)") {
		t.Errorf("hooks off in user settings: %+v", acts)
	}
	os.Remove(e.Places.GeminiUser)
	e.Places.GeminiTrustEnv = "true"
	if r := Run(e); len(findings(r, "gemini", Action)) != 0 || len(findings(r, "gemini", Info)) != 1 {
		t.Errorf("GEMINI_CLI_TRUST_WORKSPACE=true: %+v", r.Findings)
	}
}
