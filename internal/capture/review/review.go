// Package review turns scan candidates into draft items in the store and
// moves drafts through review: promote (active), archive, reject (and
// remember the rejection so the same candidate is not proposed again).
package review

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/capture/scan"
	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/inject/match"
	"github.com/lore-agents/lore/internal/knowledge/lint"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/textcut"
)

// Written is one draft created by Write.
type Written struct {
	Path string
	ID   string
	scan.Candidate
}

// Known returns the content hashes already in the store (drafts written by
// scan carry source.hash; other items are hashed from their sections) and
// the rejected ones.
func Known(s *gitstore.Store) (map[string]bool, error) {
	known, err := Rejected(s)
	items, _ := s.Load() // unparseable files are lint's business
	for _, it := range items {
		if h := SourceHash(it); h != "" {
			known[h] = true
		}
		// An item with neither section says nothing a candidate could repeat
		// (its hash would be every such candidate's).
		if m, f := it.Section("Mistake"), it.Section("Fix"); m != "" || f != "" {
			known[scan.ContentHash(firstTool(it), "", m, f)] = true
		}
	}
	return known, err
}

func firstTool(it *markdown.Item) string {
	if len(it.Triggers.Tools) > 0 {
		return it.Triggers.Tools[0]
	}
	return ""
}

// SourceHash is the source.hash of an item written by scan, or "".
func SourceHash(it *markdown.Item) string {
	if it.Source == nil {
		return ""
	}
	return it.Source.Hash
}

// Rejected reads the committed rejections (.lore/rejected), moving any
// left in the cache by an older lore there first.
func Rejected(s *gitstore.Store) (map[string]bool, error) {
	if _, err := os.Stat(s.Path(lorepath.InCache(lorepath.LegacyRejected))); err == nil {
		unlock, err := s.Lock()
		if err != nil {
			return map[string]bool{}, err
		}
		err = migrateRejected(s)
		unlock()
		if err != nil {
			return map[string]bool{}, err
		}
	}
	return s.Rejected()
}

// migrateRejected moves the cache's rejections to .lore/rejected. The
// caller holds the lock.
func migrateRejected(s *gitstore.Store) error {
	rel := lorepath.InCache(lorepath.LegacyRejected)
	data, err := s.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("review: %w", err)
	}
	if err := rejectLines(s, data); err != nil {
		return err
	}
	if err := s.RemoveLocked(rel); err != nil {
		return fmt.Errorf("review: %w", err)
	}
	return nil
}

// rejectLines records the rejections of an old cache file's lines
// ("<hash> <title>") that .lore/rejected lacks.
func rejectLines(s *gitstore.Store, data []byte) error {
	have, err := s.Rejected()
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		hash, title, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if hash == "" || have[hash] {
			continue
		}
		if err := s.RejectLocked(hash, title); err != nil {
			return err
		}
		have[hash] = true
	}
	return nil
}

// Select picks the candidates to write: not known, best first (priority,
// confidence, then scan order), at most max. Fresh is how many were new
// before the cap.
func Select(cands []scan.Candidate, known map[string]bool, max int) (sel []scan.Candidate, fresh int) {
	for _, c := range cands {
		if !known[c.Hash] {
			sel = append(sel, c)
		}
	}
	sort.SliceStable(sel, func(i, j int) bool {
		if sel[i].Priority != sel[j].Priority {
			return sel[i].Priority > sel[j].Priority
		}
		return sel[i].Confidence > sel[j].Confidence
	})
	fresh = len(sel)
	if len(sel) > max {
		sel = sel[:max]
	}
	return sel, fresh
}

// Write creates one status: draft item per candidate (lessons, or pitfalls
// when a block asked for kind: pitfall) under the store lock, through the
// store's draft creator, so a PF- number is decided once against every
// writer; a name already taken gets a numeric suffix.
func Write(s *gitstore.Store, cands []scan.Candidate, now time.Time) ([]Written, error) {
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	return writeLocked(s, cands, now)
}

