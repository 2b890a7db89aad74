package learn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/knowledge/redact"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// EventCaptured marks a key as captured.
const EventCaptured = "learnings_captured"

// Event is one line of the event log.
type Event struct {
	Type    string   `json:"type"`
	Key     string   `json:"key"`
	At      string   `json:"at"`
	Entries []string `json:"entries"`         // titles written to learnings.md
	Force   bool     `json:"force,omitempty"` // a --force re-extraction
	Healed  bool     `json:"healed,omitempty"`
}

var keyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}$`) })

// ValidKey checks a phase or run id: one short token that can sit in a
// marker line.
func ValidKey(key string) error {
	if !keyRE().MatchString(key) {
		return fmt.Errorf("learn: key %q: want 1-100 characters of letters, digits and ._:/@+- (e.g. phase-3)", key)
	}
	return nil
}

// marker is the last body line of every entry captured for key; it lets a
// re-run find what a run interrupted before its event record wrote.
func marker(key string) string { return "<!-- lore learn " + key + " -->" }

// MinWords is the shortest learning kept: "None", "N/A" and "TBD" say nothing.
const MinWords = 3

// maxTitle caps an entry title (lint's title limit is 100).
const maxTitle = 90

// Skip is an extracted line left out, and why.
type Skip struct {
	Learning
	Reason string
}

// Validate redacts the learnings and drops empty, too short and duplicate
// ones (within the batch and against the titles and bodies of existing
// entries). A redaction failure is returned: nothing may be written then.
func Validate(ls []Learning, existing *markdown.Learnings) (kept []Learning, skipped []Skip, err error) {
	seen := map[string]bool{}
	if existing != nil {
		for _, e := range existing.Entries {
			seen[norm(e.Title)] = true
			for _, line := range strings.Split(e.Body, "\n") {
				seen[norm(line)] = true
			}
		}
	}
	for _, l := range ls {
		if l.Text, err = redact.String(l.Text); err != nil {
			return nil, nil, fmt.Errorf("learn: nothing written: %w", err)
		}
		n := norm(l.Text)
		switch {
		case n == "":
			skipped = append(skipped, Skip{l, "empty"})
		case len(strings.Fields(n)) < MinWords:
			skipped = append(skipped, Skip{l, fmt.Sprintf("fewer than %d words", MinWords)})
		case seen[n] || seen[norm(Title(l.Text))]:
			skipped = append(skipped, Skip{l, "duplicate"})
		default:
			seen[n] = true
			seen[norm(Title(l.Text))] = true
			kept = append(kept, l)
		}
	}
	return kept, skipped, nil
}

func norm(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRight(s, ".!;: ")
}

// Title is an entry title for a learning: its first sentence, cut at a
// word boundary.
func Title(text string) string {
	t := text
	if i := strings.Index(t, ". "); i >= 20 {
		t = t[:i]
	}
	t = strings.TrimRight(t, ". ")
	if utf8.RuneCountInString(t) <= maxTitle {
		return t
	}
	r := []rune(t)[:maxTitle]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > maxTitle/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// Entry is the learnings.md body of a learning captured for key.
func Entry(key string, l Learning) string {
	var b strings.Builder
	if l.Kind != "" {
		b.WriteString("kind: " + l.Kind + "\n")
	}
	if Title(l.Text) != strings.TrimRight(l.Text, ". ") { // the title says it all otherwise
		b.WriteString(l.Text + "\n\n")
	}
	b.WriteString("Source: " + key + " (" + l.Source + ")\n")
	b.WriteString(marker(key))
	return b.String()
}

// Status is what Capture did.
type Status int

const (
	Captured   Status = iota // new entries written, key recorded
	Already                  // the key was recorded before: nothing written
	Healed                   // entries were there without their record (a run killed between the writes): record written
	Recaptured               // --force: the key's entries replaced
)

// Result reports a Capture.
type Result struct {
	Status  Status
	Added   []string   // titles written
	Kept    []Learning // the learnings written (Captured, Recaptured)
	Removed int        // entries of the key removed by --force
	Skipped []Skip
	When    string // Already: when the key was recorded
	EmitErr error  // the signals could not be written
}

// ErrNothing is returned when the notes state no learning: nothing is
// recorded, so the key can be captured once the notes say something.
var ErrNothing = errors.New("learn: no learnings found")

// Source is one file of notes.
type Source struct {
	Path string // relative to the work tree, or absolute
	Data []byte
}

// sourceName is how a notes file is cited in the committed learnings: its
// path in the work tree, or only its name when it lies outside (an
// absolute path would carry this machine's home folder and user name).
func sourceName(s *gitstore.Store, p string) string {
	if !filepath.IsAbs(p) {
		return filepath.ToSlash(p) // already relative to the work tree
	}
	if rel := s.Rel(p); !filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Base(p)
}

// Capture records key's learnings from srcs into the store's learnings
// file, under the store lock. Write order makes a re-run safe after a kill
// at any point: learnings.md first (atomic, every entry marked with the
// key), then emit (the signals of the learnings written, or nil), then the
// event (atomic). A run that finds marked entries but no event emits again
// and writes the event. An emit error is returned in the Result: signals
// are short-lived guidance, the learnings are recorded all the same.
func Capture(s *gitstore.Store, learningsPath, key string, srcs []Source, force bool, now time.Time, emit func([]Learning) error) (*Result, error) {
	if err := ValidKey(key); err != nil {
		return nil, err
	}
	// Learnings cite their notes repo-relative (or by name, from outside
	// the work tree): never this machine's absolute path.
	named := make([]Source, len(srcs))
	for i, src := range srcs {
		named[i] = Source{Path: sourceName(s, src.Path), Data: src.Data}
	}
	unlock, err := s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	c := &capture{s: s, learningsPath: learningsPath, key: key, srcs: named, force: force, now: now, emit: emit}
	if err := c.load(); err != nil {
		return nil, err
	}
	if !force {
		if res, done, err := c.resume(); done {
			return res, err
		}
	}
	return c.extract()
}

// capture is one Capture under the store lock: the learnings file as it
// is, and the key's entries in it.
type capture struct {
	s             *gitstore.Store
	learningsPath string
	key           string
	srcs          []Source
	force         bool
	now           time.Time
	emit          func([]Learning) error

	events []Event
	data   []byte           // the learnings file
	mine   []markdown.Entry // its entries marked with the key
}

// load reads the event log and the learnings file.
func (c *capture) load() error {
	var err error
	if c.events, err = ReadEvents(c.s.Path(lorepath.Events)); err != nil {
		return err
	}
	c.data, err = c.s.ReadFile(c.learningsPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("learn: %w", err)
	}
	l, err := markdown.ParseLearnings(c.learningsPath, c.data)
	if err != nil {
		return err
	}
	for _, e := range l.Entries {
		if strings.Contains(e.Body, marker(c.key)) {
			c.mine = append(c.mine, e)
		}
	}
	return nil
}

// resume finishes without extracting when the key was captured (done), or
// when a killed run wrote its entries but not its event: the signals are
// emitted again and the event written (healed).
func (c *capture) resume() (res *Result, done bool, err error) {
	res = &Result{}
	if ev := lastEvent(c.events, c.key); ev != nil {
		res.Status, res.When = Already, ev.At
		return res, true, nil
	}
	if len(c.mine) == 0 {
		return nil, false, nil
	}
	for _, e := range c.mine {
		res.Added = append(res.Added, e.Title)
	}
	res.Status = Healed
	// What the killed run wrote: the same notes checked against the
	// file without its entries.
	if res.Kept, err = extractNew(c.learningsPath, without(c.data, c.mine), c.srcs); err != nil {
		return nil, true, err
	}
	if c.emit != nil {
		res.EmitErr = c.emit(res.Kept)
	}
	return res, true, appendEvent(c.s, Event{Type: EventCaptured, Key: c.key, At: stamp(c.now), Entries: res.Added, Healed: true})
}

// extract writes the learnings the notes state (--force: in place of the
// key's entries), emits their signals and records the event.
func (c *capture) extract() (*Result, error) {
	data := without(c.data, c.mine) // --force: take the key's entries out
	res := &Result{Removed: len(c.mine)}
	rest, err := markdown.ParseLearnings(c.learningsPath, data)
	if err != nil {
		return nil, err
	}
	found := extract(c.srcs)
	kept, skipped, err := Validate(found, rest)
	if err != nil {
		return nil, err
	}
	res.Skipped = skipped
	if len(found) == 0 {
		return res, ErrNothing
	}
	res.Kept = kept
	for _, k := range kept {
		t := Title(k.Text)
		data = markdown.AppendEntry(data, t, Entry(c.key, k))
		res.Added = append(res.Added, t)
	}
	if len(kept) > 0 || res.Removed > 0 {
		if err := c.s.WriteLocked(c.learningsPath, data); err != nil {
			return nil, err
		}
	}
	res.Status = Captured
	if c.force {
		res.Status = Recaptured
	}
	if c.emit != nil && len(kept) > 0 {
		res.EmitErr = c.emit(kept)
	}
	return res, appendEvent(c.s, Event{Type: EventCaptured, Key: c.key, At: stamp(c.now), Entries: nonNil(res.Added), Force: c.force})
}

// without removes entries from a learnings file (last first, so the
// offsets hold).
func without(data []byte, entries []markdown.Entry) []byte {
	entries = slices.Clone(entries)
	sort.Slice(entries, func(a, b int) bool { return entries[a].Start > entries[b].Start })
	data = slices.Clone(data)
	for _, e := range entries {
		data = append(data[:e.Start:e.Start], data[e.End:]...)
	}
	return data
}

func extract(srcs []Source) []Learning {
	var found []Learning
	for _, src := range srcs {
		found = append(found, Extract(src.Path, src.Data)...)
	}
	return found
}

// extractNew is the learnings of srcs that a learnings file does not have.
func extractNew(learningsPath string, data []byte, srcs []Source) ([]Learning, error) {
	rest, err := markdown.ParseLearnings(learningsPath, data)
	if err != nil {
		return nil, err
	}
	kept, _, err := Validate(extract(srcs), rest)
	return kept, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func lastEvent(events []Event, key string) *Event {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == EventCaptured && events[i].Key == key {
			return &events[i]
		}
	}
	return nil
}

// ReadEvents reads the event log; broken lines (a hand edit, a bad merge)
// are skipped, never fatal. A missing log is empty.
func ReadEvents(path string) ([]Event, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	var out []Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e Event
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Type != "" {
			out = append(out, e)
		}
	}
	return out, nil
}

// appendEvent rewrites the log with one more line, atomically (the caller
// holds the store lock). Not an append (AppendLocked) as the observation
// log is: a capture's event is its commit point, and a kill mid-append
// would leave half a line where a rerun expects the old log or the new.
func appendEvent(s *gitstore.Store, e Event) error {
	data, err := s.ReadFile(lorepath.Events)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("learn: %w", err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	// The merge rule first: the event is the last write of a capture.
	// git merges two branches' event logs by keeping both sides' lines:
	// the log is append-only and order does not matter.
	if err := s.EnsureUnion(lorepath.Events); err != nil {
		return err
	}
	return s.WriteLocked(lorepath.Events, append(append(data, line...), '\n'))
}
