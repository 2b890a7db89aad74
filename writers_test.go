package lore

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// One owner per write (docs/architecture.md, One writer): the store is the only
// code that creates, renames, removes or rewrites a file under .lore/.
// TestOneWriter parses every non-test Go file of the module and fails on a call
// that writes a file from any package but the store's, unless the (package,
// function) site is in writeAllowed with the reason its path lies outside
// .lore/.

const module = "github.com/lore-agents/lore/"

// storePackages may call every writing function: the store and the write
// primitives it is built on.
var storePackages = map[string]bool{"internal/store/gitstore": true, "internal/filewrite": true,
	"internal/store/sources": true} // sources writes only lore's cache folder of fetched organisation stores

// writeFuncs are the writing functions by import path, each with what a
// caller outside the store uses instead ("" for the whole package).
var writeFuncs = map[string]map[string]string{
	"os": {
		"Create": "s.WriteLocked(rel, data)", "OpenFile": "s.WriteLocked, s.AppendLocked or s.OpenLog(rel)",
		"WriteFile": "s.WriteLocked(rel, data) (s.WriteFile takes the lock)", "Rename": "s.RenameLocked(from, to)",
		"Remove": "s.RemoveLocked(rel)", "RemoveAll": "s.RemoveLocked(rel)", "Mkdir": "s.MkdirAll(rel)",
		"MkdirAll": "s.MkdirAll(rel)", "MkdirTemp": "a store method", "Symlink": "a store method", "Link": "a store method",
		"CreateTemp": "s.WriteLocked(rel, data)", "Truncate": "s.WriteLocked(rel, data)", "Chmod": "a store method",
		"Chtimes": "a store method", "Chown": "a store method", "Lchown": "a store method",
	},
	"io/ioutil":                        {"WriteFile": "s.WriteLocked(rel, data)", "TempFile": "a store method", "TempDir": "a store method"},
	"github.com/google/renameio":       {"": "s.WriteLocked(rel, data)"},
	"github.com/google/renameio/v2":    {"": "s.WriteLocked(rel, data)"},
	"github.com/gofrs/flock":           {"New": "a gitstore lock method (beside s.Lock and s.BuildLock)"},
	module + "internal/filewrite":      {"": "the gitstore.Store method of the same write"},
	module + "internal/store/gitstore": {"Remove": "s.RemoveLocked(rel)"},
	"github.com/natefinch/atomic":      {"": "s.WriteLocked(rel, data)"},
	"github.com/go-git/go-billy/v5/":   {"": "a store method"},
}

// readOnly are functions of a writing package that write nothing.
var readOnly = map[string]bool{module + "internal/filewrite.Lock": true, module + "internal/filewrite.NotPrivate": true}

