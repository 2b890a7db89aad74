package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/lorepath"
)

// Kinds of knowledge item, each in its own folder under .lore/.
const (
	KindLesson   = "lesson"
	KindPitfall  = "pitfall"
	KindDecision = "decision"
)

// Values of the enforce key (docs/design.md, Prevention before the call):
// deny blocks every matching call, once holds the first matching call of a
// context with the lesson as the reason, none (or no key) injects it as
// context.
const (
	EnforceDeny = "deny"
	EnforceOnce = "once"
	EnforceNone = "none"
)

// Kinds lists the item kinds in display order.
var Kinds = []string{KindLesson, KindPitfall, KindDecision}

// Folder is the .lore/ sub-folder that holds items of a kind.
func Folder(kind string) string {
	switch kind {
	case KindLesson:
		return lorepath.Lessons
	case KindPitfall:
		return lorepath.Pitfalls
	case KindDecision:
		return lorepath.Decisions
	}
	return ""
}

// Triggers say when an item is injected (docs/design.md, Item format). All
// optional.
type Triggers struct {
	Tools    []string `json:"tools,omitempty" yaml:"tools,omitempty"`
	Commands []string `json:"commands,omitempty" yaml:"commands,omitempty"`
	Unless   []string `json:"unless,omitempty" yaml:"unless,omitempty"`
	Paths    []string `json:"paths,omitempty" yaml:"paths,omitempty"`
	// Content regexes are tried on the text an edit adds (docs/design.md,
	// Matching and scoring).
	Content  []string `json:"content,omitempty" yaml:"content,omitempty"`
	Keywords []string `json:"keywords,omitempty" yaml:"keywords,omitempty"`
	Topics   []string `json:"topics,omitempty" yaml:"topics,omitempty"`
}

// Empty reports whether no trigger key is set.
func (t Triggers) Empty() bool {
	return len(t.Tools)+len(t.Commands)+len(t.Unless)+len(t.Paths)+len(t.Content)+len(t.Keywords)+len(t.Topics) == 0
}

// Source is an item's provenance; nil for hand-written items.
// Its yaml tags give the key order a new item's source is written in.
type Source struct {
	Type        string   `json:"type,omitempty" yaml:"type"`
	Sessions    []string `json:"sessions,omitempty" yaml:"sessions,omitempty"`
	Occurrences int      `json:"occurrences,omitempty" yaml:"occurrences,omitempty"`
	Signal      string   `json:"-" yaml:"signal,omitempty"`            // the scan signal that found it, for the reviewer
	Hash        string   `json:"hash,omitempty" yaml:"hash,omitempty"` // what it was made from, so a rerun recognises it
	// Files are repo-relative files the item cites (docs/design.md, Item
	// format): lint reports the item stale when one is gone from HEAD.
	Files []string `json:"files,omitempty" yaml:"files,omitempty"`
}

// Item is one knowledge file: its typed frontmatter, its H2 sections and the
// exact bytes it was parsed from.
type Item struct {
	Path       string
	ID         string
	Kind       string
	Title      string
	Status     string
	Priority   Priority
	Confidence float64
	Form       string
	Ref        string
	Scope      string
	Triggers   Triggers
	Tags       []string
	Enforce    string
	Supersedes []string
	Source     *Source
	Examples   Examples
	Created    time.Time
	Updated    time.Time
	Sections   []Section

	// Problems are type errors found while decoding known keys; Validate
	// reports them with the semantic checks.
	Problems []*Error

	raw       []byte         // the whole file as read
	bodyStart int            // offset of the body in raw
	fmLine    int            // file line of the opening ---
	meta      *yaml.Node     // top-level mapping of the frontmatter (nil if empty)
	keyLines  map[string]int // file line of each frontmatter key, dotted for triggers.*
	hasKey    map[string]bool
}

// Raw returns the bytes the item was parsed from (after any Set).
func (it *Item) Raw() []byte { return it.raw }

// Body returns the Markdown after the frontmatter block.
func (it *Item) Body() []byte { return it.raw[it.bodyStart:] }

