package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/lore-agents/lore/internal/knowledge/redact"
	"github.com/lore-agents/lore/internal/textcut"
)

// Signals a candidate can come from (docs/design.md, Machine-readable
// interfaces).
const (
	SignalLessonTag        = "lesson-tag"
	SignalProcessKnowledge = "process-knowledge"
	SignalCorrection       = "correction"
	SignalErrorFix         = "error-fix"
	SignalRetry            = "retry"
	SignalHang             = "hang"
	SignalSelfDiagnosis    = "self-diagnosis"
	SignalExplicit         = "explicit"
	SignalClientError      = "client-error" // the agent's client refused a tool call (clienterr.go)
)

// Candidate is one proposed lesson. Its JSON form is the stable line format
// of `lore scan --json`; the fields after Hash are for drafts and review.
type Candidate struct {
	Tier       int      `json:"tier"`
	Signal     string   `json:"signal"`
	Session    string   `json:"session"`
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Title      string   `json:"title"`
	Form       string   `json:"form"`
	Tool       string   `json:"tool"`
	Trigger    string   `json:"trigger"`
	Mistake    string   `json:"mistake"`
	Fix        string   `json:"fix"`
	Tags       []string `json:"tags"`
	Confidence float64  `json:"confidence"`
	Priority   int      `json:"priority"`
	Hash       string   `json:"hash"`

	Evidence    []Evidence `json:"-"` // the transcript lines it came from
	Extra       []Field    `json:"-"` // block keys beyond the known ones, in order
	Tools       []string   `json:"-"` // every tool a process-knowledge block names
	Paths       []string   `json:"-"` // file patterns a process-knowledge block names
	Keywords    []string   `json:"-"`
	Kind        string     `json:"-"` // lesson (default) or pitfall
	Sessions    []string   `json:"-"`
	Occurrences int        `json:"-"`

	signals     facts
	explicitPri int // priority the block itself gave (0: none)
}

// Evidence is one transcript line a candidate rests on: the session file
// it was seen in (a merged incident cites each session's own) and its
// line there.
type Evidence struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Field is an extra block key kept in the order written.
type Field struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// facts are the observable signals the scoring formulas weigh
// (docs/design.md, Candidate scores).
type facts struct {
	selfReport, errorFix, userCorrected, fixConfirmed  bool
	retry, hang, diagnosis, explicit, causal, dataLoss bool
}

var knownLessonKeys = map[string]bool{"tool": true, "trigger": true, "mistake": true, "fix": true, "tags": true, "title": true, "priority": true, "kind": true, "form": true}

// fromBlock turns a Tier 1 block into a candidate.
func fromBlock(b Block) Candidate {
	c := Candidate{Tier: 1, Signal: b.Kind, signals: facts{selfReport: true}}
	if b.Kind == SignalLessonTag {
		c.lessonFields(b)
	} else {
		c.processFields(b)
	}
	c.explicitPri = parsePriority(b.Get("priority"))
	c.signals.causal = causalPhrases.in(c.Mistake)
	c.signals.hang = hasTag(c.Tags, "severity:hang")
	return c
}

// lessonFields reads a #lesson block; keys it does not know are kept as
// extra fields.
func (c *Candidate) lessonFields(b Block) {
	c.Tool = NormalizeTool(b.Get("tool"))
	c.Trigger = b.Get("trigger")
	c.Mistake = b.Get("mistake")
	c.Fix = b.Get("fix")
	c.Tags = splitList(b.Get("tags"))
	c.Form = b.Get("form")
	c.Title = b.Get("title")
	if c.Title == "" {
		c.Title = titleFrom(c.Mistake, c.Fix)
	}
	if k := b.Get("kind"); k == "pitfall" {
		c.Kind = k
	}
	for _, k := range b.Keys {
		if !knownLessonKeys[k] {
			c.Extra = append(c.Extra, Field{k, b.Values[k]})
		}
	}
}

// processFields reads a [PROCESS_KNOWLEDGE] block: its mistake and fix
// are the first of several fields, its trigger comes from its trigger
// conditions, and the rest is kept as extra fields.
func (c *Candidate) processFields(b Block) {
	c.Title = b.Get("label")
	c.Form = strings.ToLower(b.Get("type"))
	c.Mistake = firstOf(b.Get("description"), b.Get("mistake"), b.Get("situation"), b.Get("risk"))
	c.Fix = firstOf(b.Get("fix"), b.Get("checklist"), b.Get("pattern"), b.Get("warning"), b.Get("requirement"), b.Get("action"))
	c.triggerConditions(nested(b.Get("trigger_conditions")))
	c.Tags = splitList(b.Get("tags"))
	if c.Title == "" {
		c.Title = titleFrom(c.Mistake, c.Fix)
	}
	used := map[string]bool{"label": true, "type": true, "priority": true, "trigger_conditions": true, "tags": true}
	for _, k := range b.Keys {
		if !used[k] && b.Values[k] != c.Mistake && b.Values[k] != c.Fix {
			c.Extra = append(c.Extra, Field{k, b.Values[k]})
		}
	}
}