// writeLocked is Write for a caller that holds the store lock.
func writeLocked(s *gitstore.Store, cands []scan.Candidate, now time.Time) ([]Written, error) {
	var out []Written
	for _, c := range cands {
		kind := draftKind(c)
		id := ulid.Make().String()
		rel, _, err := s.CreateDraftLocked(kind, c.Title, func(ref string) ([]byte, error) {
			return Compose(c, kind, id, ref, now)
		})
		if err != nil {
			return out, err
		}
		out = append(out, Written{Path: rel, ID: id, Candidate: c})
	}
	return out, nil
}

// draftKind is a lesson, or a pitfall when the block asked for one.
func draftKind(c scan.Candidate) string {
	if c.Kind == markdown.KindPitfall {
		return markdown.KindPitfall
	}
	return markdown.KindLesson
}

// Compose renders a candidate as a draft item: frontmatter with its
// provenance, then Mistake, Fix, the block's other keys as sections, and
// the Evidence the scan found.
func Compose(c scan.Candidate, kind, id, ref string, now time.Time) ([]byte, error) {
	return draftSpec(c, kind).Compose(id, ref, now)
}

// draftSpec is the draft item a candidate proposes.
func draftSpec(c scan.Candidate, kind string) markdown.Spec {
	form := c.Form
	if !validForm(form) {
		form = ""
	}
	title := lint.Unmarked(c.Title)
	if strings.TrimSpace(title) == "" {
		title = "Untitled lesson from " + c.Signal
	}
	var priority string
	if c.Priority != 0 {
		priority = strconv.Itoa(c.Priority)
	}
	return markdown.Spec{
		Kind: kind, Title: title, Status: "draft", Priority: priority, Confidence: c.Confidence, Form: form,
		Triggers: draftTriggers(c), Tags: c.Tags, Enforce: proposedEnforce(c),
		Source: &markdown.Source{Type: "scan", Sessions: c.Sessions, Occurrences: c.Occurrences, Signal: c.Signal, Hash: c.Hash},
		// What a transcript held that lint rejects in an item (a client's
		// tags, which Claude Code appends to tool results) or that a
		// rendered view hides (HTML comments) stays out of the draft
		// (docs/design.md, What a reviewer cannot see).
		Body: lint.Unmarked(draftBody(c, kind)),
	}
}

// draftTriggers are the triggers a scan proposes: the tools, a command
// regex from a shell trigger, the paths and keywords.
func draftTriggers(c scan.Candidate) markdown.Triggers {
	tr := markdown.Triggers{Paths: c.Paths, Keywords: c.Keywords}
	if len(c.Tools) > 0 {
		tr.Tools = c.Tools
	} else if c.Tool != "" {
		tr.Tools = []string{c.Tool}
	}
	if re := commandRegex(c); re != "" {
		tr.Commands = []string{re}
		tr.Unless = fixUnless(c, re)
	}
	return tr
}

// fixUnless are the commands the candidate's fix names (in backticks or a
// code block) that its command regex also matches: `make serve-bg` for a
// hanging `make serve`, `docker compose up -d` for `docker compose up`.
// Without them, an item that holds would hold the fix itself once a
// session. A command the failing call holds too is left out: vetoing it
// would veto the mistake.
func fixUnless(c scan.Candidate, re string) []string {
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil
	}
	var out []string
	for _, cmd := range codeSpans(c.Fix) {
		if len(out) == 3 || !rx.MatchString(cmd) || strings.Contains(c.Trigger, cmd) {
			continue
		}
		u := regexp.QuoteMeta(cmd)
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	if match.VetoedAlways(manifest.Triggers{Commands: []string{re}, Unless: out}) != "" {
		return nil
	}
	return out
}

// codeSpans are the one-line code spans and code-block lines of a text,
// trimmed.
func codeSpans(text string) []string {
	var out []string
	fenced := false
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			if t = strings.TrimPrefix(t, "$ "); t != "" {
				out = append(out, t)
			}
			continue
		}
		for parts := strings.Split(t, "`"); len(parts) >= 3; parts = parts[2:] {
			if span := strings.TrimSpace(parts[1]); span != "" {
				out = append(out, span)
			}
		}
	}
	return out
}