// KeyLine returns the file line of a frontmatter key ("triggers.commands"
// for nested trigger keys), or the opening --- line when the key is absent.
func (it *Item) KeyLine(key string) int {
	if l, ok := it.keyLines[key]; ok {
		return l
	}
	return it.fmLine
}

// Has reports whether the frontmatter sets a top-level key.
func (it *Item) Has(key string) bool { return it.hasKey[key] }

// Keys lists the top-level frontmatter keys in file order, unknown ones
// included (read their values with Node).
func (it *Item) Keys() []string {
	if it.meta == nil {
		return nil
	}
	keys := make([]string, 0, len(it.meta.Content)/2)
	for i := 0; i+1 < len(it.meta.Content); i += 2 {
		keys = append(keys, it.meta.Content[i].Value)
	}
	return keys
}

// Section returns the content of the first H2 section with this title
// (case-insensitive), trimmed, or "" when there is none.
func (it *Item) Section(title string) string {
	for _, s := range it.Sections {
		if strings.EqualFold(s.Title, title) {
			return s.Content
		}
	}
	return ""
}

var yamlFormat = frontmatter.NewFormat("---", "---", yaml.Unmarshal)

// Parse reads one knowledge item. A file that cannot be read as an item at
// all (binary, no or unclosed frontmatter, YAML syntax) returns an *Error,
// which names a merge conflict when the file holds git's markers; problems
// with individual keys are kept in Item.Problems.
func Parse(path string, data []byte) (*Item, error) {
	it, err := parse(path, data)
	if err != nil {
		if ce := conflictError(path, data); ce != nil {
			return nil, ce
		}
	}
	return it, err
}

func parse(path string, data []byte) (*Item, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, errorf(path, lineAt(data, i), "", "binary file (NUL byte), not a knowledge item")
	}
	if !utf8.Valid(data) {
		return nil, errorf(path, lineAt(data, firstInvalidUTF8(data)), "", "invalid UTF-8")
	}
	it := &Item{Path: path, raw: data, keyLines: map[string]int{}, hasKey: map[string]bool{}}
	text := bytes.TrimPrefix(data, []byte("\ufeff"))
	bom := len(data) - len(text)

	open, close, end := findFrontmatter(text)
	if open < 0 {
		return nil, errorf(path, 1, "frontmatter", "missing frontmatter: the file must start with a --- line")
	}
	it.fmLine = open
	if close < 0 {
		return nil, errorf(path, open, "frontmatter", "unclosed frontmatter: no closing --- line")
	}
	// adrg/frontmatter is given the block alone: it copies what it reads,
	// and the body is most of a file. It closes the block at the same line
	// or earlier (it trims both sides of a line), so it reads the same one.
	var doc yaml.Node
	block := text[:end]
	rest, err := parseFrontmatter(block, &doc)
	if err != nil {
		return nil, yamlError(path, open, err)
	}
	it.bodyStart = bom + len(block) - len(rest)
	if len(doc.Content) > 0 {
		m := doc.Content[0]
		if m.Kind != yaml.MappingNode {
			return nil, errorf(path, open+m.Line, "frontmatter", "must be a mapping of keys to values")
		}
		it.meta = m
	}
	it.decode()
	it.Sections = parseSections(data, it.bodyStart)
	return it, nil
}

// findFrontmatter returns the 1-based lines of the opening and closing ---
// (leading blank lines are allowed before the opening, as adrg/frontmatter
// allows them), -1 when absent, and the offset where the closing line
// ends. adrg/frontmatter does not report an unclosed block, so it is
// detected here.
func findFrontmatter(text []byte) (open, close, end int) {
	open = -1 // close is set by every return
	line := 0
	for end < len(text) {
		line++
		l := text[end:]
		if i := bytes.IndexByte(l, '\n'); i >= 0 {
			l = l[:i]
			end += i + 1
		} else {
			end = len(text)
		}
		l = bytes.TrimRight(l, "\r")
		switch {
		case open < 0 && len(bytes.TrimSpace(l)) == 0:
			continue
		case open < 0 && string(l) == "---":
			open = line
		case open < 0:
			return -1, -1, 0
		case string(bytes.TrimRight(l, " \t")) == "---":
			return open, line, end
		}
	}
	return open, -1, 0
}

