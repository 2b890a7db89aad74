// Package lint checks a whole knowledge store the way a reviewer should see
// it in a pull request: every item against the format (markdown.Validate),
// the store as a whole (duplicate ids and PF-/ADR- refs), text an agent
// would be fed (invisible or bidi unicode, secrets, pipelines from a network
// fetcher into a shell, oversized items), triggers that would fire on
// almost every call, config.yaml and the learnings file. Fix computes the
// two automatic rewrites (a trailing negative lookahead into unless, and
// renumbering of duplicate refs) as file changes for the caller to write.
//
// It is pure: the caller reads the files and writes the changes.
package lint

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
)

// MaxItemBytes is the largest item file lint accepts. An item is injected
// whole or by its title; 16 KiB is four times the default injection budget,
// far beyond any useful lesson, and small enough to review in one screen
// of a diff.
const MaxItemBytes = 16 << 10

// File is one file of the store by its repo-relative, slash-separated path.
type File struct {
	Path string
	Data []byte
}

// Store is what lint reads.
type Store struct {
	Items     []File   // every regular file in .lore/lessons, pitfalls and decisions
	Config    *File    // .lore/config.yaml, nil when absent
	Learnings *File    // the learnings file, nil when absent
	Temps     []string // temp files killed lore writes left behind
	// Links are the symbolic links under .lore and along the learnings
	// path, repo-relative: lore never writes through them.
	Links []string
	// NewMatcher runs the items' examples (compile.NewMatcher); nil: they
	// are not run.
	NewMatcher NewMatcher
	// Files are HEAD's files (gitstore.Store.HeadFiles), for the stale
	// check; nil: unknown, no item is judged stale.
	Files []string
}

// Severity of a finding.
type Severity string

// Severities: errors fail lint; warnings only with --strict.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one problem, located by file, line (and column for characters)
// and frontmatter key.
type Finding struct {
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Col      int      `json:"col,omitempty"`
	Key      string   `json:"key,omitempty"`
	Msg      string   `json:"message"`
	Severity Severity `json:"severity"`
}

// String prints "path:line[:col]: [warning: ]key: message".
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Path)
	if f.Line > 0 {
		fmt.Fprintf(&b, ":%d", f.Line)
		if f.Col > 0 {
			fmt.Fprintf(&b, ":%d", f.Col)
		}
	}
	b.WriteString(": ")
	if f.Severity == Warning {
		b.WriteString("warning: ")
	}
	if f.Key != "" {
		b.WriteString(f.Key + ": ")
	}
	b.WriteString(f.Msg)
	return b.String()
}

func fromError(e *markdown.Error, sev Severity) Finding {
	return Finding{Path: e.Path, Line: e.Line, Key: e.Key, Msg: e.Msg, Severity: sev}
}

// Check lints the store and returns every finding, sorted by file and line.
func Check(st Store) []Finding {
	cfg, out := checkConfig(st.Config)
	out = append(out, checkLearnings(st.Learnings)...)
	for _, p := range st.Temps {
		out = append(out, Finding{Path: p, Msg: "temp file left by a killed lore write: the next lore write (or lore lint --fix) removes it", Severity: Error})
	}
	items, found := checkItems(st.Items, cfg)
	out = append(out, found...)
	out = append(out, duplicates(items)...)
	out = append(out, grounding(items, cfg, st)...)
	for _, l := range st.Links {
		out = append(out, linkFinding(l))
	}
	sortFindings(out)
	return out
}

// grounding runs the items' examples and the stale check, each when the
// caller gave what it needs.
func grounding(items []*markdown.Item, cfg config.Config, st Store) []Finding {
	var out []Finding
	if st.NewMatcher != nil {
		out = Examples(items, cfg, st.NewMatcher)
	}
	return append(out, staleFindings(items, st.Files)...)
}

// checkConfig parses the config (the default when there is none): the
// one the build compiles with, each key with a problem at its default.
func checkConfig(f *File) (config.Config, []Finding) {
	if f == nil {
		return config.Default(), nil
	}
	c, err := config.Parse(f.Path, f.Data)
	return c, ConfigFindings(err, Error)
}