// draftBody is the draft's sections: Mistake and Fix (Issue and Avoid for
// a pitfall), the trigger, the block's other keys, the evidence.
func draftBody(c scan.Candidate, kind string) string {
	mistake, fix := "Mistake", "Fix"
	if kind == markdown.KindPitfall {
		mistake, fix = "Issue", "Avoid"
	}
	var b strings.Builder
	section := func(h, text string) {
		if strings.TrimSpace(text) != "" {
			fmt.Fprintf(&b, "## %s\n%s\n\n", h, strings.TrimSpace(text))
		}
	}
	section(mistake, c.Mistake)
	section(fix, c.Fix)
	if c.Trigger != "" {
		section("Trigger", "`"+strings.ReplaceAll(c.Trigger, "`", "'")+"`")
	}
	for _, f := range c.Extra {
		section(headingOf(f.Key), f.Value)
	}
	var ev []string
	for _, e := range c.Evidence {
		ev = append(ev, fmt.Sprintf("- %s:%d: %s", evidenceFile(c, e), e.Line, oneLine(e.Text)))
	}
	section("Evidence", strings.Join(ev, "\n"))
	return b.String()
}

// evidenceFile is the session file an evidence line was seen in: its
// own, since a merged incident's lines come from several sessions.
func evidenceFile(c scan.Candidate, e scan.Evidence) string {
	if e.File != "" {
		return filepath.Base(e.File)
	}
	return filepath.Base(c.File)
}

func validForm(f string) bool {
	switch f {
	case "checklist", "pattern", "warning", "requirement":
		return true
	}
	return false
}

func headingOf(key string) string {
	key = strings.ReplaceAll(key, "_", " ")
	return strings.ToUpper(key[:1]) + key[1:]
}

func oneLine(s string) string {
	s = textcut.OneLine(s)
	if r := []rune(s); len(r) > 240 {
		s = string(r[:239]) + "…"
	}
	return s
}

// commandRegex derives a starting trigger from a shell trigger: the
// program word, e.g. \bpytest\b. Reviewers refine it.
func commandRegex(c scan.Candidate) string {
	if c.Tool != "Bash" || c.Trigger == "" {
		return ""
	}
	words := strings.Fields(c.Trigger)
	for i, f := range words {
		if !isProgram(f) {
			continue
		}
		w := path.Base(f)
		if !programRe().MatchString(w) || strings.HasPrefix(w, "-") {
			return ""
		}
		// "git push", "npm run", "go test": a subcommand narrows the
		// trigger to the call that failed, not every call of the program.
		if i+1 < len(words) && subcommandRe().MatchString(words[i+1]) {
			return `\b` + regexp.QuoteMeta(w) + `\s+` + regexp.QuoteMeta(words[i+1]) + `\b`
		}
		return `\b` + regexp.QuoteMeta(w) + `\b`
	}
	return ""
}

// isProgram reports whether a word of a command line can be the program:
// not an assignment, nor sudo, env or cd before it.
func isProgram(f string) bool {
	return !strings.Contains(f, "=") && f != "sudo" && f != "env" && f != "cd"
}

var (
	programRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`) })
	subcommandRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]*$`) })
)

// Drafts returns the draft items, most important first (priority, then
// confidence, then oldest).
func Drafts(s *gitstore.Store) ([]*markdown.Item, error) {
	items, errs := s.Load()
	if len(items) == 0 && len(errs) > 0 {
		return nil, errs[0]
	}
	var out []*markdown.Item
	for _, it := range items {
		if it.Status == "draft" {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return markdown.MoreImportant(out[i], out[j]) })
	return out, nil
}

// SetStatus applies the reviewer's refinements and a new status (and
// updated) to the item at rel, under the store lock: the file is read again
// there, so a change another writer made since it was listed is kept. Only
// those keys change; every other byte is kept, and an invalid result writes
// nothing.
func SetStatus(s *gitstore.Store, rel, status string, r Refinement, now time.Time) (*markdown.Item, error) {
	return update(s, rel, status, now, func(it *markdown.Item) error { return Refine(it, r) })
}

