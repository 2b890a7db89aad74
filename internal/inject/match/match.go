// Package match decides which compiled items to inject before one tool
// call (docs/design.md, Matching and scoring): tool filter, shell-aware command
// and glob path targets, unless vetoes, relevance and score, threshold, session
// dedup, ordering, and the item and byte budgets.
//
// It is pure and light enough for the hook binary: it reads a
// manifest.Manifest and imports no git, Markdown or YAML code. Index, used
// at build time, decides which bucket of the manifest an item goes to and
// which literals gate it, so that Decide scores only the few candidates a
// call can possibly select and compiles only their regexes.
package match

import (
	"fmt"
	"iter"
	"regexp"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lore-agents/lore/internal/inject/manifest"
)

// Call is one tool call, with names already normalized by the adapter.
type Call struct {
	Tool    string   // normalized lore tool name: Bash, Read, Edit, Write, Glob, Grep, NotebookEdit, WebFetch, ...
	Command string   // the shell command, for Bash
	Path    string   // repo-relative path for file tools ("" when none)
	Content string   // the text an Edit/Write/NotebookEdit call adds, for content triggers
	Prompt  string   // latest user prompt (keywords)
	Recent  []string // last five prompts of the session (topics)
}

// Result is one scored item.
type Result struct {
	ID, Title, File  string // File: repo-relative source file of the item
	Score, Relevance float64
	Priority         int
	Reasons          []string
	Text             string // what to inject (rendered by form; the title when it fell back)
	Fallback         bool   // Text is the title fallback
	Deny             bool   // enforce: deny on an active critical item
	DenyReason       string // the fix, for permissionDecisionReason
	// Hold: enforce: once, the target matched in code. The hook denies
	// the first such call of a context with Text as the reason; the item
	// is then seen and later calls proceed.
	Hold bool

	confidence float64
	scope      int // 0 project, 1 org, 2 user: the order on equal scores
	item       manifest.Item
	src        *manifest.Manifest // the manifest or part item was read from: its texts are there
}

// Item is the compiled item the result scored. Its texts and source
// entries are in the manifest it came from, its manifest or a part of
// it: see Changed.
func (r Result) Item() manifest.Item { return r.item }

// mentioned starts the claim of an enforce: once item shown without
// holding the call (its command was only mentioned, or it matched on
// phrases): the context has the lesson, and its first call that runs the
// command is still held.
const mentioned = "mention:"

// Claim is the key a context claims r under when r is shown
// (docs/design.md, Dedup per context): its id, or for a hold shown
// without holding, its id after "mention:", so that a grep of the command
// does not use up the hold.
func (r Result) Claim() string {
	if r.item.Hold && !r.Hold {
		return mentioned + r.ID
	}
	return r.ID
}

// ClaimedID is the id of the item a claim key names.
func ClaimedID(key string) string { return strings.TrimPrefix(key, mentioned) }

// Changed is the first file the item was compiled from that changed since
// the build, "" when none (manifest.ItemChanged, asked of the manifest the
// item came from: a part's item never changes).
func (r Result) Changed(root string) (string, error) { return r.src.ItemChanged(root, r.item) }

// Decision is the outcome for one call: what to inject, in order; what
// passed the threshold but did not fit; and how many items were scored.
// Rejected (Explain only) lists every other item with why it was out.
type Decision struct {
	Injected   []Result
	Dropped    []Result
	Considered int
	Rejected   []Result
}

// Tolerance is the slack of every score comparison.
const Tolerance = 1e-9

// Seen reports whether an item was injected already in this session. It
// is asked with the id's bytes as they lie in the manifest (not to be
// kept): a long session asks for most candidates, and a string each cost
// an allocation.
type Seen func(id []byte) bool

// Decide runs docs/design.md, Matching and scoring, for one tool call. seen
// reports ids already injected in this session (nil: a fresh session); deny
// items are never deduplicated. The items of m's parts are scored with
// m's own, as if they were in m (docs/design.md, Scopes and organisation
// stores).
func Decide(m *manifest.Manifest, c Call, seen Seen) (Decision, error) {
	return newEval(c, false).decide(m, seen, false)
}

// DecidePrompt is the UserPromptSubmit variant: only items that have
// keywords and no tools or targets, scored with tool and target at 0.5.
func DecidePrompt(m *manifest.Manifest, prompt string, recent []string, seen Seen) (Decision, error) {
	return newEval(Call{Prompt: prompt, Recent: recent}, true).decide(m, seen, false)
}

