// Package config reads .lore/config.yaml: thresholds and routing, every key
// optional, with the defaults of docs/design.md, Configuration.
package config

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/lore-agents/lore/internal/lazyre"
	"github.com/lore-agents/lore/internal/lorepath"
)

// Config is the whole configuration with defaults filled in.
type Config struct {
	Learnings   string      `yaml:"learnings" json:"learnings"`
	Consolidate Consolidate `yaml:"consolidate" json:"consolidate"`
	Inject      Inject      `yaml:"inject" json:"inject"`
	Scan        Scan        `yaml:"scan" json:"scan"`
	Stats       Stats       `yaml:"stats" json:"stats"`
	// Share commits the observation log (merge=union) instead of caching it.
	Share bool `yaml:"share" json:"share"`
	// Sources are the organisation stores the project uses and Disable the
	// ids of org or user items it switches off (docs/design.md, Scopes and
	// organisation stores).
	Sources []Source `yaml:"sources" json:"sources,omitempty"`
	Disable []string `yaml:"disable" json:"disable,omitempty"`
}

// Consolidate holds the thresholds of docs/design.md, Consolidation.
type Consolidate struct {
	SizeTrigger      int `yaml:"sizeTrigger" json:"sizeTrigger"`
	StalenessTrigger int `yaml:"stalenessTrigger" json:"stalenessTrigger"`
	Freshness        int `yaml:"freshness" json:"freshness"`
	MinBatch         int `yaml:"minBatch" json:"minBatch"`
	KeepRecent       int `yaml:"keepRecent" json:"keepRecent"`
	FileLimit        int `yaml:"fileLimit" json:"fileLimit"`
	// Routes send entries to topic documents: the first route whose Match
	// phrase (case-insensitive, whole words) is in an entry's title or body,
	// and whose Kind (if set) is the entry's kind, routes it to the document
	// at Target (repo-relative). Unrouted entries become draft items.
	Routes []Route `yaml:"routes" json:"routes,omitempty"`
	Report string  `yaml:"report" json:"report"`
}

// Route is one consolidation route.
type Route struct {
	Match  string `yaml:"match" json:"match,omitempty"`
	Kind   string `yaml:"kind" json:"kind,omitempty"`
	Target string `yaml:"target" json:"target"`
}

// Inject holds the injection settings (docs/design.md, Configuration, and
// docs/design.md, Matching and scoring).
type Inject struct {
	BudgetBytes      int     `yaml:"budgetBytes" json:"budgetBytes"`
	MaxItems         int     `yaml:"maxItems" json:"maxItems"`
	MinConfidence    float64 `yaml:"minConfidence" json:"minConfidence"`
	Threshold        float64 `yaml:"threshold" json:"threshold"`
	ReinjectPriority int     `yaml:"reinjectPriority" json:"reinjectPriority"`
	Drafts           bool    `yaml:"drafts" json:"drafts"`
	// SessionBudgetBytes bounds the items without triggers injected at
	// SessionStart and SubagentStart.
	SessionBudgetBytes int `yaml:"sessionBudgetBytes" json:"sessionBudgetBytes"`
}

// MaxSessionBudget is the largest inject.sessionBudgetBytes: the
// SessionStart answer also carries the self-report protocol, critical items
// and the knowledge index, within the client's cap on a hook's output.
const MaxSessionBudget = 8192

// Scan holds the transcript scanner settings.
type Scan struct {
	Paths         []string `yaml:"paths" json:"paths,omitempty"`
	MaxCandidates int      `yaml:"maxCandidates" json:"maxCandidates"`
}

// Stats holds lore stats' settings (docs/design.md, Evidence of effect).
type Stats struct {
	// MinCalls is the fewest matching calls on each side of an item's
	// activation for a verdict on its effect; fewer is unmeasured.
	MinCalls int `yaml:"minCalls" json:"minCalls"`
}

