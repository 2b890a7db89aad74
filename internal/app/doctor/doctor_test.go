package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-agents/lore/internal/integrate/agent"
	"github.com/lore-agents/lore/internal/integrate/githooks"
)

// env is a chain with every link working, in a folder where Claude Code
// is registered; tests break one link at a time.
func env(t *testing.T) Env {
	root := t.TempDir()
	data, err := agent.Named("claude").Merge(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return Env{
		Root:     root,
		Places:   Locate(fakeEnv(map[string]string{"HOME": t.TempDir()}), "linux"),
		LookPath: func(name string) (string, error) { return "/bin/" + name, nil },
		Version:  func(string) (string, error) { return "v1.2.0", nil },
		Manifest: func() (Freshness, error) { return Fresh, nil },
		GitHooks: func() (githooks.Report, error) {
			return githooks.Report{Hooks: []githooks.Hook{{Name: "post-commit", State: githooks.Chained}}}, nil
		},
		Lint: func() (LintCounts, error) { return LintCounts{}, nil },
	}
}

func find(r Report, check string, level Level) *Finding {
	for i, f := range r.Findings {
		if f.Check == check && f.Level == level {
			return &r.Findings[i]
		}
	}
	return nil
}

func TestHealthyChain(t *testing.T) {
	r := Run(env(t))
	if r.Action {
		t.Errorf("a working chain needs action: %+v", r.Findings)
	}
	if f := find(r, "binaries", OK); f == nil || !strings.Contains(f.Message, "v1.2.0") {
		t.Errorf("binaries: %+v", r.Findings)
	}
	if find(r, "claude", OK) == nil || find(r, "gemini", Info) == nil {
		t.Errorf("agents: %+v", r.Findings)
	}
}

func TestVersionMismatch(t *testing.T) {
	e := env(t)
	e.Version = func(p string) (string, error) {
		if strings.HasSuffix(p, "lore-hook") {
			return "v1.1.0", nil
		}
		return "v1.2.0", nil
	}
	r := Run(e)
	f := find(r, "binaries", Action)
	if !r.Action || f == nil || !strings.Contains(f.Message, "lore v1.2.0") || !strings.Contains(f.Message, "lore-hook v1.1.0") || f.Fix == "" {
		t.Errorf("version mismatch not reported: %+v", r.Findings)
	}
	e.Version = func(string) (string, error) { return "", errors.New("not a Go binary") }
	if r := Run(e); r.Action || find(r, "binaries", Info) == nil {
		t.Errorf("unknown versions must be info: %+v", r.Findings)
	}
}

func TestManagedHooksNameTheStep(t *testing.T) {
	e := env(t)
	e.GitHooks = func() (githooks.Report, error) {
		return githooks.Report{Manager: "husky", Hooks: []githooks.Hook{{Name: "post-merge", State: githooks.Managed, Step: "add this line to .husky/post-merge: sh x"}}}, nil
	}
	r := Run(e)
	f := find(r, "githooks", Action)
	if f == nil || !strings.Contains(f.Message, "post-merge (not wired into husky)") || !strings.Contains(f.Fix, ".husky/post-merge") {
		t.Errorf("managed hooks: %+v", r.Findings)
	}
}

func TestBrokenSettingsNameTheLine(t *testing.T) {
	e := env(t)
	os.MkdirAll(filepath.Join(e.Root, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(e.Root, ".gemini", "settings.json"), []byte("{\n  \"hooks\": {,\n}"), 0o644)
	r := Run(e)
	f := find(r, "gemini", Action)
	if f == nil || !strings.Contains(f.Message, ".gemini/settings.json:2: ") {
		t.Errorf("broken settings: %+v", r.Findings)
	}
}

func TestHooksTurnedOff(t *testing.T) {
	e := env(t)
	p := filepath.Join(e.Root, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	data, err := agent.Named("gemini").Merge([]byte("{\n  \"hooksConfig\": {\"enabled\": false}\n}\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, data, 0o644)
	r := Run(e)
	f := find(r, "gemini", Action)
	if f == nil || f.Message != ".gemini/settings.json turns every hook off (hooksConfig.enabled: false), lore's too" {
		t.Errorf("hooks turned off: %+v", r.Findings)
	}
	if find(r, "claude", OK) == nil {
		t.Errorf("claude: %+v", r.Findings)
	}
}