// update re-reads the item at rel under the store lock, applies edit, sets
// status and updated, and writes it back.
func update(s *gitstore.Store, rel, status string, now time.Time, edit func(*markdown.Item) error) (*markdown.Item, error) {
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	it, err := s.LoadFile(rel)
	if err != nil {
		return nil, err
	}
	if err := edit(it); err != nil {
		return nil, err
	}
	if err := it.Set("status", status); err != nil {
		return nil, err
	}
	if err := it.Set("updated", now.UTC().Format(time.RFC3339)); err != nil {
		return nil, err
	}
	return it, s.WriteLocked(rel, it.Raw())
}

// Promote makes the item at rel active, after the reviewer's refinement
// r, as an item that injects with the build settings set: a confidence
// under inject.minConfidence is raised to it, since the reviewer's
// approval is the evidence a scan draft lacked, and a priority too low
// for its triggers is raised (Deliverable, which also refuses an item
// whose examples disagree with its triggers). It returns the item and
// what it changed beyond the status, for the reviewer to see.
func Promote(s *gitstore.Store, rel string, r Refinement, set manifest.Settings, now time.Time) (*markdown.Item, []string, error) {
	var notes []string
	minConf := set.MinConfidence
	it, err := update(s, rel, "active", now, func(it *markdown.Item) error {
		was := it.Enforce
		if err := Refine(it, r); err != nil {
			return err
		}
		notes = append(notes, enforceNotes(was, it.Enforce)...)
		if it.Confidence < minConf {
			was, raised := it.Confidence, math.Ceil(minConf*100-1e-9)/100
			if err := it.Set("confidence", raised); err != nil {
				return err
			}
			notes = append(notes, fmt.Sprintf("confidence %.2f raised to %.2f (inject.minConfidence), so it injects", was, raised))
		}
		note, err := Deliverable(it, r.Priority, set)
		if note != "" {
			notes = append(notes, note)
		}
		return err
	})
	return it, notes, err
}

// Reject records a draft's content hash in .lore/rejected (committed, so
// no teammate's scan or render proposes it again) and removes the draft
// file. Only drafts can be rejected.
func Reject(s *gitstore.Store, listed *markdown.Item) error {
	unlock, err := s.Lock()
	if err != nil {
		return err
	}
	defer unlock()
	// Read again under the lock: a draft promoted since it was listed is
	// not removed.
	it, err := s.LoadFile(listed.Path)
	if err != nil {
		return err
	}
	if it.Status != "draft" && it.Status != "proposed" {
		return fmt.Errorf("review: %s is %s, not a draft: archive it instead", it.Path, it.Status)
	}
	h := SourceHash(it)
	if h == "" {
		h = scan.ContentHash(firstTool(it), "", it.Section("Mistake"), it.Section("Fix"))
	}
	if err := migrateRejected(s); err != nil {
		return err
	}
	if err := s.RejectLocked(h, it.Title); err != nil {
		return err
	}
	if err := s.RemoveLocked(it.Path); err != nil {
		return fmt.Errorf("review: %w", err)
	}
	return nil
}

// Refinement is what a reviewer changes while promoting a draft: a scan
// proposes a trigger from one incident; the reviewer knows its scope.
type Refinement struct {
	Title    string
	Priority string   // a band name or 1-10
	Tools    []string // replace triggers.tools
	Commands []string // replace triggers.commands
	Unless   []string // added to triggers.unless
	Paths    []string // replace triggers.paths
	Content  []string // replace triggers.content
	Enforce  string   // once, deny or none ("": unchanged)
	// ExampleFire and ExampleQuiet are examples (`Tool: input`) added to
	// the item's: calls it must fire on and stay quiet on.
	ExampleFire, ExampleQuiet []string
}