// Default returns the configuration used when config.yaml sets nothing.
func Default() Config {
	return Config{
		Learnings: lorepath.Learnings,
		Consolidate: Consolidate{
			SizeTrigger: 150, StalenessTrigger: 14, Freshness: 7,
			MinBatch: 3, KeepRecent: 3, FileLimit: 400,
			Report: "tmp/consolidation-report.md",
		},
		Inject: Inject{
			BudgetBytes: 4096, MaxItems: 3, MinConfidence: 0.5,
			Threshold: 0.7, ReinjectPriority: 7, SessionBudgetBytes: 6144,
		},
		Scan:  Scan{MaxCandidates: 50},
		Stats: Stats{MinCalls: 3},
	}
}

// Error locates a config problem: "path:line: key: message". The Config
// Parse returns with it holds every other key, that one at its default
// (or, for YAML that does not parse, every default).
type Error struct {
	Path string
	Line int
	Key  string
	Msg  string
	// Effect is what the commands that go on with the rest do without the
	// key ("the default, 0.7, is used"), for them to say (WithEffect);
	// the commands that write stop at the problem.
	Effect string
}

func (e *Error) Error() string { return e.located(e.Msg) }

// AboutSources says the problem leaves sources out: it is in the
// sources list, or in the whole file (which then names none).
func (e *Error) AboutSources() bool {
	return e.Key == "" || e.Key == "sources" || strings.HasPrefix(e.Key, "sources[")
}

// WithEffect is the error and what is done without the key meanwhile.
func (e *Error) WithEffect() string { return e.located(e.Detail()) }

// Detail is the message and what is done without the key meanwhile.
func (e *Error) Detail() string {
	if e.Effect == "" {
		return e.Msg
	}
	return e.Msg + "; " + e.Effect + " until it is fixed"
}

func (e *Error) located(msg string) string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.Path, e.Line, e.Key, msg)
}

// Errors are every problem of a config file, in line order: Parse's and
// ParseUser's error. As an error it reads as its first; errors.As finds
// each.
type Errors []*Error

func (e Errors) Error() string {
	if len(e) == 1 {
		return e[0].Error()
	}
	return fmt.Sprintf("%s (and %d more problems: lore lint lists them)", e[0].Error(), len(e)-1)
}

func (e Errors) Unwrap() []error {
	out := make([]error, len(e))
	for i, x := range e {
		out[i] = x
	}
	return out
}

// Problems are the problems err names, one Error each: none for nil, or
// for an error that is not a config's.
func Problems(err error) []*Error {
	var all Errors
	if errors.As(err, &all) {
		return all
	}
	if ce := (*Error)(nil); errors.As(err, &ce) {
		return []*Error{ce}
	}
	return nil
}

// Usable says whether the Config returned with err holds the file's
// settings but the keys err names: err is nil or Parse's, not a file that
// could not be read.
func Usable(err error) bool {
	var ce *Error
	return err == nil || errors.As(err, &ce)
}

var lineRe = lazyre.New(`line (\d+): `)

// Parse reads config.yaml over the defaults. Each problem (a key no
// setting has, a value of the wrong type or range, a source that cannot
// be used, a key whose YAML does not parse) is an Error naming its line
// and key, returned together as Errors; the Config returned holds every
// other key and that one at its default, or leaves the source or route
// out. Unknown keys are errors so a typo
// does not silently fall back to a default; lint fails on every problem,
// and a build goes on with the rest (and says so) rather than leave the
// repository without its deny guards over one bad key.
func Parse(path string, data []byte) (Config, error) {
	c := Default()
	d := newDecoder(path, "")
	d.decode(data, &c)
	c.Sources = d.sources(c.Sources)
	c.Disable = d.ids(c.Disable)
	c.validate(d)
	return c, d.errs()
}