// Explain is Decide for `lore match`: it scores every item, not only the
// index's candidates, and lists the ones that were not selected with why
// (not those a part's Off switches off: the project does not have them).
// Injected and Dropped are those of Decide for a fresh session.
func Explain(m *manifest.Manifest, c Call) (Decision, error) {
	e := newEval(c, false)
	d, err := e.decide(m, nil, true)
	if err != nil {
		return Decision{}, err
	}
	d.Considered = 0
	e.explain = false // the index's candidates, as Decide has them
	for src := range withParts(m) {
		idx, err := e.candidates(src)
		if err != nil {
			return Decision{}, err
		}
		for _, i := range idx {
			h, err := src.Head(i)
			if err != nil {
				return Decision{}, err
			}
			if !src.SwitchedOff(h) {
				d.Considered++
			}
		}
	}
	return d, nil
}

// withParts yields the manifests a call scores the items of: m, then its
// parts in order.
func withParts(m *manifest.Manifest) iter.Seq[*manifest.Manifest] {
	return func(yield func(*manifest.Manifest) bool) {
		if yield(m) {
			for _, p := range m.Parts() {
				if !yield(p) {
					return
				}
			}
		}
	}
}

// candidates are the items of src worth scoring: the index's candidates
// for the call, or for Explain every item (without those a part switches
// off; the index's may have them: pass skips them).
func (e *eval) candidates(src *manifest.Manifest) ([]int, error) {
	switch {
	case e.explain:
		return src.All()
	case e.promptMode:
		return src.Candidates(PromptBucket, "", "", e.call.Prompt)
	}
	return src.Candidates(e.tool, e.probe, e.added, e.call.Prompt)
}

type eval struct {
	tool   string
	kind   int
	target string // the command line or the path
	// probe is the text whose literals decide the candidates: the target,
	// and after it bare when there is one ("orders".db holds no
	// orders.db). A literal found across the join only adds a candidate,
	// which its patterns then reject.
	probe     string
	targetLow string // probe, ASCII-lowercased, made on first need
	// bare is the command line after quote removal (unquote), "" when
	// that changes nothing; drops are the offsets in target of the bytes
	// it took out.
	bare       string
	drops      []int
	edits      bool   // the tool adds text: content triggers apply
	added      string // that text
	addedHits  map[string]bool
	addedLow   []byte   // added, ASCII-lowercased, for long texts
	call       Call     // the prompts as given, normalized on first need (phrases)
	prompt     string   // the latest prompt, normalized
	texts      []string // it and the recent prompts, normalized
	normed     bool     // prompt and texts are made
	promptMode bool
	cmds       []string // simple commands, parsed on first need
	bareCmds   []string // with bare: each one's unquoted form, "" when the same
	parsed     bool
	regexps    map[string]*regexp.Regexp
	// Items share patterns (a store has dozens of `\bpytest\b`): each is
	// run over the call once.
	cmdHits    map[string]hit
	unlessHits map[string]bool
	explain    bool // build reasons (lore match), not only the decision
}