// Refine applies r to it in memory (only the keys it names change) and
// validates the result; nothing is written.
func Refine(it *markdown.Item, r Refinement) error {
	if r.Title != "" {
		if err := it.Set("title", r.Title); err != nil {
			return err
		}
	}
	if r.Priority != "" {
		var v any = r.Priority
		if n, err := strconv.Atoi(r.Priority); err == nil {
			v = n
		}
		if err := it.Set("priority", v); err != nil {
			return err
		}
	}
	if len(r.Tools)+len(r.Commands)+len(r.Unless)+len(r.Paths)+len(r.Content) > 0 {
		if err := refineTriggers(it, r); err != nil {
			return err
		}
	}
	if err := refineEnforce(it, r.Enforce); err != nil {
		return err
	}
	if err := refineExamples(it, r.ExampleFire, r.ExampleQuiet); err != nil {
		return err
	}
	if errs := markdown.Validate(it); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// refineEnforce sets enforce (none removes the key) after the priority and
// triggers it depends on. deny on an item below critical is refused rather
// than raised: critical also doubles the item's score and lists it at
// every session start, which the reviewer did not ask for; once, at any
// priority, is the hold they may have meant.
func refineEnforce(it *markdown.Item, enforce string) error {
	t := it.Triggers
	switch enforce {
	case "":
		return nil
	case markdown.EnforceNone:
		return it.Unset("enforce")
	case markdown.EnforceDeny:
		if band := it.Priority.Band(); band != "critical" {
			return fmt.Errorf("%s: enforce deny blocks every matching call and is for critical items only (priority is %s): add --priority critical, or use --enforce once to hold only the first matching call of each session", it.Path, band)
		}
	case markdown.EnforceOnce:
		if len(t.Commands)+len(t.Paths)+len(t.Content) == 0 {
			return fmt.Errorf("%s: enforce once holds the first call that matches a target, and this item has none: add --command, --path or --content", it.Path)
		}
	default:
		return fmt.Errorf("%s: enforce %q: want once, deny or none", it.Path, enforce)
	}
	return it.Set("enforce", enforce)
}

// enforceNotes says what a promotion changed of enforce, for the reviewer.
func enforceNotes(was, now string) []string {
	if was == markdown.EnforceOnce && now == markdown.EnforceOnce {
		// Proposed by the draft (a hang, data loss or a destructive
		// command): the user promoting it must know what it will do.
		return []string{"enforce once (as drafted): the first matching call of each session or sub-agent is held with this lesson as the reason; the same call again proceeds (--enforce none gives it as context instead)"}
	}
	if was == now || was == markdown.EnforceNone && now == "" || was == "" && now == markdown.EnforceNone {
		return nil
	}
	if was == "" {
		was = markdown.EnforceNone
	}
	switch now {
	case markdown.EnforceOnce:
		return []string{"enforce once (was " + was + "): the first matching call of each session or sub-agent is held with this lesson as the reason; the same call again proceeds"}
	case markdown.EnforceDeny:
		return []string{"enforce deny (was " + was + "): every matching call is blocked with this item's fix as the reason"}
	}
	return []string{"enforce none (was " + was + "): the lesson is given as context, no call is held"}
}

// refineTriggers replaces the triggers r names (unless: adds to them).
func refineTriggers(it *markdown.Item, r Refinement) error {
	trig := it.Node("triggers")
	if trig == nil || trig.Kind != yaml.MappingNode {
		trig = &yaml.Node{Kind: yaml.MappingNode}
	}
	setTrigger(trig, "tools", r.Tools, false)
	setTrigger(trig, "commands", r.Commands, false)
	setTrigger(trig, "unless", r.Unless, true)
	setTrigger(trig, "paths", r.Paths, false)
	setTrigger(trig, "content", r.Content, false)
	return it.SetNode("triggers", trig)
}

// setTrigger sets key of the triggers mapping to vals (add: appended to a
// list already there); no vals leave it as it is.
func setTrigger(trig *yaml.Node, key string, vals []string, add bool) {
	if len(vals) == 0 {
		return
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	at := valueIndex(trig, key)
	if at >= 0 && add && trig.Content[at].Kind == yaml.SequenceNode {
		seq = trig.Content[at]
	}
	for _, v := range vals {
		seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: v, Style: yaml.SingleQuotedStyle})
	}
	if at >= 0 {
		trig.Content[at] = seq
		return
	}
	trig.Content = append(trig.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, seq)
}

// valueIndex is the index of key's value in the mapping node m, or -1.
func valueIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i + 1
		}
	}
	return -1
}