// validate sets each setting out of its range back to its default, and
// leaves out each route whose target is outside the work tree.
func (c *Config) validate(d *decoder) {
	for _, ck := range []struct {
		ok       bool
		key, msg string
	}{
		{c.Inject.Threshold >= 0, "inject.threshold", "must be >= 0"},
		{c.Inject.MinConfidence >= 0 && c.Inject.MinConfidence <= 1, "inject.minConfidence", "must be within 0..1"},
		{c.Inject.MaxItems >= 1, "inject.maxItems", "must be >= 1"},
		{c.Inject.BudgetBytes >= 256, "inject.budgetBytes", "must be >= 256"},
		{c.Inject.SessionBudgetBytes >= 256 && c.Inject.SessionBudgetBytes <= MaxSessionBudget, "inject.sessionBudgetBytes",
			fmt.Sprintf("must be within 256..%d (Claude Code keeps 10,000 characters of a hook's output)", MaxSessionBudget)},
		{c.Consolidate.MinBatch >= 1, "consolidate.minBatch", "must be >= 1"},
		{c.Consolidate.FileLimit >= 20, "consolidate.fileLimit", "must be >= 20"},
		{c.Consolidate.KeepRecent >= 0, "consolidate.keepRecent", "must be >= 0"},
		{c.Scan.MaxCandidates >= 1, "scan.maxCandidates", "must be >= 1"},
		{c.Stats.MinCalls >= 1, "stats.minCalls", "must be >= 1"},
		{c.Learnings != "", "learnings", "must name a file"},
		// A committed config must not make lore write outside the work
		// tree (../x.md, /etc/x) or into the git folder (appending to
		// .git/hooks/pre-commit would run).
		{c.Learnings == "" || InWorkTree(c.Learnings), "learnings", fmt.Sprintf("%q %s", c.Learnings, outsideMsg)},
		{InWorkTree(c.Consolidate.Report), "consolidate.report", fmt.Sprintf("%q %s", c.Consolidate.Report, outsideMsg)},
	} {
		if !ck.ok {
			def := setDefault(reflect.ValueOf(c).Elem(), reflect.ValueOf(Default()), ck.key)
			d.add(d.line(ck.key), ck.key, ck.msg, usesDefault(def))
		}
	}
	var routes []Route
	for i, rt := range c.Consolidate.Routes {
		key := fmt.Sprintf("consolidate.routes[%d]", i)
		switch {
		case d.bad[key]:
		case rt.Target != "" && !InWorkTree(rt.Target):
			d.add(d.line(key+".target"), key+".target", fmt.Sprintf("%q %s", rt.Target, outsideMsg), "the route is left out")
		default:
			routes = append(routes, rt)
		}
	}
	c.Consolidate.Routes = routes
}

const outsideMsg = "must be a relative path inside the work tree, not under .git"

// InWorkTree reports whether a repo-relative, slash-separated path names a
// file inside the work tree and outside its .git folder.
func InWorkTree(p string) bool {
	if !filepath.IsLocal(filepath.FromSlash(p)) || strings.HasPrefix(p, "/") {
		return false
	}
	first, _, _ := strings.Cut(path.Clean(filepath.ToSlash(p)), "/")
	return first != "." && !strings.EqualFold(first, ".git")
}

// Template is the commented config.yaml that lore init writes: every key
// at its default, commented out.
const Template = `# lore configuration. Every key is optional; the values shown are the defaults.
# learnings: .lore/learnings.md
# consolidate:
#   sizeTrigger: 150        # consolidate when learnings.md has more lines than this
#   stalenessTrigger: 14    # ... or when this many git-active days passed since the last one
#   freshness: 7            # entries at least this many active days old qualify
#   minBatch: 3             # fewer qualifying entries than this: skip
#   keepRecent: 3           # newest entries that always stay in learnings.md
#   fileLimit: 400          # a target document longer than this is split by H2
#   report: tmp/consolidation-report.md
#   routes:                 # send entries that mention a phrase to a topic document
#     - match: deployment
#       target: docs/deployment.md
# inject:
#   budgetBytes: 4096       # most bytes injected before one tool call
#   maxItems: 3             # most items injected before one tool call
#   minConfidence: 0.5      # items below are kept but not compiled
#   threshold: 0.7          # minimum score to inject
#   reinjectPriority: 7     # items this important re-inject after compaction
#   drafts: false           # inject draft items too
#   sessionBudgetBytes: 6144  # most bytes of items without triggers at session start
# scan:
#   paths: []               # transcript folders; default: the agents' folders for this repo
#   maxCandidates: 50       # most draft items written per scan
# stats:
#   minCalls: 3             # fewest matching calls before and after an item for a verdict
# share: false              # commit the observation log so teammates' counts add up
# sources:                  # organisation stores, fetched by lore sync
#   - {name: acme, url: https://github.com/acme/lore-org.git, ref: main, path: .lore}
# disable: []               # ids of org or user items this project switches off
`