// ConfigFindings are the problems of a config err names, each a finding
// of severity sev that says what is used meanwhile.
func ConfigFindings(err error, sev Severity) []Finding {
	var out []Finding
	for _, ce := range config.Problems(err) {
		out = append(out, Finding{Path: ce.Path, Line: ce.Line, Key: ce.Key, Msg: ce.Detail(), Severity: sev})
	}
	return out
}

// checkLearnings checks the learnings file, when there is one.
func checkLearnings(f *File) []Finding {
	if f == nil {
		return nil
	}
	if _, err := markdown.ParseLearnings(f.Path, f.Data); err != nil {
		return []Finding{located(f.Path, err)}
	}
	out := append(checkText(f.Path, f.Data), checkConflicts(f.Path, f.Data)...)
	out = append(out, checkMarkup(f.Path, f.Data)...)
	return append(out, checkComments(f.Path, f.Data, 0)...)
}

// checkItems parses and checks the item files; it returns the items that
// parse.
func checkItems(files []File, cfg config.Config) ([]*markdown.Item, []Finding) {
	var out []Finding
	var items []*markdown.Item
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".md") {
			if base := path.Base(f.Path); !strings.HasPrefix(base, ".") {
				out = append(out, Finding{Path: f.Path, Msg: "not a knowledge item (only .md files are read): ignored", Severity: Warning})
			}
			continue
		}
		it, err := markdown.Parse(f.Path, f.Data)
		if err != nil {
			out = append(out, located(f.Path, err))
			continue
		}
		items = append(items, it)
		out = append(out, checkItem(it, cfg)...)
	}
	return items, out
}

// sortFindings sorts by file, line and column.
func sortFindings(out []Finding) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// linkFinding reports a symbolic link in the store: a committed link
// could send lore's writes (or an agent's reading) out of the repository.
func linkFinding(p string) Finding {
	msg := "a symbolic link: lore never writes through it, so commands that write here fail; replace it with the file or folder itself"
	if p == lorepath.Cache || p == lorepath.Local {
		msg = "a symbolic link for a folder of this machine's derived state: lore writes nothing through it and builds no manifest; remove it (lore recreates the folder)"
	}
	if strings.HasSuffix(p, ".md") && path.Dir(path.Dir(p)) == lorepath.Dir {
		msg = "a linked item: lore neither compiles it nor writes through it; replace the link with the file"
	}
	return Finding{Path: p, Key: "symlink", Msg: msg, Severity: Error}
}

// located turns a parse error into a finding; errors without a location
// still name the file.
func located(p string, err error) Finding {
	var me *markdown.Error
	if errors.As(err, &me) {
		return fromError(me, Error)
	}
	return Finding{Path: p, Msg: err.Error(), Severity: Error}
}

// checkItem runs the per-item rules.
func checkItem(it *markdown.Item, cfg config.Config) []Finding {
	var out []Finding
	for _, e := range markdown.Validate(it) {
		f := fromError(e, Error)
		if e.Key == "triggers.commands" && fixableLookahead(it) {
			f.Msg += " (lore lint --fix rewrites it)"
		}
		out = append(out, f)
	}
	raw := it.Raw()
	if len(raw) > MaxItemBytes {
		out = append(out, Finding{Path: it.Path, Line: 1, Msg: fmt.Sprintf("oversized item: %d bytes, at most %d; split it or move detail to a linked document", len(raw), MaxItemBytes), Severity: Error})
	} else if n := injectedBytes(it); n > cfg.Inject.BudgetBytes {
		out = append(out, Finding{Path: it.Path, Line: it.KeyLine("title"), Msg: fmt.Sprintf("the body is %d bytes, over inject.budgetBytes (%d): only the title will be injected; add a short ## Injection section", n, cfg.Inject.BudgetBytes), Severity: Warning})
	}
	out = append(out, Safety(it)...)
	out = append(out, checkComments(it.Path, raw, len(raw)-len(it.Body()))...)
	out = append(out, Triggers(it, cfg.Inject.Threshold)...)
	if w, ok := refNameMismatch(it); ok {
		out = append(out, w)
	}
	out = append(out, misspeltKeys(it)...)
	return out
}

