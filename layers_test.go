package lore

import (
	"os/exec"
	"strings"
	"testing"
)

// The layers, bottom up (docs/architecture.md, Layers): a package may
// import packages of its own group and of the groups below it, never one
// above. inject is the lowest so that lore-hook, which links only it,
// stays small.
var layers = []string{
	"internal/inject",    // hooks, manifest, match, protocol, signals, ledger
	"internal/knowledge", // markdown, config, lint, compile, redact
	"internal/store",     // gitstore: the repository, the only writer of .lore/; sources: fetched organisation stores
	"internal/capture",   // scan, review, observe, learn
	"internal/lifecycle", // ages, consolidate
	"internal/integrate", // agent, githooks, interop
	"internal/app",       // the use cases, and doctor
	"cmd",                // lore and lore-hook
}

// leaves are the small shared packages under internal/ that every layer
// may import, each with the lore packages it may import itself. The test
// support packages (testrepo and synthetic build repositories and items;
// benchproc and fuzzlimit) are for tests only: see libraryRules.
var leaves = map[string][]string{
	"internal/filewrite": nil, "internal/lazyre": nil, "internal/lorepath": nil, "internal/textcut": nil,
	"internal/version": nil, "internal/parallel": nil, "internal/sysread": nil,
	"internal/benchproc": nil, "internal/fuzzlimit": nil,
	"internal/testrepo":  {"internal/store/gitstore", "internal/lorepath"},
	"internal/synthetic": {"internal/knowledge/markdown"},
}

const mod = "github.com/lore-agents/lore/"

// cliImports are the lore packages cmd/lore may import besides the
// leaves: a command reads flags, makes one call into app and prints what
// comes back. The others are here for the names the printers use; a
// use case reached past app (integrate, lifecycle, scan, review, the
// store's writers) does not belong on the list.
var cliImports = []string{
	"internal/app",
	"internal/store/gitstore",     // the store kong hands each command
	"internal/knowledge/markdown", // the items show prints, and lore add's Spec
	"internal/inject/hooks",       // lore hook is the hook
	"internal/app/mcpserver",      // lore mcp is the MCP server, a front end over app
	// Types and constants the printers name: delivery kinds, severities,
	// match results, observation types and thresholds, learn outcomes,
	// the signal floor.
	"internal/knowledge/compile", "internal/knowledge/lint", "internal/inject/match",
	"internal/capture/observe", "internal/capture/learn", "internal/inject/signals",
}

// libraryRules keep each library, and a few lore packages, to the
// packages that own what they do.
var libraryRules = []struct {
	dep     string
	allowed func(pkg string) bool
	why     string
}{
	{"github.com/go-git/go-git", is("internal/store/gitstore", "internal/store/sources"), "only the store reads git (the repository, and the organisation stores it fetches)"},
	{"github.com/alecthomas/kong", is("cmd/lore"), "flags are parsed in the CLI"},
	{"github.com/jotaen/kong-completion", is("cmd/lore"), "flags are parsed in the CLI"},
	{"github.com/modelcontextprotocol/go-sdk", is("internal/app/mcpserver"), "the MCP protocol is spoken in mcpserver"},
	{"github.com/yuin/goldmark", is("internal/knowledge/markdown", "internal/store/gitstore"), "Markdown is parsed in markdown (and the store's heading index)"},
	// A command reads flags, calls the application layer and prints:
	// naming new items and file formats live below it.
	{"github.com/oklog/ulid", not("cmd/lore"), "items are named below the CLI"},
	{"gopkg.in/yaml.v3", not("cmd/lore"), "file formats live below the CLI"},
	{"github.com/gofrs/flock", not("cmd/lore"), "the store takes its locks"},
	// The transcript scanner reads files it is given; it never opens the store.
	{mod + "internal/store/gitstore", not("internal/capture/scan"), "scan is pure: the store is opened by its callers"},
	// Test support, for tests only (test imports are not listed); the
	// Makefile's deadcode target names the same packages.
	{mod + "internal/testrepo", never, "test support, for tests only"},
	{mod + "internal/synthetic", never, "test support, for tests only"},
	{mod + "internal/benchproc", never, "test support, for tests only"},
	{mod + "internal/fuzzlimit", never, "test support, for tests only"},
}

