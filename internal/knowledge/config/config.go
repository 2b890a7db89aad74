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

// Error locates a config problem: "path:line: key: message".
type Error struct {
	Path string
	Line int
	Key  string
	Msg  string
	// Unknown says the problem is only a key no setting has: the Config
	// returned with it holds every other key, for the commands that go on
	// without the unknown one (Parse).
	Unknown bool
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.Path, e.Line, e.Key, e.Msg)
}

// Usable says whether the Config Parse returned with err holds the file's
// settings: err is nil, or names only an unknown key.
func Usable(err error) bool {
	var ce *Error
	return err == nil || errors.As(err, &ce) && ce.Unknown
}

var lineRe = lazyre.New(`line (\d+): `)

// Parse reads config.yaml over the defaults. Unknown keys are errors so a
// typo does not silently fall back to a default; the error is then an
// Error with Unknown set, and the Config returned holds every other key:
// a build goes on with it (and says so) rather than leave the repository
// without its deny guards over a typo.
func Parse(path string, data []byte) (Config, error) {
	c := Default()
	doc, err := decodeYAML(path, data, &c)
	if err != nil || doc == nil {
		return c, err
	}
	if err := c.validate(path, data); err != nil {
		return c, err
	}
	if err := unknownKey(doc, reflect.TypeFor[Config]()); err != nil {
		err.Path, err.Unknown = path, true
		return c, err
	}
	return c, nil
}

func (c Config) validate(path string, data []byte) error {
	check := func(ok bool, key, msg string) error {
		if ok {
			return nil
		}
		return &Error{Path: path, Line: keyLine(data, key), Key: key, Msg: msg}
	}
	for _, err := range []error{
		check(c.Inject.Threshold >= 0, "inject.threshold", "must be >= 0"),
		check(c.Inject.MinConfidence >= 0 && c.Inject.MinConfidence <= 1, "inject.minConfidence", "must be within 0..1"),
		check(c.Inject.MaxItems >= 1, "inject.maxItems", "must be >= 1"),
		check(c.Inject.BudgetBytes >= 256, "inject.budgetBytes", "must be >= 256"),
		check(c.Inject.SessionBudgetBytes >= 256 && c.Inject.SessionBudgetBytes <= MaxSessionBudget, "inject.sessionBudgetBytes",
			fmt.Sprintf("must be within 256..%d (Claude Code keeps 10,000 characters of a hook's output)", MaxSessionBudget)),
		check(c.Consolidate.MinBatch >= 1, "consolidate.minBatch", "must be >= 1"),
		check(c.Consolidate.FileLimit >= 20, "consolidate.fileLimit", "must be >= 20"),
		check(c.Consolidate.KeepRecent >= 0, "consolidate.keepRecent", "must be >= 0"),
		check(c.Scan.MaxCandidates >= 1, "scan.maxCandidates", "must be >= 1"),
		check(c.Stats.MinCalls >= 1, "stats.minCalls", "must be >= 1"),
		check(c.Learnings != "", "learnings", "must name a file"),
	} {
		if err != nil {
			return err
		}
	}
	if err := validateSources(path, c.Sources); err != nil {
		return err
	}
	if err := validateDisable(path, data, c.Disable); err != nil {
		return err
	}
	return c.validatePaths(path, data)
}

// validatePaths keeps the files lore writes inside the work tree: a
// committed config must not make lore write elsewhere (../x.md, /etc/x)
// or into the git folder (appending to .git/hooks/pre-commit would run).
func (c Config) validatePaths(file string, data []byte) error {
	bad := func(key string, line int, p string) error {
		return &Error{Path: file, Line: line, Key: key,
			Msg: fmt.Sprintf("%q must be a relative path inside the work tree, not under .git", p)}
	}
	if c.Learnings != "" && !InWorkTree(c.Learnings) {
		return bad("learnings", keyLine(data, "learnings"), c.Learnings)
	}
	if !InWorkTree(c.Consolidate.Report) {
		return bad("consolidate.report", keyLine(data, "consolidate.report"), c.Consolidate.Report)
	}
	for i, rt := range c.Consolidate.Routes {
		if rt.Target != "" && !InWorkTree(rt.Target) {
			return bad(fmt.Sprintf("consolidate.routes[%d].target", i), nthKeyLine(data, "target", i), rt.Target)
		}
	}
	return nil
}

// InWorkTree reports whether a repo-relative, slash-separated path names a
// file inside the work tree and outside its .git folder.
func InWorkTree(p string) bool {
	if !filepath.IsLocal(filepath.FromSlash(p)) || strings.HasPrefix(p, "/") {
		return false
	}
	first, _, _ := strings.Cut(path.Clean(filepath.ToSlash(p)), "/")
	return first != "." && !strings.EqualFold(first, ".git")
}

// nthKeyLine finds the line of the n-th (from 0) occurrence of a key, also
// as the first key of a list item ("- target: x"), best effort.
func nthKeyLine(data []byte, key string, n int) int {
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimPrefix(strings.TrimSpace(l), "- ")
		if strings.HasPrefix(strings.TrimSpace(l), key+":") {
			if n == 0 {
				return i + 1
			}
			n--
		}
	}
	return 1
}

// keyLine finds the line of the last segment of a dotted key, best effort.
func keyLine(data []byte, dotted string) int {
	parts := strings.Split(dotted, ".")
	leaf := parts[len(parts)-1] + ":"
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), leaf) {
			return i + 1
		}
	}
	return 1
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