// misspeltKeys warns of a top-level key lore does not read that is one or
// two letters from one it does (prority, trigger, Title): the item acts
// as if it were not there, a medium item or one delivered at session
// start, without a word. Other unknown keys are kept quietly: imports and
// teams add their own.
func misspeltKeys(it *markdown.Item) []Finding {
	var out []Finding
	for _, k := range it.Keys() {
		if len(k) < 3 || slices.Contains(markdown.Keys, k) {
			continue
		}
		for _, known := range markdown.Keys {
			most := 1
			if len(known) > 5 {
				most = 2
			}
			if d := levenshtein.ComputeDistance(strings.ToLower(k), known); d <= most {
				out = append(out, Finding{Path: it.Path, Line: it.KeyLine(k), Key: k, Severity: Warning,
					Msg: fmt.Sprintf("not a key lore reads, so the item acts without it: did you mean %s?", known)})
				break
			}
		}
	}
	return out
}

// Safety returns the findings that must keep an item from ever reaching
// an agent: hidden unicode, a secret, a merge conflict, control characters
// or text imitating lore's record or a client's tags, a download piped
// into an interpreter, a deny without a specific target. lore build leaves
// such an item out (docs/design.md, Reliability and security).
func Safety(it *markdown.Item) []Finding {
	out := checkText(it.Path, it.Raw())
	out = append(out, checkConflicts(it.Path, it.Raw())...)
	out = append(out, checkMarkup(it.Path, it.Raw())...)
	out = append(out, checkFetch(it)...)
	return append(out, checkDeny(it)...)
}

// injectedBytes is the size of what an injection would carry: the explicit
// Injection section when there is one, else the whole body.
func injectedBytes(it *markdown.Item) int {
	if s := it.Section("Injection"); s != "" {
		return len(s)
	}
	return len(strings.TrimSpace(string(it.Body())))
}

// Triggers returns the trigger warnings of one item (those lint gives),
// a deny without examples among them: lore add prints them for the item
// it just wrote.
func Triggers(it *markdown.Item, threshold float64) []Finding {
	return append(breadth(it, threshold), denyExamples(it)...)
}

// breadth warns about triggers that fire on almost every call, and about
// an item that can never reach the threshold (docs/design.md, Matching and
// scoring: every item can fire or says why not).
func breadth(it *markdown.Item, threshold float64) []Finding {
	t := it.Triggers
	targets := len(t.Commands)+len(t.Paths)+len(t.Content) > 0
	warn := func(key, format string, args ...any) Finding {
		return Finding{Path: it.Path, Line: it.KeyLine(key), Key: key, Msg: fmt.Sprintf(format, args...), Severity: Warning}
	}
	var out []Finding
	band := it.Priority.Band()
	if why := Unreachable(it, threshold); why != "" {
		out = append(out, warn("priority", "%s", why))
	}
	if why := match.ContentUnreachable(t.Tools, t.Content); why != "" {
		out = append(out, warn("triggers.content", "%s", why))
	}
	if why := match.VetoedAlways(manifest.Triggers{Commands: t.Commands, Unless: t.Unless, Paths: t.Paths, Content: t.Content}); why != "" {
		out = append(out, warn("triggers.unless", "%s", why))
	}
	if len(t.Paths) > 0 && len(t.Commands)+len(t.Content) == 0 && len(t.Tools) > 0 && !slices.ContainsFunc(t.Tools, match.HasPath) {
		out = append(out, warn("triggers.paths", "paths are matched on the path a file tool names, and tools %v names none: on their calls the item is injected by its tool alone, every call; add commands, or name file tools, e.g. [Read, Edit, Write]", t.Tools))
	}
	if len(t.Tools) > 0 && !targets && (band == "critical" || band == "high") {
		out = append(out, warn("triggers.tools", "a %s item with tools but no commands or paths is injected on every %s call; add commands or paths, or lower its priority", band, strings.Join(t.Tools, "/")))
	}
	if len(t.Paths) > 0 && len(t.Tools) == 0 && len(t.Content) == 0 { // content: edits only
		out = append(out, warn("triggers.paths", "paths without tools: the item is also scored on calls that have no path (every shell command); set tools, e.g. [Read, Edit, Write]"))
	}
	return out
}

