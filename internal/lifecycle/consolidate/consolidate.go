// Package consolidate moves learnings.md entries that have proven themselves
// into lasting knowledge (docs/design.md, Consolidation): the trigger test, the
// freshness filter, the supersession / contradiction / redundancy checks,
// routing to draft items or topic documents, the file-limit split, the removal
// from staging and the report.
package consolidate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lifecycle/ages"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// TaskPath is where --agent writes the batch for the remember-task agent.
const TaskPath = "tmp/consolidation-task.md"

// Options change what Run writes.
type Options struct {
	DryRun bool      // write only the report
	Agent  bool      // write the batch as a task for the agent instead of routing
	Today  string    // YYYY-MM-DD; default the local date
	Now    time.Time // timestamps of new items; default time.Now
}

// Finding is one check decision with the score that made it.
type Finding struct {
	Title   string  `json:"title"`
	Against string  `json:"against"` // the newer entry, or "target § section"
	Score   float64 `json:"score"`
	Reason  string  `json:"reason"`
}

// Routed is an entry and where it went.
type Routed struct {
	Title   string `json:"title"`
	Target  string `json:"target"`
	Retried bool   `json:"retried,omitempty"` // placed after a file-limit split
	Earlier bool   `json:"earlier,omitempty"` // found where an interrupted run had put it
}

// Split is a target document split at the file limit.
type Split struct {
	Target string   `json:"target"`
	Lines  int      `json:"lines"`
	Files  []string `json:"files"`
}

// Result is what a run decided (and, unless DryRun or Agent, did). Its JSON
// is the one in docs/design.md, Machine-readable interfaces.
type Result struct {
	Triggered      bool      `json:"triggered"`
	Ran            bool      `json:"ran"`
	Reason         string    `json:"reason"`
	Batch          []string  `json:"batch"`
	Superseded     []Finding `json:"superseded"`
	Contradictions []Finding `json:"contradictions"`
	Redundant      []Finding `json:"redundant"`
	Routed         []Routed  `json:"routed"`
	FileLimit      []Finding `json:"fileLimit"` // still skipped after the retry
	Splits         []Split   `json:"splits"`
	Removed        []string  `json:"removed"`
	Kept           []string  `json:"kept"` // the keepRecent newest, never batched
	DryRun         bool      `json:"dryRun"`
	Report         string    `json:"report,omitempty"`
	Task           string    `json:"task,omitempty"`

	ages *ages.Report
	cfg  config.Consolidate
}

// candidate is one batch entry under check.
type candidate struct {
	ages.Entry
	text   string // title and body: what topic scores read
	body   string // body without the kind line: what sentence checks read
	hash   string // entryHash: the draft made from it carries it as source.hash
	words  map[string]bool
	target string // route target: a document path, or "" for a draft item
	kind   string
}

// run holds a consolidation in progress: pending writes go to an overlay
// (the plan), applied at the end through w, which on a dry run is a
// Recorder, so a dry run and a real run make the same decisions.
type run struct {
	s       *gitstore.Store
	w       gitstore.Writer
	cfg     config.Config
	opt     Options
	res     *Result
	overlay map[string][]byte
	order   []string
	items   []*markdown.Item
	loaded  bool
	refs    map[string]int
	staged  map[string]bool      // entryHash of every learnings entry
	kept    []ages.Entry         // the keepRecent newest: never batched, but they can supersede
	made    map[string][]section // by kind: the drafts this run made, which later entries are checked against
}

