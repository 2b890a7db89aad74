package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/app/doctor"
	"github.com/lore-agents/lore/internal/testrepo"
)

// doctorMessages are the report's findings as "level check: message".
func doctorMessages(r doctor.Report) string {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s %s: %s\n", f.Level, f.Check, f.Message)
	}
	return b.String()
}

// Doctor reads the agents' files where getenv says they are, never the
// developer's own, and a fresh init with Claude Code needs no action.
func TestDoctorReadsTheAgentsFilesFromGetenv(t *testing.T) {
	s := testrepo.New(t).Store()
	if _, err := Init(s, InitOptions{GitHooks: true, Agents: []string{"claude"}}); err != nil {
		t.Fatal(err)
	}
	home, codexHome := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home, "CODEX_HOME": codexHome}
	getenv := func(k string) string { return env[k] }

	r := Doctor(s, getenv)
	if got := doctorMessages(r); !strings.Contains(got, "info manifest: no manifest yet") || strings.Contains(got, "action claude") {
		t.Errorf("fresh init:\n%s", got)
	}

	// The user's settings under HOME turn the hooks off.
	user := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte("{\n  \"disableAllHooks\": true\n}\n"), 0o644)
	if got := doctorMessages(Doctor(s, getenv)); !strings.Contains(got, "action claude: "+user+" turns every hook off (disableAllHooks: true)") {
		t.Errorf("user settings:\n%s", got)
	}

	// Codex's config.toml comes from CODEX_HOME, Gemini's trusted folders
	// from HOME.
	if _, err := Init(s, InitOptions{Agents: []string{"codex", "gemini"}}); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(codexHome, "config.toml")
	os.WriteFile(config, []byte(fmt.Sprintf("[projects.%q]\ntrust_level = \"untrusted\"\n", s.Root)), 0o644)
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(home, ".gemini", "trustedFolders.json"), []byte(fmt.Sprintf("{\n  %q: \"TRUST_FOLDER\"\n}", s.Root)), 0o600)
	got := doctorMessages(Doctor(s, getenv))
	if !strings.Contains(got, "action codex: "+config+" marks "+s.Root+` "untrusted"`) || strings.Contains(got, "action gemini") {
		t.Errorf("codex and gemini:\n%s", got)
	}
}
