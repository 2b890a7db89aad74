package lore

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayers enforces the one-way dependencies of docs/architecture.md, The
// dependency rule (what depguard would): go-git only in gitstore, kong only in
// cmd/lore, and the pure packages free of git, the CLI and the file formats
// they do not own.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/lore-agents/lore/"
	rules := []struct {
		dep     string
		allowed func(pkg string) bool
	}{
		{"github.com/go-git/go-git", func(p string) bool { return p == "gitstore" }},
		{"github.com/alecthomas/kong", func(p string) bool { return p == "cmd/lore" }},
		{"github.com/jotaen/kong-completion", func(p string) bool { return p == "cmd/lore" }},
		{"github.com/yuin/goldmark", func(p string) bool { return p == "markdown" || p == "gitstore" }},
		{mod + "gitstore", func(p string) bool {
			return !in(p, "markdown", "config", "match", "manifest", "hooks", "redact", "scan", "compile", "lint")
		}},
		{mod + "cmd/", func(string) bool { return false }},
		// Test support, for tests only (test imports are not listed); the
		// Makefile's deadcode target names the same packages.
		{mod + "internal/testrepo", func(string) bool { return false }},
		{mod + "internal/synthetic", func(string) bool { return false }},
		{mod + "internal/benchproc", func(string) bool { return false }},
		{mod + "internal/fuzzlimit", func(string) bool { return false }},
		// A command reads flags, calls the application layer and prints:
		// locking (any flock package, checked below), naming new items and
		// file formats live below it.
		{"github.com/oklog/ulid", notCLI},
		{"gopkg.in/yaml.v3", notCLI},
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, mod)
		if strings.HasPrefix(pkg, "tmp/") {
			continue // scratch programs, never committed
		}
		checked++
		for _, imp := range strings.Fields(imports) {
			if pkg == "cmd/lore" && strings.Contains(imp, "flock") {
				t.Errorf("cmd/lore imports %s: not allowed by the layering (docs/architecture.md): the store takes its locks", imp)
			}
			for _, r := range rules {
				if strings.HasPrefix(imp, r.dep) && !r.allowed(pkg) {
					t.Errorf("%s imports %s: not allowed by the layering (docs/architecture.md)", pkg, imp)
				}
			}
		}
	}
	if checked < 15 {
		t.Fatalf("only %d packages listed", checked)
	}
}

func notCLI(p string) bool { return p != "cmd/lore" }

func in(p string, list ...string) bool {
	for _, x := range list {
		if p == x {
			return true
		}
	}
	return false
}
