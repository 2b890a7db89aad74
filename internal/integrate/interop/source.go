package interop

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/lore-agents/lore/internal/capture/scan"
)

// Sources are the kinds `lore import` reads from their usual places.
var Sources = []string{"lessons-learned", "cursor", "claude-rules", "copilot", "claude", "agents", "gemini", "adr", "devflow", "claude-memory", "windsurf", "cline"}

// sourceFiles are each kind's usual places, repo-relative.
var sourceFiles = map[string][]string{
	"cursor":       {".cursor/rules", ".cursorrules"},
	"claude-rules": {".claude/rules"},
	"copilot":      {".github/copilot-instructions.md", ".github/instructions"},
	"claude":       {"CLAUDE.md", ".claude/CLAUDE.md"},
	"agents":       {"AGENTS.md"},
	"gemini":       {"GEMINI.md"},
	"windsurf":     {".windsurf/rules", ".devin/rules", ".windsurfrules"},
	"cline":        {".clinerules", ".cline/rules"},
	"adr":          {"doc/adr", "docs/adr", "docs/decisions"},
	// Devflow moved its files twice: .memory/ (1.x), .devflow/decisions/,
	// .devflow/learning/ (today's).
	"devflow": {".devflow/learning/decisions.md", ".devflow/learning/pitfalls.md", ".devflow/learning/decisions-ledger.jsonl", ".devflow/learning/decisions-log.jsonl",
		".devflow/decisions/decisions.md", ".devflow/decisions/pitfalls.md", ".devflow/decisions/decisions-ledger.jsonl",
		".memory/knowledge/decisions.md", ".memory/knowledge/pitfalls.md", ".memory/learning-log.jsonl"},
}

// ReadSource plans an import from arg, a source kind (read from its usual
// places under root) or a file or folder (its kind known by its name).
func ReadSource(root, arg string) (Plan, error) {
	if arg == "lessons-learned" {
		return Plan{}, fmt.Errorf("import lessons-learned: give the path of its lesson-manifest.json (or a store export)")
	}
	if arg == "claude-memory" {
		return readClaudeMemory(root)
	}
	if places, ok := sourceFiles[arg]; ok {
		return readPlaces(root, arg, places)
	}
	abs, rel := argPaths(root, arg)
	kind, err := argKind(arg, abs, rel)
	if err != nil {
		return Plan{}, err
	}
	if kind == "lessons-learned" {
		return readLessonsFile(abs, rel)
	}
	p := Plan{Source: kind}
	if ok, err := p.readPath(filepath.Dir(abs), path.Base(rel), kind); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("import %s: %w", arg, fs.ErrNotExist)
		}
		return p, err
	}
	// Keys and notes name the path as the user gave it (repo-relative).
	p.under(path.Dir(rel))
	return p, nil
}

func readLessonsFile(abs, rel string) (Plan, error) {
	data, err := os.ReadFile(abs)
	if err != nil {
		return Plan{}, fmt.Errorf("import: %w", err)
	}
	return ReadLessonsLearned(rel, data)
}

// readPlaces reads a source kind from its usual places under root.
func readPlaces(root, kind string, places []string) (Plan, error) {
	p := Plan{Source: kind}
	found := false
	for _, rel := range places {
		ok, err := p.readPath(root, rel, kind)
		if err != nil {
			return p, err
		}
		found = found || ok
	}
	if !found {
		return p, fmt.Errorf("import %s: none of %s exists", kind, strings.Join(places, ", "))
	}
	return p, nil
}

// argPaths returns the absolute path of a file or folder argument, and
// its slash path relative to root when it is under root (else as given).
func argPaths(root, arg string) (abs, rel string) {
	abs = arg
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, arg)
	}
	rel = filepath.ToSlash(arg)
	if r, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(r, "..") {
		rel = filepath.ToSlash(r)
	}
	return abs, rel
}

// argKind knows the source kind of a file or folder argument by its name,
// or a folder of decision records by its files.
func argKind(arg, abs, rel string) (string, error) {
	if kind := kindOf(rel); kind != "" {
		return kind, nil
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() && hasADRs(abs) {
		return "adr", nil
	}
	return "", fmt.Errorf("import %s: not a source lore knows (one of %s, or a file of one)", arg, strings.Join(Sources, ", "))
}

// under puts the plan's keys and paths under the folder prefix.
func (p *Plan) under(prefix string) {
	for i := range p.Drafts {
		p.Drafts[i].Key = path.Join(prefix, p.Drafts[i].Key)
		p.Drafts[i].From = path.Join(prefix, p.Drafts[i].From)
		for j, s := range p.Drafts[i].Supersedes {
			p.Drafts[i].Supersedes[j] = path.Join(prefix, s)
		}
	}
	for i := range p.Notes {
		p.Notes[i].From = path.Join(prefix, p.Notes[i].From)
	}
}

// kindOf knows a source by its path.
func kindOf(rel string) string {
	base := path.Base(rel)
	switch {
	case strings.Contains("/"+rel, "/.claude/projects/") && strings.Contains(rel, "/memory"),
		strings.Contains("/"+rel+"/", "/.claude/memory/"): // autoMemoryDirectory in the repository
		return "claude-memory"
	case strings.Contains("/"+rel, "/.memory/knowledge"), strings.Contains("/"+rel, "/.devflow/decisions"),
		strings.Contains("/"+rel, "/.devflow/learning"), devflowLogs[base]:
		return "devflow"
	case strings.HasSuffix(base, ".json"):
		return "lessons-learned"
	case strings.HasSuffix(base, ".mdc"), base == ".cursorrules", strings.HasSuffix(rel, ".cursor/rules"):
		return "cursor"
	case strings.Contains("/"+rel, "/.windsurf/rules"), strings.Contains("/"+rel, "/.devin/rules"), base == ".windsurfrules":
		return "windsurf"
	case strings.Contains("/"+rel, "/.clinerules"), strings.Contains("/"+rel, "/.cline/rules"):
		return "cline"
	case strings.Contains("/"+rel, "/.claude/rules"):
		return "claude-rules"
	case strings.HasSuffix(base, ".instructions.md"), base == "copilot-instructions.md", strings.HasSuffix(rel, ".github/instructions"):
		return "copilot"
	case base == "CLAUDE.md":
		return "claude"
	case base == "AGENTS.md":
		return "agents"
	case base == "GEMINI.md":
		return "gemini"
	case IsADRFile(base):
		return "adr"
	}
	return ""
}

func hasADRs(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if IsADRFile(e.Name()) {
			return true
		}
	}
	return false
}