// TestLayers enforces the one-way dependencies between the groups and the
// library rules, on what `go list` says each package imports.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 15 {
		t.Fatalf("only %d packages listed", len(lines))
	}
	for _, v := range layerViolations(lines) {
		t.Error(v)
	}
}

// TestLayersCatch holds the check to the imports it must refuse.
func TestLayersCatch(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{mod + "internal/inject/match:" + mod + "internal/knowledge/markdown", "imports a layer above it"},
		{mod + "internal/store/gitstore:" + mod + "internal/app", "imports a layer above it"},
		{mod + "internal/knowledge/lint:" + mod + "cmd/lore", "imports a layer above it"},
		{mod + "internal/lorepath:" + mod + "internal/knowledge/config", "a leaf imports"},
		{mod + "internal/app/doctor:github.com/go-git/go-git/v5", "only the store reads git"},
		{mod + "internal/capture/scan:" + mod + "internal/store/gitstore", "scan is pure"},
		{mod + "internal/capture/scan:" + mod + "internal/wherever", "belongs to no layer"},
		{mod + "internal/app:" + mod + "internal/synthetic", "test support"},
		{mod + "cmd/lore:" + mod + "internal/integrate/interop", "past app"},
		{mod + "cmd/lore:" + mod + "internal/lifecycle/consolidate", "past app"},
	} {
		got := layerViolations([]string{c.line})
		if len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%s: got %q, want one violation saying %q", c.line, got, c.want)
		}
	}
	for _, ok := range []string{
		mod + "internal/capture/review:" + mod + "internal/store/gitstore " + mod + "internal/capture/scan " + mod + "internal/lorepath fmt",
		mod + "cmd/lore:" + mod + "internal/app " + mod + "internal/knowledge/markdown " + mod + "internal/lorepath",
	} {
		if got := layerViolations([]string{ok}); len(got) != 0 {
			t.Errorf("downward and sideways imports refused: %q", got)
		}
	}
}

// layerViolations checks `go list` lines of the form "pkg:imp imp ...".
func layerViolations(lines []string) []string {
	var bad []string
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(pkg, mod)
		if strings.HasPrefix(pkg, "tmp/") {
			continue // scratch programs, never committed
		}
		for _, imp := range strings.Fields(imports) {
			if why := refused(pkg, imp); why != "" {
				bad = append(bad, pkg+" imports "+imp+": "+why+" (docs/architecture.md)")
			}
		}
	}
	return bad
}

// refused says why pkg may not import imp ("" when it may).
func refused(pkg, imp string) string {
	for _, r := range libraryRules {
		if strings.HasPrefix(imp, r.dep) && !r.allowed(pkg) {
			return r.why
		}
	}
	dep, ours := strings.CutPrefix(imp, mod)
	if !ours {
		return ""
	}
	if allowed, leaf := leaves[pkg]; leaf {
		if !is(allowed...)(dep) {
			return "a leaf imports no other lore package"
		}
		return ""
	}
	if _, leaf := leaves[dep]; leaf {
		return ""
	}
	if pkg == "cmd/lore" && !is(cliImports...)(dep) {
		return "cmd/lore reaches a use case past app (cliImports)"
	}
	from, to := layerOf(pkg), layerOf(dep)
	switch {
	case pkg == "" || pkg == "e2e":
		return "" // the root (embedded files) and the end-to-end tests
	case from < 0 || to < 0:
		return "belongs to no layer: add its group to layers"
	case to > from:
		return "imports a layer above it"
	}
	return ""
}

func layerOf(pkg string) int {
	for i, l := range layers {
		if pkg == l || strings.HasPrefix(pkg, l+"/") {
			return i
		}
	}
	return -1
}

func is(list ...string) func(string) bool {
	return func(p string) bool {
		for _, x := range list {
			if p == x {
				return true
			}
		}
		return false
	}
}

func never(string) bool { return false }

func not(list ...string) func(string) bool {
	in := is(list...)
	return func(p string) bool { return !in(p) }
}