// Unreachable says why an item with triggers can never reach the
// threshold at its priority ("" when it can, or when it has no triggers or
// is not active: a draft starts low on purpose). lore add warns with it.
func Unreachable(it *markdown.Item, threshold float64) string {
	t := it.Triggers
	if t.Empty() || (it.Status != "active" && it.Status != "accepted") {
		return ""
	}
	s := match.Shape{Tools: len(t.Tools) > 0, Targets: len(t.Commands)+len(t.Paths)+len(t.Content) > 0, Keywords: len(t.Keywords), Topics: len(t.Topics)}
	return s.Unreachable(int(it.Priority), threshold)
}

// refNameMismatch warns when a pitfall's or decision's file name carries a
// different number than its ref.
func refNameMismatch(it *markdown.Item) (Finding, bool) {
	if it.Ref == "" {
		return Finding{}, false
	}
	m := refInName().FindString(path.Base(it.Path))
	if m == "" || strings.EqualFold(m, it.Ref) {
		return Finding{}, false
	}
	return Finding{Path: it.Path, Line: it.KeyLine("ref"), Key: "ref", Msg: fmt.Sprintf("%s, but the file name says %s", it.Ref, m), Severity: Warning}, true
}

// duplicates reports ids used by more than one item, and PF-/ADR- refs used
// by more than one item of a kind (after a merge of two branches).
func duplicates(items []*markdown.Item) []Finding {
	out := duplicateIDs(items)
	for _, group := range refGroups(items) {
		keep := group[0]
		for _, it := range group[1:] {
			out = append(out, Finding{Path: it.Path, Line: it.KeyLine("ref"), Key: "ref", Msg: fmt.Sprintf("duplicate ref %s, also used by the older %s; lore lint --fix renumbers this one", it.Ref, keep.Path), Severity: Error})
		}
	}
	return out
}

// duplicateIDs reports ids used by more than one item.
func duplicateIDs(items []*markdown.Item) []Finding {
	var out []Finding
	byID := map[string][]*markdown.Item{}
	for _, it := range items {
		if it.ID != "" {
			byID[it.ID] = append(byID[it.ID], it)
		}
	}
	for _, group := range byID {
		if len(group) < 2 {
			continue
		}
		for _, it := range group {
			out = append(out, Finding{Path: it.Path, Line: it.KeyLine("id"), Key: "id", Msg: fmt.Sprintf("duplicate id %s, also used by %s; give one of them a new ULID", it.ID, others(group, it)), Severity: Error})
		}
	}
	return out
}

// refGroups returns the items sharing a ref within a kind, each group
// ordered oldest id first (ULIDs sort by time), groups in ref order.
func refGroups(items []*markdown.Item) [][]*markdown.Item {
	byRef := map[string][]*markdown.Item{}
	var keys []string
	for _, it := range items {
		if it.Ref == "" || markdown.RefPrefix(it.Kind) == "" {
			continue
		}
		k := refKey(it.Kind, it.Ref)
		if byRef[k] == nil {
			keys = append(keys, k)
		}
		byRef[k] = append(byRef[k], it)
	}
	sort.Strings(keys)
	var out [][]*markdown.Item
	for _, k := range keys {
		g := byRef[k]
		if len(g) < 2 {
			continue
		}
		sortOldestFirst(g)
		out = append(out, g)
	}
	return out
}

// sortOldestFirst orders items by id (ULIDs sort by time), then path.
func sortOldestFirst(g []*markdown.Item) {
	sort.SliceStable(g, func(i, j int) bool {
		if g[i].ID != g[j].ID {
			return g[i].ID < g[j].ID
		}
		return g[i].Path < g[j].Path
	})
}

func others(group []*markdown.Item, self *markdown.Item) string {
	var paths []string
	for _, it := range group {
		if it != self {
			paths = append(paths, it.Path)
		}
	}
	return strings.Join(paths, ", ")
}

// Count returns the number of errors and warnings.
func Count(fs []Finding) (errs, warns int) {
	for _, f := range fs {
		if f.Severity == Warning {
			warns++
		} else {
			errs++
		}
	}
	return errs, warns
}