// readPath reads rel (a file, or a folder walked in name order) under
// base as kind; false when it does not exist. Symlinks are not followed.
func (p *Plan) readPath(base, rel, kind string) (bool, error) {
	abs := filepath.Join(base, filepath.FromSlash(rel))
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("import: %w", err)
	}
	if !fi.IsDir() {
		return true, p.readFile(abs, rel, kind)
	}
	files, err := regularFiles(base, abs)
	if err != nil {
		return false, err
	}
	for _, f := range files {
		if err := p.readFile(filepath.Join(base, filepath.FromSlash(f)), f, kind); err != nil {
			return true, err
		}
	}
	return true, nil
}

// regularFiles returns the regular files under dir, as sorted slash paths
// relative to base.
func regularFiles(base, dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			r, _ := filepath.Rel(base, f)
			files = append(files, filepath.ToSlash(r))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	sort.Strings(files)
	return files, nil
}

// fileReaders are the files of each source kind and how each is read,
// in order: the first that takes a file reads it.
var fileReaders = []struct {
	kind  string
	takes func(rel string) bool
	read  func(p *Plan, rel string, data []byte)
}{
	{"cursor", suffix(".mdc"), (*Plan).ReadCursorRule},
	{"claude-rules", suffix(".md"), (*Plan).ReadClaudeRule},
	{"copilot", suffix(".instructions.md"), (*Plan).ReadCopilotInstructions},
	{"adr", base(IsADRFile), (*Plan).ReadADR},
	{"devflow", named("decisions.md", "pitfalls.md"), (*Plan).ReadDevflow},
	{"devflow", base(func(b string) bool { return devflowLogs[b] }), (*Plan).ReadDevflowLog},
	{"claude-memory", suffix(".md"), (*Plan).ReadClaudeMemory},
	{"windsurf", named(".windsurfrules"), (*Plan).ReadSections},
	{"windsurf", suffix(".md"), (*Plan).ReadWindsurfRule},
	{"cline", named(".clinerules"), (*Plan).ReadSections},
	{"cline", clineRule, (*Plan).ReadClineRule},
	{"cursor", named(".cursorrules"), (*Plan).ReadSections},
	{"copilot", named("copilot-instructions.md"), (*Plan).ReadSections},
	{"claude", anyFile, (*Plan).ReadSections},
	{"agents", anyFile, (*Plan).ReadSections},
	{"gemini", anyFile, (*Plan).ReadSections},
}

// base makes a test of a file's name a test of its path.
func base(takes func(string) bool) func(string) bool {
	return func(rel string) bool { return takes(path.Base(rel)) }
}

func suffix(ext string) func(string) bool {
	return base(func(b string) bool { return strings.HasSuffix(b, ext) })
}

func named(names ...string) func(string) bool {
	return base(func(b string) bool { return slices.Contains(names, b) })
}

func anyFile(string) bool { return true }

// readFile reads one file of a source kind; files of other kinds in its
// folders (images, templates) are left alone.
func (p *Plan) readFile(abs, rel, kind string) error {
	for _, r := range fileReaders {
		if r.kind != kind || !r.takes(rel) {
			continue
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		r.read(p, rel, data)
		return nil
	}
	if kind == "adr" && strings.HasSuffix(rel, ".md") {
		// A record numbered otherwise would vanish without a word.
		p.note(rel, "", "not read as a decision record: its name does not start with a number (0001-title.md)")
	}
	return nil
}

// readClaudeMemory reads Claude Code's auto memory of the repository at
// root: <config>/projects/<root, dashed>/memory/ (the folder lore's scan
// reads transcripts from). Keys are relative to that folder, so they name
// no one's home.
func readClaudeMemory(root string) (Plan, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Plan{}, fmt.Errorf("import claude-memory: %w", err)
	}
	p := Plan{Source: "claude-memory"}
	for _, dir := range scan.DefaultPaths(root, home) {
		if !strings.Contains(filepath.ToSlash(dir), "/projects/") {
			continue
		}
		ok, err := p.readPath(dir, "memory", "claude-memory")
		if err != nil || ok {
			return p, err
		}
	}
	return p, fmt.Errorf("import claude-memory: no auto memory for %s under ~/.claude/projects (or $CLAUDE_CONFIG_DIR)", root)
}