// innerBlock returns what lies between the --- lines of a frontmatter
// block (findFrontmatter's: blank lines, the opening line, the closing
// one last).
func innerBlock(block []byte) []byte {
	open := bytes.Index(block, []byte("---"))
	if open < 0 {
		return nil
	}
	start := open + bytes.IndexByte(block[open:], '\n') + 1
	end := bytes.LastIndexByte(bytes.TrimSuffix(block, []byte("\n")), '\n') + 1
	if start <= open || end < start {
		return nil
	}
	return block[start:end]
}

// readers are the buffered readers adrg/frontmatter reads through: it
// wraps its input in a new 4 KiB bufio.Reader unless given one, a tenth
// of a cold build's allocations at 10,000 items.
var readers = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// parseFrontmatter parses the frontmatter block into doc and returns
// what follows it in block. quickYAML reads what lies between the ---
// lines when it can: it refuses any line adrg/frontmatter could take for
// the closing one, so the two read the same lines.
func parseFrontmatter(block []byte, doc *yaml.Node) ([]byte, error) {
	if quickYAML(innerBlock(block), doc) {
		return nil, nil
	}
	r := readers.Get().(*bufio.Reader)
	defer readers.Put(r)
	r.Reset(bytes.NewReader(block))
	defer r.Reset(nil)
	return frontmatter.Parse(r, doc, yamlFormat)
}