func newEval(c Call, promptMode bool) *eval {
	e := &eval{tool: Tool(c.Tool), call: Call{Prompt: c.Prompt, Recent: c.Recent}, promptMode: promptMode}
	e.kind = targetKind(e.tool)
	switch e.kind {
	case targetShell:
		e.target = joinContinuations(c.Command)
		if strings.ContainsAny(e.target, `'"\`) {
			if bare, drops := unquote(e.target); bare != e.target {
				e.bare, e.drops = bare, drops
			}
		}
	case targetFile:
		e.target = strings.TrimPrefix(c.Path, "./")
		e.edits, e.added = Edits(e.tool), c.Content
	}
	if promptMode {
		e.kind, e.target, e.edits, e.added = targetNone, "", false, ""
	}
	e.probe = e.target
	if e.bare != "" {
		e.probe += "\n" + e.bare
	}
	return e
}

// phrases returns the latest prompt and every recent one, normalized on
// first need: a call whose candidates were all shown already, or that has
// none, scores no phrase (up to five prompts' worth of unicode folding a
// call, 1.5% of a steady-state hook call's instructions).
func (e *eval) phrases() (prompt string, texts []string) {
	if !e.normed {
		e.prompt, e.normed = normText(e.call.Prompt), true
		e.texts = []string{e.prompt}
		for _, r := range e.call.Recent {
			e.texts = append(e.texts, normText(r))
		}
	}
	return e.prompt, e.texts
}

// decide scores the candidates of m and of its parts, ranks them as one
// list and fits it under m's settings (a part's own are not read).
func (e *eval) decide(m *manifest.Manifest, seen Seen, explain bool) (Decision, error) {
	e.explain = explain
	var d Decision
	var kept []Result
	thr := m.Settings().Threshold
	for src := range withParts(m) {
		idx, err := e.candidates(src)
		if err != nil {
			return Decision{}, err
		}
		d.Considered += len(idx)
		if kept, err = e.pass(src, idx, thr, seen, &d, kept); err != nil {
			return Decision{}, err
		}
	}
	sort.Slice(kept, func(a, b int) bool { return less(kept[a], kept[b]) })
	sort.SliceStable(d.Rejected, func(a, b int) bool { return less(d.Rejected[a], d.Rejected[b]) })
	if err := d.fit(m, kept); err != nil {
		return Decision{}, err
	}
	return d, nil
}

// pass scores the candidates idx of src and appends to kept those over
// the threshold thr and not yet shown in the session; for Explain, the
// others go to d.Rejected with why.
func (e *eval) pass(src *manifest.Manifest, idx []int, thr float64, seen Seen, d *Decision, kept []Result) ([]Result, error) {
	for _, i := range idx {
		h, err := src.Head(i)
		if err != nil {
			return nil, err
		}
		if skip, err := e.skip(h, seen); err != nil {
			return nil, err
		} else if skip || src.SwitchedOff(h) {
			continue
		}
		it, err := src.ItemOf(h)
		if err != nil {
			return nil, err
		}
		r, out := e.score(it)
		r.src = src
		switch {
		case out != "" && e.explain:
			if never := ContentUnreachable(it.Triggers.Tools, it.Triggers.Content); never != "" {
				out += "; it " + never
			}
		case out == "":
			out = e.cut(&r, thr)
		}
		if out == "" && seen != nil && r.item.Hold && !r.Hold && seen([]byte(r.Claim())) {
			continue // a mention of a hold, shown already in the session
		}
		if out == "" {
			kept = append(kept, r)
		} else if e.explain {
			d.reject(r, out)
		}
	}
	return kept, nil
}

// skip reports, from a candidate's head alone, that the call (not Explain)
// need not read its record: it was shown earlier in the session (in a long
// session, most were, and scoring them would compile their regexes for
// nothing; a deny is never deduplicated), or each of its command patterns
// lacks a required literal, so it cannot match.
func (e *eval) skip(h manifest.Head, seen Seen) (bool, error) {
	switch {
	case e.explain:
		return false, nil
	case !h.Deny && seen != nil && seen(h.IDBytes()):
		return true, nil
	}
	return e.cannotMatch(h)
}

// reject lists r as not injected, with why (Explain).
func (d *Decision) reject(r Result, out string) {
	r.Reasons = append(r.Reasons, "not injected: "+out)
	d.Rejected = append(d.Rejected, r)
}

// cut says why a scored item is not kept ("" when it is): below the
// threshold. (One injected already in this session was skipped before it
// was scored.)
func (e *eval) cut(r *Result, thr float64) string {
	below := r.Score < thr-Tolerance
	switch {
	case below && e.explain:
		out := fmt.Sprintf("score %.2f is below the threshold %.2f", r.Score, thr)
		if never := Never(r.item.Triggers, r.Priority, thr); never != "" {
			out += "; it " + never
		}
		return out
	case below:
		return "below the threshold"
	}
	return ""
}

// fit injects the kept items in order while they fit m's inject.maxItems and
// inject.budgetBytes (a deny or a hold always goes in, as its title at
// worst); the others are Dropped with why.
func (d *Decision) fit(m *manifest.Manifest, kept []Result) error {
	set := m.Settings()
	used := 0
	for _, r := range kept {
		if len(d.Injected) >= set.MaxItems && !r.blocks() {
			r.Reasons = append(r.Reasons, fmt.Sprintf("dropped: over inject.maxItems (%d)", set.MaxItems))
			d.Dropped = append(d.Dropped, r)
			continue
		}
		text, err := r.src.Text(r.item)
		if err != nil {
			return err
		}
		if err := denyReason(&r); err != nil {
			return err
		}
		if !d.budget(&r, text, used, set.BudgetBytes) {
			continue
		}
		used += len(r.Text)
		d.Injected = append(d.Injected, r)
	}
	return nil
}

// denyReason sets a deny's permissionDecisionReason: its fix, or its title.
func denyReason(r *Result) error {
	if !r.Deny {
		return nil
	}
	fix, err := r.src.Fix(r.item)
	if err != nil {
		return err
	}
	r.DenyReason = fix
	if r.DenyReason == "" {
		r.DenyReason = r.Title
	}
	return nil
}

// budget sets r's text when it fits the budget after used bytes (the first
// item always does), its title when only that fits (a deny or a hold
// always does), and otherwise drops it and reports false.
func (d *Decision) budget(r *Result, text string, used, budget int) bool {
	switch fb := FallbackText(r.Title, r.File); {
	case len(d.Injected) == 0 || used+len(text) <= budget:
		r.Text = text
	case used+len(fb) <= budget || r.blocks():
		r.Text, r.Fallback = fb, true
		r.Reasons = append(r.Reasons, fmt.Sprintf("title only: %d bytes would exceed inject.budgetBytes (%d)", len(text), budget))
	default:
		r.Reasons = append(r.Reasons, fmt.Sprintf("dropped: over inject.budgetBytes (%d)", budget))
		d.Dropped = append(d.Dropped, *r)
		return false
	}
	return true
}

// FallbackText is what an item injects when its text does not fit: its
// title and the file it came from.
func FallbackText(title, file string) string {
	return fmt.Sprintf("### %s\n(details: %s)\n", title, file)
}

// less orders by score, then origin (project, org, user: docs/design.md,
// Scopes and organisation stores), priority, confidence and id.
func less(a, b Result) bool {
	if d := a.Score - b.Score; d > Tolerance || d < -Tolerance {
		return d > 0
	}
	if a.scope != b.scope {
		return a.scope < b.scope
	}
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	if d := a.confidence - b.confidence; d > Tolerance || d < -Tolerance {
		return d > 0
	}
	return a.ID < b.ID
}

// scopeOf ranks an item's origin for less.
func scopeOf(it manifest.Item) int {
	switch {
	case it.Org:
		return 1
	case it.Global:
		return 2
	}
	return 0
}

// notes collects the reasons of one score, for Explain only.
type notes struct {
	explain bool
	why     []string
}

func (n *notes) add(format string, args ...any) {
	if n.explain {
		n.why = append(n.why, fmt.Sprintf(format, args...))
	}
}

func (n *notes) addText(s string) {
	if n.explain {
		n.why = append(n.why, s)
	}
}

// score computes an item's components. out names why the item cannot be
// injected for this call ("" when it can, subject to threshold and dedup).
func (e *eval) score(it manifest.Item) (r Result, out string) {
	r = Result{ID: it.ID, Title: it.Title, File: it.File, Priority: it.Priority,
		confidence: it.Confidence, scope: scopeOf(it), item: it}
	n := notes{explain: e.explain}
	t := it.Triggers
	if Untriggered(t) {
		return r, e.why("it has no triggers: it is delivered at session start, not before a call")
	}
	tool, out := e.toolFit(t.Tools, &n)
	target, matched := 0.5, false
	if out == "" {
		target, matched, out = e.targetFit(t, it.Required, &n)
	}
	if out == "" {
		out = e.vetoed(t.Unless)
	}
	if out == "" {
		out = e.relevance(&r, t, tool, target, &n)
	}
	if out != "" {
		r.Reasons = n.why
		return r, out
	}
	mult := Multiplier(it.Priority)
	r.Score = r.Relevance * mult
	n.add("score: %.2f = relevance %.2f x %.1f (priority %d)", r.Score, r.Relevance, mult, it.Priority)
	e.enforce(&r, it, matched, &n)
	r.Reasons = n.why
	return r, ""
}

// toolFit scores the tool filter: 1 when the item names the tool, 0.5 when
// it names none; out when it names others.
func (e *eval) toolFit(tools []string, n *notes) (tool float64, out string) {
	switch {
	case e.promptMode:
		n.add("tool: prompt (0.5)")
	case len(tools) == 0:
		n.add("tool: any (0.5)")
	case e.namesTool(tools):
		n.add("tool: %s (1.0)", e.tool)
		return 1, ""
	default:
		return 0, e.why("tool %s is not in %v", e.tool, tools)
	}
	return 0.5, ""
}

// targetFit scores the command or path and content targets: 1 when the
// call's matches, 0.5 when the item has none for it; out when it has and
// they do not match.
func (e *eval) targetFit(t manifest.Triggers, required [][]string, n *notes) (target float64, matched bool, out string) {
	if len(t.Content) > 0 && !e.edits {
		// Content is what the lesson is about: a call that adds no text
		// (Read of the same file, a shell command) cannot show it.
		return 0, false, e.why("content triggers set and a %s call adds no text", e.toolName())
	}
	switch {
	case e.kind == targetShell && len(t.Commands) > 0:
		out = e.commandFits(t.Commands, required, n)
	case e.kind == targetFile && (len(t.Paths) > 0 || e.edits && len(t.Content) > 0):
		out = e.fileFits(t, n)
	default:
		n.add("target: none for %s (0.5)", e.toolName())
		return 0.5, false, ""
	}
	return 1, out == "", out
}

func (e *eval) commandFits(pats []string, required [][]string, n *notes) string {
	pat, where := e.matchCommand(pats, required)
	if pat == "" {
		return e.why("no command pattern %q matches", pats)
	}
	n.add("command: `%s` matched `%s` (1.0)", pat, where)
	return ""
}

// fileFits matches paths and content: both constrain the call, each set
// must match.
func (e *eval) fileFits(t manifest.Triggers, n *notes) string {
	if out := e.pathFits(t.Paths, n); out != "" {
		return out
	}
	if !e.edits || len(t.Content) == 0 {
		return ""
	}
	pat, at := e.matchContent(t.Content)
	if pat == "" {
		return e.why("no content pattern %q matches the text the call adds", t.Content)
	}
	n.add("content: `%s` matched %q (1.0)", pat, at)
	return ""
}

func (e *eval) pathFits(globs []string, n *notes) string {
	if len(globs) == 0 {
		return ""
	}
	glob := e.matchPath(globs)
	switch {
	case glob != "":
		n.add("path: `%s` matched %s (1.0)", glob, e.target)
		return ""
	case e.target == "":
		return e.why("paths %q set and the call has no path", globs)
	}
	return e.why("no path glob %q matches %s", globs, e.target)
}

// vetoed says which unless pattern rules the item out ("" when none).
func (e *eval) vetoed(unless []string) string {
	if e.kind == targetNone || e.target == "" {
		return ""
	}
	for _, u := range unless {
		if e.unlessMatches(u) {
			return e.why("unless `%s` matched", u)
		}
	}
	return ""
}

// relevance sets r.Relevance from the tool and target scores and the
// keywords and topics present; out when the item has only phrases and
// none is present.
func (e *eval) relevance(r *Result, t manifest.Triggers, tool, target float64, n *notes) string {
	prompt, texts := e.phrases()
	kw, kwHits := phraseFit(t.Keywords, n, "keywords: none set (0.5)", "keywords: %d/%d %q (%.2f)", prompt)
	topics, topHits := phraseFit(t.Topics, n, "topics: none set (0.5)", "topics: %d/%d %q (%.2f)", texts...)
	if !ShapeOf(t).PhraseOnly() {
		r.Relevance = 0.4*tool + 0.4*target + 0.1*kw + 0.1*topics
		return ""
	}
	// Keywords and topics are all it has: without a phrase it would be on
	// for every call at high priority and dead at medium.
	if kwHits+topHits == 0 {
		return e.why("keyword/topic-only item and none of its phrases is present")
	}
	r.Relevance = phraseRelevance(kwHits, len(t.Keywords), topHits, len(t.Topics))
	n.add("relevance: keyword/topic-only, the fraction of its phrases present (%.2f)", r.Relevance)
	return ""
}

// phraseFit returns the fraction of the phrases present in the texts (0.5
// when there are none) and how many are; none and hits are its notes.
func phraseFit(phrases []string, n *notes, none, hits string, texts ...string) (float64, int) {
	if len(phrases) == 0 {
		n.addText(none)
		return 0.5, 0
	}
	found := phraseHits(phrases, texts...)
	f := float64(len(found)) / float64(len(phrases))
	n.add(hits, len(found), len(phrases), found, f)
	return f, len(found)
}

// enforce makes r a deny when the item is an active critical deny whose
// target matched, and its command pattern matched code, not a mention;
// likewise a hold (enforce: once).
func (e *eval) enforce(r *Result, it manifest.Item, matched bool, n *notes) {
	r.Deny = it.Deny && matched && it.Priority >= 9 && it.Status == "active"
	r.Hold = it.Hold && matched && !r.Deny
	if r.blocks() && e.kind == targetShell && !e.matchesCode(it.Triggers.Commands) {
		// still injected: a mention is worth a lesson, not a block
		n.add("enforce: %s not applied: the command matches only inside quotes, a here-document or a comment", r.enforcement())
		r.Deny, r.Hold = false, false
	}
	if r.blocks() {
		n.add("enforce: %s", r.enforcement())
	}
}

// blocks reports whether r stops the call before it runs (a deny always,
// a hold the first time in a context).
func (r *Result) blocks() bool { return r.Deny || r.Hold }

// enforcement names r's enforce value in its reasons.
func (r *Result) enforcement() string {
	if r.Hold {
		return "once (the first matching call of a context is held with this lesson)"
	}
	return "deny"
}

// why formats why an item is out, for Explain only: the hook never prints
// it, and a tool call should not pay for fmt.
func (e *eval) why(format string, args ...any) string {
	if !e.explain {
		return "rejected"
	}
	return fmt.Sprintf(format, args...)
}

func (e *eval) toolName() string {
	if e.promptMode {
		return "a prompt"
	}
	return e.tool
}

func (e *eval) namesTool(tools []string) bool { return namesTool(tools, e.tool) }

// namesTool reports whether one of tools is the normalized tool.
func namesTool(tools []string, tool string) bool {
	for _, t := range tools {
		if Tool(t) == tool {
			return true
		}
	}
	return false
}

func (e *eval) regexp(pat string) *regexp.Regexp {
	if re, ok := e.regexps[pat]; ok {
		return re
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		re = nil // compile rejects such items; a hand-made manifest just never matches
	}
	if e.regexps == nil {
		e.regexps = map[string]*regexp.Regexp{}
	}
	e.regexps[pat] = re
	return re
}

// hit is what a command pattern matched: the whole line or one simple
// command (where), or nothing (!ok).
type hit struct {
	where string
	ok    bool
}

// matchCommand returns the first pattern that matches the whole command line
// or one of its simple commands, and what it matched. A pattern whose
// required literals (by index, manifest.Item.Required) are not all in the
// line cannot match either: it is not compiled.
func (e *eval) matchCommand(pats []string, required [][]string) (pat, where string) {
	for i, p := range pats {
		if i < len(required) && !e.hasAll(required[i]) {
			continue
		}
		h, done := e.cmdHits[p]
		if !done {
			h = e.runCommand(p)
			if e.cmdHits == nil {
				e.cmdHits = map[string]hit{}
			}
			e.cmdHits[p] = h
		}
		if h.ok {
			return p, h.where
		}
	}
	return "", ""
}

// cannotMatch reports whether a command line lacks a required literal of
// each of an item's command patterns, which targetFit would then reject.
func (e *eval) cannotMatch(h manifest.Head) (bool, error) {
	if e.kind != targetShell {
		return false, nil
	}
	possible, err := h.Possible(e.holds)
	return !possible, err
}

// hasAll reports whether the command line holds every one of the
// lowercased literals (ASCII case-insensitively).
func (e *eval) hasAll(lits []string) bool {
	for _, l := range lits {
		if !strings.Contains(e.lowTarget(), l) {
			return false
		}
	}
	return true
}

// holds is hasAll for one literal as it lies in the manifest (a literal's
// string is on the stack: it does not escape and is short).
func (e *eval) holds(lit []byte) bool { return strings.Contains(e.lowTarget(), string(lit)) }

// lowTarget is probe ASCII-lowercased, made on first need.
func (e *eval) lowTarget() string {
	if e.targetLow == "" {
		e.targetLow = string(asciiLower(e.probe))
	}
	return e.targetLow
}

func (e *eval) runCommand(p string) hit {
	re := e.regexp(p)
	if re == nil {
		return hit{}
	}
	if re.MatchString(e.target) {
		return hit{e.target, true}
	}
	for _, c := range e.commands() {
		if re.MatchString(c) {
			return hit{c, true}
		}
	}
	// As the shell reads the words: rm -f "orders".db removes orders.db.
	if e.bare != "" && re.MatchString(e.bare) {
		return hit{e.bare, true}
	}
	for _, b := range e.bareCmds {
		if b != "" && re.MatchString(b) {
			return hit{b, true}
		}
	}
	return hit{}
}

// commands returns the simple commands of the line, split on first need,
// and with them their unquoted forms (bareCmds).
func (e *eval) commands() []string {
	if !e.parsed {
		e.cmds, e.parsed = SimpleCommands(e.target), true
		if e.bare != "" {
			e.bareCmds = make([]string, len(e.cmds))
			for i, c := range e.cmds {
				if b := unquoted(c, offsetIn(e.target, c), e.drops); b != c {
					e.bareCmds[i] = b
				}
			}
		}
	}
	return e.cmds
}

// matchContent returns the first content pattern that matches the text
// the call adds, and (for Explain) the text it matched.
func (e *eval) matchContent(pats []string) (pat, at string) {
	for _, p := range pats {
		ok, done := e.addedHits[p]
		if !done {
			re := e.regexp(p)
			ok = re != nil && e.addedMatches(re, p)
			if e.addedHits == nil {
				e.addedHits = map[string]bool{}
			}
			e.addedHits[p] = ok
		}
		if ok {
			return p, e.snippet(p)
		}
	}
	return "", ""
}

// snippet returns, for Explain, the start of the added text p matched.
func (e *eval) snippet(p string) string {
	if !e.explain {
		return ""
	}
	loc := e.regexp(p).FindStringIndex(e.added)
	if loc == nil {
		return ""
	}
	return e.added[loc[0]:min(loc[1], loc[0]+80)]
}

// unlessMatches reports whether the veto pattern u matches the target.
func (e *eval) unlessMatches(u string) bool {
	m, done := e.unlessHits[u]
	if !done {
		re := e.regexp(u)
		m = re != nil && (re.MatchString(e.target) || e.bare != "" && re.MatchString(e.bare))
		if e.unlessHits == nil {
			e.unlessHits = map[string]bool{}
		}
		e.unlessHits[u] = m
	}
	return m
}

// matchesCode reports whether a command pattern matches, on the line or on
// one simple command, as written or as the shell reads its words (unquote),
// at a place that starts outside quoted strings, here-document bodies and
// comments (docs/design.md, Matching and scoring): "pytest" in a commit
// message is not a run of pytest, while a guard that names a quoted
// argument (rm -rf "$HOME") still holds, as does a quoted command name.
// Only an item that would deny pays for the second scan.
func (e *eval) matchesCode(pats []string) bool {
	spans, _ := inertSpans(e.target)
	if len(spans) == 0 {
		return true // nothing is quoted: the match stands
	}
	e.commands()
	for _, p := range pats {
		if re := e.regexp(p); re != nil && e.matchesCodeWith(re, spans) {
			return true
		}
	}
	return false
}

// matchesCodeWith is matchesCode for one compiled pattern.
func (e *eval) matchesCodeWith(re *regexp.Regexp, spans []span) bool {
	if startsInCode(re, e.target, 0, spans, nil) {
		return true
	}
	for _, c := range e.cmds {
		if startsInCode(re, c, offsetIn(e.target, c), spans, nil) {
			return true
		}
	}
	if e.bare != "" && startsInCode(re, e.bare, 0, spans, e.drops) {
		return true
	}
	for i, b := range e.bareCmds {
		if b != "" && startsInCode(re, b, offsetIn(e.target, e.cmds[i]), spans, e.drops) {
			return true
		}
	}
	return false
}

// startsInCode reports whether a match of re in text, which starts at off
// in the line, starts outside every inert span. text is unquoted(...,
// off, drops) of the line's bytes when drops is set.
func startsInCode(re *regexp.Regexp, text string, off int, spans []span, drops []int) bool {
	for _, m := range re.FindAllStringIndex(text, -1) {
		if !inSpan(lineOffset(off, m[0], drops), spans) {
			return true
		}
	}
	return false
}

// inSpan reports whether offset at is inside one of the spans.
func inSpan(at int, spans []span) bool {
	for _, sp := range spans {
		if sp.start <= at && at < sp.end {
			return true
		}
	}
	return false
}

func (e *eval) matchPath(globs []string) string {
	if e.target == "" {
		return ""
	}
	for _, g := range globs {
		if ok, err := doublestar.Match(g, e.target); err == nil && ok {
			return g
		}
	}
	return ""
}