// triggerConditions reads a process-knowledge block's tools, paths and
// keywords; the trigger is the first of its commands, paths or keywords.
func (c *Candidate) triggerConditions(tc map[string]string) {
	for _, t := range splitList(tc["tool_names"]) {
		c.Tools = append(c.Tools, NormalizeTool(t))
	}
	if len(c.Tools) > 0 {
		c.Tool = c.Tools[0]
	}
	c.Paths = splitList(tc["file_patterns"])
	c.Keywords = splitList(tc["action_keywords"])
	c.Trigger = firstOf(strings.Join(splitList(tc["command_patterns"]), ", "), strings.Join(c.Paths, ", "), strings.Join(c.Keywords, ", "))
}

// nested reads "key: value" lines of an indented sub-block.
func nested(s string) map[string]string {
	m := map[string]string{}
	var cur string
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if mm := keyRe().FindStringSubmatch(t); mm != nil && l == strings.TrimLeft(l, " \t") {
			cur = strings.ToLower(mm[1])
			m[cur] = strings.TrimSpace(t[len(mm[0]):])
		} else if cur != "" && t != "" {
			m[cur] = strings.TrimSpace(m[cur] + "\n" + t)
		}
	}
	return m
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if strings.EqualFold(x, t) {
			return true
		}
	}
	return false
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// titleFrom makes a title from the first sentence of the mistake (or the
// fix); redactAll shortens every title once its secrets are out, so that
// a cut never leaves part of a secret the detector no longer recognises.
func titleFrom(ss ...string) string {
	s := strings.TrimSpace(firstOf(ss...))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i > 20 {
		s = s[:i]
	}
	return strings.TrimRight(strings.TrimSpace(s), ".:")
}

// shortTitle makes s one line of at most 100 characters, cut at a word:
// what lint accepts as a title.
func shortTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxTitle {
		cut := string(r[:maxTitle-1])
		if i := strings.LastIndexByte(cut, ' '); i > 40 {
			cut = cut[:i]
		}
		s = cut + "…"
	}
	return s
}

// score applies docs/design.md, Candidate scores. Confidence: self-reports
// start at 0.85 (0.4 base + 0.25 self-report bonus, with the
// identified mistake/fix pair); heuristics at 0.4 plus their signals.
// Priority: base 3 plus bonuses, -1 when seen once, at least medium (5)
// for a self-report, clamped to 1..10; a block's own priority wins.
func (c *Candidate) score() {
	f := c.signals
	recurring := len(c.Sessions) >= 2
	conf := 0.4
	if f.selfReport {
		conf = 0.85
	}
	// Summed left to right, as the bonuses were always added.
	conf = conf + bonus(f.errorFix && !f.selfReport, 0.20) + bonus(f.userCorrected, 0.15) + bonus(recurring, 0.10) +
		bonus(f.retry || f.hang && !f.selfReport, 0.10) + bonus(f.explicit, 0.20) + bonus(f.causal, 0.05)
	c.Confidence = math.Round(math.Min(1, math.Max(0, conf))*100) / 100

	pri := 3 + 2*boolInt(recurring) + boolInt(f.hang) + boolInt(f.dataLoss) + boolInt(f.userCorrected) +
		boolInt(f.fixConfirmed) + boolInt(f.selfReport) - boolInt(c.Occurrences <= 1)
	if f.selfReport {
		// The agent said it in so many words: medium at least, so that a
		// promoted draft's triggers can reach the threshold.
		pri = max(pri, 5)
	}
	c.Priority = min(10, max(1, pri))
	if c.explicitPri > 0 {
		c.Priority = c.explicitPri
	}
}

// bonus is b when the signal is there, else 0.
func bonus(signal bool, b float64) float64 {
	if signal {
		return b
	}
	return 0
}

// norm lowercases, folds every run of digits to 0 and every run of
// white space to one space (by hand: it runs on every candidate).
func norm(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space, digit := false, false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space, digit = true, false
		case r >= '0' && r <= '9':
			if !digit {
				b.WriteByte('0')
			}
			space, digit = false, true
		default:
			b.WriteRune(r)
			space, digit = false, false
		}
	}
	return b.String()
}