// writeAllowed are the sites outside the store that write, as
// "package.Function" (a method as "package.Type.Method"), each with why
// the path it writes is not the store's or how it is kept in line.
var writeAllowed = map[string]string{
	"internal/inject/hooks.session.ensure":         "the hook's session state in the user's state folder, through filewrite (the hook cannot link gitstore)",
	"internal/inject/hooks.session.claim":          "the hook's session state in the user's state folder, through filewrite",
	"internal/inject/hooks.session.wipe":           "the hook's session state in the user's state folder, through filewrite",
	"internal/inject/hooks.session.unclaim":        "the hook's session state in the user's state folder, through filewrite",
	"internal/inject/hooks.session.addPrompt":      "the hook's session state in the user's state folder, through filewrite",
	"internal/inject/hooks.handler.markSubagent":   "the hook's session state in the user's state folder, through filewrite",
	"internal/inject/hooks.session.private":        "the user's state folder made and checked private, through filewrite",
	"internal/inject/hooks.handler.notePassedOver": "the note of a state folder passed over, in the user's state folder, through filewrite",
	"internal/inject/hooks.cacheStateDir":          "the parent of the state folder of last resort, in lore's folder of the user's cache",
	"internal/capture/scan.openInput":              "nothing: opens a transcript read-only (O_NONBLOCK, so a pipe cannot block the open)",
	"internal/inject/hooks.sweepUntil":             "the sweep's marker in the user's state folder, through filewrite",
	"internal/inject/hooks.sweepEntry":             "old sessions' state in the user's state folder, through filewrite",
	"internal/inject/hooks.appendLog":              "the hook's log in .lore/cache, through filewrite: the hook cannot link gitstore (internal/inject/hooks/deps_test.go)",
	"internal/inject/hooks.handler.rebuild":        "the build lock in .lore/cache, through filewrite: the hook cannot link gitstore",
	"internal/inject/hooks.handler.startBuild":     "the hook log in .lore/cache as the build's stderr, through filewrite: the hook cannot link gitstore",
	"internal/inject/hooks.handler.markIfEditing":  "the edit mark in .lore/cache, through filewrite: the hook cannot link gitstore",
	"internal/inject/ledger.appendFile":            "the hook's ledger in .lore/local, through filewrite (else appendLine's system calls): the hook cannot link gitstore (internal/inject/hooks/deps_test.go)",
	"internal/inject/ledger.rotate":                "the hook's ledger rotated in .lore/local under its lock, through filewrite: the hook cannot link gitstore",
	"internal/integrate/githooks.installPrivate":   "lore's hook scripts in a hook manager's private folder under .git, outside .lore/",
	"internal/integrate/githooks.chainForeign":     "the user's git hook moved aside under .git/hooks, outside .lore/",
	"internal/integrate/githooks.Uninstall":        "the private hook folder under .git, outside .lore/",
	"internal/integrate/githooks.uninstallPrivate": "lore's hook scripts in the private folder under .git, outside .lore/",
	"internal/integrate/githooks.uninstallScript":  "git hook scripts under .git/hooks or core.hooksPath, outside .lore/",
	"internal/integrate/githooks.unlink":           "an older lore's git hook links under .git/hooks, outside .lore/",
	"internal/integrate/githooks.write":            "git hook scripts under .git/hooks or core.hooksPath, outside .lore/",
	"internal/integrate/agent.Agent.unregister":    "the agents' settings files (.claude/, .codex/, a home folder), outside .lore/",
	"internal/integrate/agent.removeFile":          "the agents' settings files, outside .lore/",
	"internal/integrate/agent.removeEmptyDirs":     "the agents' settings folders, outside .lore/",
	"internal/integrate/agent.writeFile":           "the agents' settings files, outside .lore/ (filewrite.Replace, no link followed)",
	"internal/integrate/agent.MCPClient.Uninstall": "the agents' MCP files (.mcp.json, .cursor/, .vscode/, .gemini/), outside .lore/",
	"internal/app.ExternalEditor":                  "the draft handed to $EDITOR, in a folder of os.TempDir, outside the work tree",

	// Only tests import testrepo (layers_test.go).
	"internal/testrepo.Repo.Mkdir": "test fixtures in a throwaway repository",
	"internal/testrepo.WriteFile":  "test fixtures in a throwaway repository or the test's own folders",
	"internal/testrepo.Hermetic":   "makes and removes the temp dir a test package ran in",
	// Only benchmarks import benchproc.
	"internal/benchproc.Settle": "a benchmark's binary, copied into its temp dir",
}

// writeSite is one call of a writing function.
type writeSite struct {
	pos  token.Position
	site string // package.Function
	call string // import path and name, e.g. os.Rename
	use  string // what to use instead
}

// writeSites finds the calls of writing functions in one parsed file of
// package pkg (its folder relative to the module root).
func writeSites(fset *token.FileSet, f *ast.File, pkg string) []writeSite {
	imports := map[string]string{} // local name -> import path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if strings.HasPrefix(name, "v") && strings.Trim(name[1:], "0123456789") == "" && strings.Contains(p, "/") {
			base := strings.TrimSuffix(p, "/"+name) // a major version suffix: renameio/v2 is renameio
			name = base[strings.LastIndex(base, "/")+1:]
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	var out []writeSite
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		site := pkg + "." + funcName(fn)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if w, ok := writeCall(call, imports); ok {
					w.pos, w.site = fset.Position(call.Pos()), site
					out = append(out, w)
				}
			}
			return true
		})
	}
	return out
}