var (
	yamlLineRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })
	yamlParserErrRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^did not find expected (key|',' or '[\]}]'|'-' indicator|node content|<document start>)`)
	})
)

// yamlError turns a yaml.v3 error (lines relative to the frontmatter) into
// an *Error with file lines.
func yamlError(path string, open int, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := open
	if m := yamlLineRe().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		msg = strings.TrimSpace(yamlLineRe().ReplaceAllString(msg, ""))
		msg = strings.TrimPrefix(msg, ": ")
		if yamlParserErrRe().MatchString(msg) {
			n++ // yaml.v3 reports parser (not scanner) errors with 0-based lines
		}
		line = open + n
	}
	return errorf(path, line, "frontmatter", "invalid YAML: %s", msg)
}

// decode fills the typed fields from the mapping node, recording a Problem
// (with line and key) for every value of the wrong type.
func (it *Item) decode() {
	it.Priority = DefaultPriority
	it.Confidence = 1.0
	if it.meta == nil {
		return
	}
	m := it.meta
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		it.hasKey[key] = true
		it.keyLines[key] = it.fmLine + k.Line
		it.decodeKey(key, v)
	}
}

// Keys are the top-level frontmatter keys lore reads (docs/design.md,
// Frontmatter); an item may carry others, which rewrites keep.
var Keys = []string{"id", "kind", "title", "status", "priority", "confidence", "form", "ref", "scope",
	"enforce", "tags", "supersedes", "created", "updated", "triggers", "source", "examples"}

// decodeKey decodes the value of one frontmatter key.
func (it *Item) decodeKey(key string, v *yaml.Node) {
	if p := it.stringField(key); p != nil {
		*p = it.scalar(key, v)
		return
	}
	switch key {
	case "priority":
		it.decodePriority(v)
	case "confidence":
		it.decodeConfidence(v)
	case "tags":
		it.Tags = it.list(key, v)
	case "supersedes":
		it.Supersedes = it.list(key, v)
	case "created":
		it.decodeTime(key, v, &it.Created)
	case "updated":
		it.decodeTime(key, v, &it.Updated)
	case "triggers":
		it.decodeTriggers(v)
	case "source":
		it.decodeSource(v)
	case "examples":
		it.decodeExamples(v)
	}
}

// stringField is the field a plain string key fills, or nil.
func (it *Item) stringField(key string) *string {
	switch key {
	case "id":
		return &it.ID
	case "kind":
		return &it.Kind
	case "title":
		return &it.Title
	case "status":
		return &it.Status
	case "form":
		return &it.Form
	case "ref":
		return &it.Ref
	case "scope":
		return &it.Scope
	case "enforce":
		return &it.Enforce
	}
	return nil
}

func (it *Item) decodePriority(v *yaml.Node) {
	s := it.scalar("priority", v)
	if s == "" {
		return
	}
	p, err := ParsePriority(s)
	if err != nil {
		it.problem(v, "priority", "%v", err)
		return
	}
	it.Priority = p
}

func (it *Item) decodeConfidence(v *yaml.Node) {
	s := it.scalar("confidence", v)
	if s == "" {
		return
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		it.problem(v, "confidence", "%q is not a number", s)
		return
	}
	it.Confidence = f
}

// decodeTime decodes an ISO 8601 date of key into t.
func (it *Item) decodeTime(key string, v *yaml.Node, t *time.Time) {
	s := it.scalar(key, v)
	if s == "" {
		return
	}
	d, err := parseTime(s)
	if err != nil {
		it.problem(v, key, "%q is not an ISO 8601 date", s)
		return
	}
	*t = d
}

func (it *Item) decodeTriggers(v *yaml.Node) {
	it.entries(v, "triggers", "(tools, commands, unless, paths, content, keywords, topics)", func(k, val *yaml.Node, key string) {
		list := it.list(key, val)
		if p := it.Triggers.field(k.Value); p != nil {
			*p = list
		} else {
			it.problem(k, key, "unknown trigger (want tools, commands, unless, paths, content, keywords or topics)")
		}
	})
}

// entries calls f with each key of the mapping v under parent, dotted
// ("triggers.paths"), its line recorded; a value that is not a mapping
// (nor null) is a problem saying what it should hold.
func (it *Item) entries(v *yaml.Node, parent, want string, f func(k, val *yaml.Node, key string)) {
	if v.Kind != yaml.MappingNode {
		if !isNull(v) {
			it.problem(v, parent, "must be a mapping %s", want)
		}
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		key := parent + "." + k.Value
		it.keyLines[key] = it.fmLine + k.Line
		f(k, val, key)
	}
}

// field is the list a trigger key fills, or nil for an unknown one.
func (t *Triggers) field(key string) *[]string {
	switch key {
	case "tools":
		return &t.Tools
	case "commands":
		return &t.Commands
	case "unless":
		return &t.Unless
	case "paths":
		return &t.Paths
	case "content":
		return &t.Content
	case "keywords":
		return &t.Keywords
	case "topics":
		return &t.Topics
	}
	return nil
}

func (it *Item) decodeSource(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		if !isNull(v) {
			it.problem(v, "source", "must be a mapping (type, sessions, occurrences)")
		}
		return
	}
	src := &Source{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		key := "source." + k.Value
		switch k.Value {
		case "type":
			src.Type = it.scalar(key, val)
		case "sessions":
			src.Sessions = it.list(key, val)
		case "hash":
			src.Hash = it.scalar(key, val)
		case "files":
			it.keyLines[key] = it.fmLine + k.Line
			src.Files = it.list(key, val)
		case "signal":
			src.Signal = it.scalar(key, val)
		case "occurrences":
			n, err := strconv.Atoi(it.scalar(key, val))
			if err != nil {
				it.problem(val, key, "must be an integer")
			}
			src.Occurrences = n
		}
	}
	it.Source = src
}

func (it *Item) problem(n *yaml.Node, key, format string, args ...any) {
	it.Problems = append(it.Problems, errorf(it.Path, it.fmLine+n.Line, key, format, args...))
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func (it *Item) scalar(key string, v *yaml.Node) string {
	if isNull(v) {
		return ""
	}
	if v.Kind != yaml.ScalarNode {
		it.problem(v, key, "must be a single value")
		return ""
	}
	return strings.TrimSpace(v.Value)
}

// list accepts a sequence of scalars or, leniently, one scalar.
func (it *Item) list(key string, v *yaml.Node) []string {
	switch {
	case isNull(v):
		return nil
	case v.Kind == yaml.ScalarNode:
		return []string{v.Value}
	case v.Kind != yaml.SequenceNode:
		it.problem(v, key, "must be a list")
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for _, e := range v.Content {
		if e.Kind != yaml.ScalarNode {
			it.problem(e, key, "list entries must be single values")
			continue
		}
		out = append(out, e.Value)
	}
	return out
}

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not ISO 8601: %q", s)
}

func lineAt(data []byte, off int) int { return bytes.Count(data[:off], []byte("\n")) + 1 }

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}