// ContentHash identifies a lesson by what it says, so the same lesson from
// two sessions (or already in the store) is one: tool, trigger, mistake and
// fix, lowercased, whitespace collapsed and numbers folded.
func ContentHash(tool, trigger, mistake, fix string) string {
	h := sha256.Sum256([]byte(norm(tool) + "\x00" + norm(trigger) + "\x00" + norm(mistake) + "\x00" + norm(fix)))
	return hex.EncodeToString(h[:8])
}

// hash is the candidate's identity in the store and in .lore/rejected. A
// process-knowledge block is its label and whole body (its fields are
// not tool/trigger/mistake/fix). A Tier 2 incident is its tool, program
// and the shape of its error, so the same failure on another branch, file
// or number is the same draft (and stays rejected once rejected).
func (c *Candidate) hash() string {
	switch {
	case c.Signal == SignalProcessKnowledge:
		body := []string{c.Mistake, c.Fix, c.Trigger, c.Form}
		for _, f := range c.Extra {
			body = append(body, f.Key, f.Value)
		}
		return ContentHash(c.Tool, c.Title, strings.Join(body, "\x00"), "")
	case c.Tier == 2 && c.Trigger != "":
		return ContentHash(c.Tool, prog(c.Trigger), shape(c.Mistake, c.Trigger, c.Fix), "")
	}
	return ContentHash(c.Tool, c.Trigger, c.Mistake, c.Fix)
}

// shape folds what differs between two runs of one failure: words with a
// digit, a path or a dot inside, and words the commands themselves name
// (a branch, a file), so "branch spotter-dov has no upstream" and "branch
// spotter-a0y has no upstream" are one.
func shape(text string, cmds ...string) string {
	named := map[string]bool{}
	for _, c := range cmds {
		for _, w := range strings.Fields(c) {
			named[strings.Trim(w, wordPunct)] = true
		}
	}
	words := strings.Fields(text)
	for i, w := range words {
		if t := strings.Trim(w, wordPunct); named[t] || varying(t) {
			words[i] = "_"
		}
	}
	return strings.Join(words, " ")
}

// wordPunct is the punctuation around a word in a message.
const wordPunct = "\"'`,:;()[]{}"

// varying says a word differs between runs: it has a digit, a path or a
// dot inside.
func varying(t string) bool {
	return strings.ContainsAny(t, "0123456789/\\") || strings.Contains(strings.TrimRight(t, "."), ".")
}

// redactAll replaces secrets in every text a candidate carries, and this
// machine's paths through local, and takes out terminal control sequences
// (a reviewer reads drafts in a terminal and on GitHub: docs/design.md,
// What a reviewer cannot see); on error the candidate must not be used
// (fail closed). seen holds texts already redacted in this scan: the same
// incident in many sessions, or a field repeated in the title, is checked
// once.
func (c *Candidate) redactAll(local *strings.Replacer, seen map[string]string) error {
	for _, p := range c.texts() {
		r, ok := seen[*p]
		if !ok {
			var err error
			if r, err = redact.String(local.Replace(textcut.StripTerminal(*p))); err != nil {
				return err
			}
			seen[*p] = r
		}
		*p = r
	}
	c.Title = shortTitle(c.Title)
	return c.redactExtra(local)
}

// redactExtra redacts each extra field's value with its key in front, as
// it was written, so a rule that needs the key's keyword (adafruit_token:)
// fires.
func (c *Candidate) redactExtra(local *strings.Replacer) error {
	for i := range c.Extra {
		f := &c.Extra[i]
		v, err := redact.Field(f.Key, local.Replace(textcut.StripTerminal(f.Value)))
		if err != nil {
			return err
		}
		f.Value = v
	}
	return nil
}

// texts are the candidate's texts, to be redacted in place.
func (c *Candidate) texts() []*string {
	texts := []*string{&c.Title, &c.Trigger, &c.Mistake, &c.Fix, &c.Form, &c.Tool}
	texts = appendRefs(texts, c.Tags)
	for i := range c.Evidence {
		texts = append(texts, &c.Evidence[i].Text)
	}
	texts = appendRefs(texts, c.Paths)
	return appendRefs(texts, c.Keywords)
}

func appendRefs(refs []*string, ss []string) []*string {
	for i := range ss {
		refs = append(refs, &ss[i])
	}
	return refs
}

func itoa(n int) string { return strconv.Itoa(n) }

// DataLoss reports whether the incident lost or overwrote data (its
// output said so): a draft about it is proposed with enforce: once.
func (c Candidate) DataLoss() bool { return c.signals.dataLoss }