// funcName is a function's name, a method's as Type.Method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok { // a generic receiver
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// writeCall reports whether call is pkg.Func of a writing function.
func writeCall(call *ast.CallExpr, imports map[string]string) (writeSite, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return writeSite{}, false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return writeSite{}, false
	}
	path, ok := imports[id.Name]
	if !ok || readOnly[path+"."+sel.Sel.Name] {
		return writeSite{}, false
	}
	for prefix, funcs := range writeFuncs {
		if path != prefix && !(strings.HasSuffix(prefix, "/") && strings.HasPrefix(path, prefix)) {
			continue
		}
		use, named := funcs[sel.Sel.Name]
		if whole, all := funcs[""]; all {
			use, named = whole, true
		}
		if !named || path == "os" && sel.Sel.Name == "OpenFile" && opensDevNull(call) {
			return writeSite{}, false
		}
		return writeSite{call: strings.TrimPrefix(path, module) + "." + sel.Sel.Name, use: use}, true
	}
	return writeSite{}, false
}

// opensDevNull: os.OpenFile(os.DevNull, ...) gives a child process its
// empty stdio and writes no file.
func opensDevNull(call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	sel, ok := call.Args[0].(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "DevNull"
}

// moduleWriteSites parses every non-test .go file of the module.
func moduleWriteSites(t *testing.T) (sites []writeSite, files int) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "tmp" || name == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		sites = append(sites, writeSites(fset, f, filepath.ToSlash(filepath.Dir(p)))...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sites, files
}

func TestOneWriter(t *testing.T) {
	sites, files := moduleWriteSites(t)
	if files < 50 {
		t.Fatalf("only %d Go files parsed", files)
	}
	sort.Slice(sites, func(a, b int) bool {
		pa, pb := sites[a].pos, sites[b].pos
		return pa.Filename < pb.Filename || pa.Filename == pb.Filename && pa.Line < pb.Line
	})
	used := map[string]bool{}
	for _, w := range sites {
		pkg, _, _ := strings.Cut(w.site, ".")
		if storePackages[pkg] {
			continue
		}
		if _, ok := writeAllowed[w.site]; ok {
			used[w.site] = true
			continue
		}
		t.Errorf("%s: %s calls %s: only the store writes files; use %s", w.pos, w.site, w.call, w.use)
	}
	for site := range writeAllowed {
		if !used[site] {
			t.Errorf("writeAllowed names %s, which writes nothing: remove the entry", site)
		}
	}
}

// TestOneWriterCatches proves the check fails on the calls it is for and
// passes the ones it must not flag.
func TestOneWriterCatches(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // the calls found, in order
	}{
		{"os.WriteFile", `import "os"; func f() { os.WriteFile("x", nil, 0o644) }`, []string{"os.WriteFile"}},
		{"os.Remove in a method", `import "os"; type T struct{}; func (t *T) m() { _ = os.Remove("x") }`, []string{"os.Remove"}},
		{"renamed import", `import xos "os"; func f() { xos.MkdirAll("d", 0o755) }`, []string{"os.MkdirAll"}},
		{"renameio", `import "github.com/google/renameio/v2"; func f() { renameio.WriteFile("x", nil, 0o644) }`, []string{"github.com/google/renameio/v2.WriteFile"}},
		{"gitstore package-level write", `import "github.com/lore-agents/lore/internal/store/gitstore"; func f() { gitstore.Remove("x") }`, []string{"internal/store/gitstore.Remove"}},
		{"filewrite outside the store", `import "github.com/lore-agents/lore/internal/filewrite"; func f() { filewrite.Append("x", nil, filewrite.Options{}) }`, []string{"internal/filewrite.Append"}},
		{"os.OpenFile of a file", `import "os"; func f() { os.OpenFile("x", os.O_RDONLY, 0) }`, []string{"os.OpenFile"}},
		{"store method: not flagged", `import "github.com/lore-agents/lore/internal/store/gitstore"; func f(s *gitstore.Store) { s.WriteLocked("x", nil) }`, nil},
		{"reads: not flagged", `import "os"; func f() { os.ReadFile("x"); os.Stat("x") }`, nil},
		{"/dev/null: not flagged", `import "os"; func f() { os.OpenFile(os.DevNull, os.O_RDWR, 0) }`, nil},
		{"a local named os, no import: not flagged", `func f() { var os fake; os.Remove("x") }`, nil},
		{"filewrite.Lock: not flagged", `import ("os"; "github.com/lore-agents/lore/internal/filewrite"); func f(x *os.File) { filewrite.Lock(x) }`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", "package x\n"+tt.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range writeSites(fset, f, "x") {
				got = append(got, w.call)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("found %v, want %v", got, tt.want)
			}
		})
	}
}