// Run consolidates the configured learnings file.
func Run(s *gitstore.Store, cfg config.Config, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	if err := checkRoutes(cfg.Consolidate.Routes); err != nil {
		return nil, err
	}
	// Everything from reading learnings.md to writing it back happens under
	// the store lock: a learning added meanwhile waits, and PF-/ADR- numbers
	// are decided against every other writer.
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	rep, err := ages.Load(s, cfg.Learnings, opt.Today)
	if err != nil {
		return nil, fmt.Errorf("consolidate: %w", err)
	}
	r := newRun(s, cfg, opt, rep)
	batch := r.batch(rep)
	if !r.res.Ran {
		return r.res, nil
	}
	cands := r.candidates(batch)
	done := map[int]bool{} // by learnings line: entries leaving staging
	var skipped []*candidate
	for _, c := range r.supersession(cands, r.candidates(r.kept)) {
		placed, err := r.consolidate(c, done)
		if err != nil {
			return nil, err
		}
		if !placed {
			skipped = append(skipped, c)
		}
	}
	if err := r.retry(skipped, done); err != nil {
		return nil, err
	}
	if err := r.stage(cands, done); err != nil {
		return nil, err
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return r.res, nil
}

// withDefaults fills in today and now when the caller left them out.
func (opt Options) withDefaults() Options {
	if opt.Today == "" {
		opt.Today = ages.Today()
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	return opt
}

func newRun(s *gitstore.Store, cfg config.Config, opt Options, rep *ages.Report) *run {
	var w gitstore.Writer = s
	if opt.DryRun {
		w = gitstore.NewRecorder(s)
	}
	return &run{s: s, w: w, cfg: cfg, opt: opt, overlay: map[string][]byte{}, refs: map[string]int{}, staged: map[string]bool{}, made: map[string][]section{},
		res: &Result{DryRun: opt.DryRun, ages: rep, cfg: cfg.Consolidate,
			Batch: []string{}, Superseded: []Finding{}, Contradictions: []Finding{}, Redundant: []Finding{},
			Routed: []Routed{}, FileLimit: []Finding{}, Splits: []Split{}, Removed: []string{}, Kept: []string{}}}
}

// batch decides whether the run goes ahead (res.Ran) and returns the
// entries it consolidates.
func (r *run) batch(rep *ages.Report) []ages.Entry {
	res, c := r.res, r.cfg.Consolidate
	res.Triggered, res.Reason = Trigger(rep, c)
	if !res.Triggered {
		return nil
	}
	batch, kept := Batch(rep, c)
	r.kept = kept
	for _, e := range kept {
		res.Kept = append(res.Kept, e.Title)
	}
	for _, e := range batch {
		res.Batch = append(res.Batch, e.Title)
	}
	if len(batch) < c.MinBatch {
		res.Reason = fmt.Sprintf("%s, but only %d entries are at least %d active days old (minBatch %d; the %d newest stay)",
			res.Reason, len(batch), c.Freshness, c.MinBatch, c.KeepRecent)
		return nil
	}
	res.Ran = true
	for _, e := range rep.Entries {
		r.staged[entryHash(e)] = true
	}
	return batch
}

// candidates prepares the batch entries for the checks, each with its
// kind (a lesson unless it says) and route.
func (r *run) candidates(batch []ages.Entry) []*candidate {
	cands := make([]*candidate, len(batch))
	for i, e := range batch {
		body := stripKind(e.Body)
		c := &candidate{Entry: e, text: e.Title + "\n" + body, body: body, words: words(e.Title + "\n" + body), kind: e.Kind, hash: entryHash(e)}
		if c.kind == "" {
			c.kind = markdown.KindLesson
		}
		c.target = route(r.cfg.Consolidate.Routes, c)
		cands[i] = c
	}
	return cands
}

// consolidate checks one live candidate and places it: false when its
// document had no room (it is retried after a split). done gets the
// entries that leave staging.
func (r *run) consolidate(c *candidate, done map[int]bool) (bool, error) {
	res := r.res
	if rel, err := r.placedEarlier(c); err != nil || rel != "" {
		if rel != "" {
			res.Routed = append(res.Routed, Routed{Title: c.Title, Target: rel, Earlier: true})
			done[c.Line] = true
			if c.target == "" {
				r.remember(c, rel)
			}
		}
		return true, err
	}
	against, err := r.corpus(c)
	if err != nil {
		return true, err
	}
	if f, ok := contradiction(c, against); ok {
		res.Contradictions = append(res.Contradictions, f)
		return true, nil
	}
	if f, ok := redundancy(c, against); ok {
		res.Redundant = append(res.Redundant, f)
		done[c.Line] = true
		return true, nil
	}
	if r.opt.Agent {
		res.Routed = append(res.Routed, Routed{Title: c.Title, Target: r.targetName(c)})
		return true, nil
	}
	placed, err := r.place(c, false)
	if placed {
		done[c.Line] = true
	}
	return placed || err != nil, err
}

// stage takes the superseded entries out of staging too, then writes the
// agent's task or the shortened learnings file.
func (r *run) stage(cands []*candidate, done map[int]bool) error {
	for _, c := range cands {
		if r.superseded(c.Title) {
			done[c.Line] = true
		}
	}
	if r.opt.Agent {
		return r.writeTask(cands)
	}
	return r.removeFromStaging(done)
}

func (r *run) superseded(title string) bool {
	for _, f := range r.res.Superseded {
		if f.Title == title {
			return true
		}
	}
	return false
}

// Trigger is the trigger test: more lines than sizeTrigger, or staleness at
// least stalenessTrigger (an unknown staleness counts when the oldest entry
// is that old).
func Trigger(rep *ages.Report, c config.Consolidate) (bool, string) {
	if rep.Lines > c.SizeTrigger {
		return true, fmt.Sprintf("size: %s has %d lines (> %d)", rep.File, rep.Lines, c.SizeTrigger)
	}
	if lc := rep.LastConsolidation; lc != nil {
		if lc.ActiveDays >= c.StalenessTrigger {
			return true, fmt.Sprintf("staleness: last consolidation %d active days ago (>= %d)", lc.ActiveDays, c.StalenessTrigger)
		}
		return false, fmt.Sprintf("%s has %d lines (<= %d) and the last consolidation was %d active days ago (< %d)",
			rep.File, rep.Lines, c.SizeTrigger, lc.ActiveDays, c.StalenessTrigger)
	}
	oldest := 0
	for _, e := range rep.Entries {
		oldest = max(oldest, e.Age)
	}
	if oldest >= c.StalenessTrigger {
		return true, fmt.Sprintf("staleness: no prior consolidation and the oldest entry is %d active days old (>= %d)", oldest, c.StalenessTrigger)
	}
	return false, fmt.Sprintf("%s has %d lines (<= %d), no prior consolidation and the oldest entry is %d active days old (< %d)",
		rep.File, rep.Lines, c.SizeTrigger, oldest, c.StalenessTrigger)
}

// Batch returns the entries old enough to consolidate, oldest first, leaving
// out the keepRecent newest entries (which are returned as kept).
func Batch(rep *ages.Report, c config.Consolidate) (batch, kept []ages.Entry) {
	newest := append([]ages.Entry(nil), rep.Entries...)
	sort.SliceStable(newest, func(i, j int) bool { return newer(newest[i], newest[j]) })
	keep := map[int]bool{}
	for i := 0; i < len(newest) && i < c.KeepRecent; i++ {
		keep[newest[i].Line] = true
		kept = append(kept, newest[i])
	}
	for _, e := range rep.Oldest() {
		if !keep[e.Line] && e.Age >= c.Freshness {
			batch = append(batch, e)
		}
	}
	return batch, kept
}

// newer orders entries newest first: the fewest active days, then the
// latest added, then the lowest in the file.
func newer(a, b ages.Entry) bool {
	if a.Age != b.Age {
		return a.Age < b.Age
	}
	if a.Added != b.Added {
		return a.Added > b.Added
	}
	return a.Line > b.Line
}

// supersession drops an older batch entry when a newer one on the same
// topic (overlap >= TopicMin) negates it or says it replaces it: a newer
// batch entry, or one of the kept newest, which stay in staging but still
// say what is true now. It returns the entries that survive, oldest first.
func (r *run) supersession(cands, kept []*candidate) []*candidate {
	var live []*candidate
	for i, old := range cands {
		var best *Finding
		for j := len(cands) - 1; j > i && best == nil; j-- {
			best = supersedes(old, cands[j])
		}
		for j := 0; j < len(kept) && best == nil; j++ {
			if best = supersedes(old, kept[j]); best != nil {
				best.Against += " (kept in staging)"
			}
		}
		if best != nil {
			r.res.Superseded = append(r.res.Superseded, *best)
			continue
		}
		live = append(live, old)
	}
	return live
}

// supersedes says why the newer entry nw supersedes old (nil when it does
// not): on the same topic, it names and replaces old, says the opposite,
// or says it replaces something old does not.
func supersedes(old, nw *candidate) *Finding {
	if len(old.words) < minWords || len(nw.words) < minWords {
		return nil
	}
	score := overlap(old.words, nw.words)
	if score < TopicMin {
		return nil
	}
	var f *Finding
	low := lowerText(nw.text)
	switch sa, sb, s, ok := flip(old.body, nw.body); {
	case strings.Contains(low, lowerText(old.Title)) && replacement().MatchString(low):
		f = &Finding{Reason: "the newer entry names it and replaces it"}
	case ok:
		f = &Finding{Reason: fmt.Sprintf("the newer entry says the opposite (sentence overlap %.2f): %q vs %q", s, sa, sb)}
	case replacement().MatchString(low) && !replacement().MatchString(lowerText(old.text)):
		f = &Finding{Reason: fmt.Sprintf("the newer entry replaces it (%q)", replacement().FindString(low))}
	default:
		return nil
	}
	f.Title, f.Against, f.Score = old.Title, nw.Title, round(score)
	return f
}

// section is one unit of a target a candidate is compared with.
type section struct {
	name string // "path § heading" or an item path
	text string // heading and body
	body string // body only, for sentence checks
}

// contradiction escalates an entry whose topic a target section shares
// (coverage >= TopicMin) while one of their sentences says the opposite.
func contradiction(c *candidate, against []section) (Finding, bool) {
	var best Finding
	found := false
	if len(c.words) < minWords {
		return best, false
	}
	for _, s := range against {
		topic := coverage(c.words, words(s.text))
		if topic < TopicMin {
			continue
		}
		if sa, sb, score, ok := flip(c.body, s.body); ok && (!found || topic > best.Score) {
			best = Finding{Title: c.Title, Against: s.name, Score: round(topic),
				Reason: fmt.Sprintf("opposite statements (sentence overlap %.2f): %q vs %q", score, sa, sb)}
			found = true
		}
	}
	return best, found
}

// redundancy drops an entry whose content words a target section already
// has (coverage >= RedundantMin) and whose figures it states too: "12
// rounds" against "10 rounds" is a new fact, not a repeat, and words
// leaves out numbers that short.
func redundancy(c *candidate, against []section) (Finding, bool) {
	var best Finding
	if len(c.words) < minWords {
		return best, false
	}
	for _, s := range against {
		if !hasFigures(s.text, c.text) {
			continue
		}
		if score := coverage(c.words, words(s.text)); score >= RedundantMin && score > best.Score {
			best = Finding{Title: c.Title, Against: s.name, Score: round(score),
				Reason: fmt.Sprintf("%.0f%% of its content words are already there", score*100)}
		}
	}
	return best, best.Title != ""
}

// corpus is what an entry is checked against: the sections of its topic
// document, or the existing items of its kind and the drafts this run
// already made from the batch.
func (r *run) corpus(c *candidate) ([]section, error) {
	if c.target != "" {
		data, err := r.read(c.target)
		if err != nil {
			return nil, err
		}
		var out []section
		for _, s := range h2Sections(data) {
			text := string(data[s.start:s.end])
			_, body, _ := strings.Cut(text, "\n")
			out = append(out, section{name: c.target + " § " + s.title, text: text, body: body})
		}
		return out, nil
	}
	out := append([]section(nil), r.made[c.kind]...)
	for _, it := range r.stored() {
		// A draft made from an entry still in learnings.md is an interrupted
		// run's, not knowledge: its own entry finds it by placedEarlier.
		if it.Kind == c.kind && (it.Source == nil || !r.staged[it.Source.Hash]) {
			out = append(out, section{name: it.Path, text: it.Title + "\n" + string(it.Body()), body: string(it.Body())})
		}
	}
	return out, nil
}

// stored is the store's items as they were before this run.
func (r *run) stored() []*markdown.Item {
	if !r.loaded {
		r.items, _ = r.s.Load() // unreadable items are lint's business
		r.loaded = true
	}
	return r.items
}

// placedEarlier is where a consolidation killed before it rewrote
// learnings.md already put the entry: the draft carrying its hash, or its
// section, verbatim, in its topic document or one of the document's parts
// ("" when nowhere).
func (r *run) placedEarlier(c *candidate) (string, error) {
	if c.target != "" {
		for _, p := range r.parts(c.target) {
			data, err := r.read(p)
			if err != nil {
				return "", err
			}
			if strings.Contains(string(data), entrySection(c)) {
				return p, nil
			}
		}
		return "", nil
	}
	for _, it := range r.stored() {
		if it.Source != nil && it.Source.Hash == c.hash {
			return it.Path, nil
		}
	}
	return "", nil
}

// entryHash names a learnings entry by its title and text.
func entryHash(e ages.Entry) string {
	h := sha256.Sum256([]byte(e.Title + "\n" + strings.TrimSpace(e.Body)))
	return hex.EncodeToString(h[:8])
}

func (r *run) targetName(c *candidate) string {
	if c.target != "" {
		return c.target
	}
	return "new draft " + c.kind
}

// route picks a candidate's topic document ("" for a draft item).
func route(routes []config.Route, c *candidate) string {
	for _, rt := range routes {
		if rt.Kind != "" && rt.Kind != c.kind {
			continue
		}
		if rt.Match != "" && !regexp.MustCompile(`(?i)(^|\W)`+regexp.QuoteMeta(rt.Match)+`($|\W)`).MatchString(c.text) {
			continue
		}
		return path.Clean(rt.Target)
	}
	return ""
}

func checkRoutes(routes []config.Route) error {
	for i, rt := range routes {
		switch {
		case rt.Target == "":
			return &config.Error{Path: lorepath.Config, Line: 1, Key: fmt.Sprintf("consolidate.routes[%d].target", i), Msg: "a route needs a target document"}
		case rt.Match == "" && rt.Kind == "":
			return &config.Error{Path: lorepath.Config, Line: 1, Key: fmt.Sprintf("consolidate.routes[%d]", i), Msg: "a route needs match or kind"}
		case rt.Kind != "" && markdown.Folder(rt.Kind) == "":
			return &config.Error{Path: lorepath.Config, Line: 1, Key: fmt.Sprintf("consolidate.routes[%d].kind", i), Msg: fmt.Sprintf("unknown kind %q", rt.Kind)}
		}
	}
	return nil
}

// stripKind drops the optional "kind: ..." first body line.
func stripKind(body string) string {
	first, rest, _ := strings.Cut(body, "\n")
	if k, _, ok := strings.Cut(strings.TrimSpace(first), ":"); ok && strings.TrimSpace(k) == "kind" {
		return strings.TrimSpace(rest)
	}
	return body
}

func round(f float64) float64 { return float64(int(f*100+0.5)) / 100 }
