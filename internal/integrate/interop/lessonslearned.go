package interop

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

// llLesson is one lesson of lessons-learned, in either of its files: the
// compiled manifest (data/lesson-manifest.json, lessons keyed by id, regex
// sources with flags) or a store export (lessons as a list, triggers with
// pattern strings).
type llLesson struct {
	ID                 string   `json:"id"`
	Slug               string   `json:"slug"`
	Type               string   `json:"type"`
	Status             string   `json:"status"`
	Priority           int      `json:"priority"`
	ToolNames          []string `json:"toolNames"`
	CommandRegex       []llRe   `json:"commandRegexSources"`
	PathRegex          []llRe   `json:"pathRegexSources"`
	ModelRegex         []llRe   `json:"modelRegexSources"`
	ContentRegex       []llRe   `json:"-"` // a store export's triggers.contentPatterns
	CommandMatchTarget string   `json:"commandMatchTarget"`
	Tags               []string `json:"tags"`
	Scope              *string  `json:"scope"`
	Message            string   `json:"message"`
	Injection          string   `json:"injection"`
	Summary            string   `json:"summary"`
	Problem            string   `json:"problem"`
	Solution           string   `json:"solution"`
	Triggers           *struct {
		ToolNames       []string `json:"toolNames"`
		CommandPatterns []string `json:"commandPatterns"`
		PathPatterns    []string `json:"pathPatterns"`
		ContentPatterns []string `json:"contentPatterns"`
	} `json:"triggers"`
}

type llRe struct {
	Source string `json:"source"`
	Flags  string `json:"flags"`
}

// ReadLessonsLearned plans the import of a lessons-learned manifest or
// store file (name is its path, for the report).
func ReadLessonsLearned(name string, data []byte) (Plan, error) {
	var doc struct {
		Type    string          `json:"type"`
		Lessons json.RawMessage `json:"lessons"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return Plan{}, fmt.Errorf("%s: not a lessons-learned file: %w", name, err)
	}
	var lessons []llLesson
	var err error
	switch {
	case len(doc.Lessons) > 0 && doc.Lessons[0] == '{': // the manifest
		lessons, err = llManifest(doc.Lessons)
	case len(doc.Lessons) > 0 && doc.Lessons[0] == '[': // a store export
		lessons, err = llStore(doc.Lessons)
	default:
		return Plan{}, fmt.Errorf("%s: lessons: missing: not a lessons-learned manifest or store", name)
	}
	if err != nil {
		return Plan{}, fmt.Errorf("%s: lessons: %w", name, err)
	}
	p := Plan{Source: "lessons-learned"}
	for _, l := range lessons {
		p.addLesson(name, l)
	}
	return p, nil
}

// llManifest reads a manifest's lessons, by id.
func llManifest(raw json.RawMessage) ([]llLesson, error) {
	byID := map[string]llLesson{}
	if err := json.Unmarshal(raw, &byID); err != nil {
		return nil, err
	}
	var lessons []llLesson
	for id, l := range byID {
		l.ID = id
		lessons = append(lessons, l)
	}
	sort.Slice(lessons, func(a, b int) bool { return lessons[a].ID < lessons[b].ID })
	return lessons, nil
}

// llStore reads a store export's lessons.
func llStore(raw json.RawMessage) ([]llLesson, error) {
	var lessons []llLesson
	if err := json.Unmarshal(raw, &lessons); err != nil {
		return nil, err
	}
	for i := range lessons {
		lessons[i].fromStore()
	}
	return lessons, nil
}

// fromStore moves a store record's triggers to the manifest's fields.
func (l *llLesson) fromStore() {
	if l.Triggers == nil {
		return
	}
	l.ToolNames = l.Triggers.ToolNames
	for _, c := range l.Triggers.CommandPatterns {
		l.CommandRegex = append(l.CommandRegex, llRe{Source: c})
	}
	for _, c := range l.Triggers.PathPatterns {
		l.PathRegex = append(l.PathRegex, llRe{Source: c})
	}
	for _, c := range l.Triggers.ContentPatterns {
		l.ContentRegex = append(l.ContentRegex, llRe{Source: c})
	}
	if l.Message == "" {
		l.Message = l.Injection
	}
}

func (p *Plan) addLesson(file string, l llLesson) {
	from := file + ": " + l.ID
	title := oneLine(l.Summary)
	if title == "" {
		title = l.Slug
	}
	if p.skipLesson(from, title, l) {
		return
	}
	if len(title) > markdown.MaxTitle {
		p.note(from, title, "title cut to %d characters (the full summary is the Mistake's first line)", markdown.MaxTitle)
		l.Problem = strings.TrimSpace(l.Summary + "\n\n" + l.Problem)
		title = cutTitle(title)
	}
	spec := markdown.Spec{
		Kind: markdown.KindLesson, Title: title, Status: "draft",
		Priority: strconv.Itoa(clamp(l.Priority, 1, 10)), Tags: llTags(l.Tags),
		Body: llBody(l),
	}
	edits, why := p.lessonTriggers(from, l, &spec)
	p.applyType(from, l, &spec, why)
	p.Drafts = append(p.Drafts, Draft{Key: l.ID, From: from, Spec: spec})
	if !edits.Empty() {
		// A lore item with content matches no shell command: the
		// lesson's Edit and Write side is an item of its own.
		p.note(from, title, "imported as two items: one on %s, and triggers.content on %s (key %s/edits)", strings.Join(spec.Triggers.Tools, ", "), strings.Join(edits.Tools, ", "), l.ID)
		spec.Triggers = edits
		p.Drafts = append(p.Drafts, Draft{Key: l.ID + "/edits", From: from, Spec: spec})
	}
}

// skipLesson notes why a lesson is not imported, and reports whether it is.
func (p *Plan) skipLesson(from, title string, l llLesson) bool {
	switch {
	case strings.ContainsRune(l.Summary+l.Slug+l.Problem+l.Solution+l.Message, 0):
		p.note(from, "", "skipped: its text has a NUL character")
	case title == "":
		p.note(from, "", "skipped: no summary or slug to title it")
	case l.Scope != nil && *l.Scope != "":
		p.note(from, title, "skipped: scoped to another project (%s); import it in that repository", *l.Scope)
	case l.Status == "archived" || l.Status == "disabled":
		p.note(from, title, "skipped: status %s", l.Status)
	default:
		return false
	}
	return true
}

// lessonTriggers sets the spec's triggers from the lesson's and returns
// the triggers of its edits item, if any; why says why they were not
// carried (then the body lists them).
func (p *Plan) lessonTriggers(from string, l llLesson, spec *markdown.Spec) (edits markdown.Triggers, why string) {
	trig, edits, why := llTriggers(l)
	p.noteContent(from, spec.Title, l, edits, why)
	switch {
	case why != "":
		p.note(from, spec.Title, "triggers not carried (imported without them, listed under \"Imported triggers\"): %s", why)
		spec.Body += importedTriggers(l)
	case trig.Empty():
		spec.Triggers, edits = edits, markdown.Triggers{}
	default:
		spec.Triggers = trig
	}
	return edits, why
}

// applyType makes a guard a critical deny, and notes what the lesson's
// type becomes in lore.
func (p *Plan) applyType(from string, l llLesson, spec *markdown.Spec, why string) {
	title := spec.Title
	switch l.Type {
	case "guard":
		p.guard(from, l, spec, why)
	case "directive", "protocol":
		if spec.Triggers.Empty() {
			p.note(from, title, "%s (session start in lessons-learned): imported without triggers, so once active it is injected at session start%s", l.Type, criticalNote(l.Priority))
		}
	default:
		if spec.Triggers.Empty() && why == "" {
			p.note(from, title, "no tool names: lessons-learned's hook never injects it; imported without triggers")
		}
	}
}

// guard makes the spec a critical deny, noting what that changes.
func (p *Plan) guard(from string, l llLesson, spec *markdown.Spec, why string) {
	spec.Priority, spec.Enforce = "critical", "deny"
	if l.Priority < 9 {
		p.note(from, spec.Title, "guard: priority %d raised to critical, which enforce: deny needs", l.Priority)
	}
	if why != "" || len(spec.Triggers.Commands)+len(spec.Triggers.Paths)+len(spec.Triggers.Content) == 0 {
		p.note(from, spec.Title, "guard: enforce: deny without a command or path target is not compiled until triggers are added")
	}
}

func criticalNote(prio int) string {
	if prio >= 9 {
		return ", and listed with its fix at every session start (critical)"
	}
	return ""
}

// llTriggers carries the lesson's tool names and patterns over when lore
// decides every call as lessons-learned's hook does; otherwise it says why
// not. Tools the hook can never match for this lesson are left out: a file
// path on Bash, a command pattern on Read, any pattern on Glob, Grep and
// tools without a file_path. On Edit and Write the hook tests the command
// patterns on the text the call adds (and the path patterns on its path):
// those become edits, the triggers of a second item with triggers.content,
// since a lore item with content matches no shell command. A store
// export's contentPatterns join them there (see llContent).
func llTriggers(l llLesson) (t, edits markdown.Triggers, why string) {
	if len(l.ToolNames) == 0 {
		return t, edits, ""
	}
	hasCmd, hasPath := len(l.CommandRegex) > 0, len(l.PathRegex) > 0
	if len(l.ModelRegex) > 0 && !modelImplied(l) {
		return t, edits, "modelRegexSources must match too (an AND of two patterns lore cannot express)"
	}
	content, why := llContent(l.ContentRegex)
	if why != "" {
		return t, edits, why
	}
	if !hasCmd && !hasPath {
		return contentOnly(l.ToolNames, content)
	}
	t.Tools, edits.Tools = llTools(l.ToolNames, hasCmd, len(content) > 0)
	if len(t.Tools)+len(edits.Tools) == 0 {
		return t, edits, "no tool in toolNames can ever match its patterns in lessons-learned's hook"
	}
	cmdUnless, why := llCommands(l.CommandRegex, &t, edits.Tools)
	if why != "" {
		return markdown.Triggers{}, markdown.Triggers{}, why
	}
	pathUnless, why := llPaths(l.PathRegex, &t)
	if why != "" {
		return markdown.Triggers{}, markdown.Triggers{}, why
	}
	t, edits = llSplit(t, edits, content, cmdUnless, pathUnless, hasCmd)
	return t, edits, ""
}

// llSplit shares the patterns between the item on Bash and the others (t)
// and the edits item: the edits test the command patterns as content,
// with the paths; t keeps what its tools can match.
func llSplit(t, edits markdown.Triggers, content, cmdUnless, pathUnless []string, hasCmd bool) (markdown.Triggers, markdown.Triggers) {
	t.Unless = appendNew(cmdUnless, pathUnless...)
	if len(edits.Tools) > 0 {
		edits.Content, edits.Paths, edits.Unless = append(slices.Clip(t.Commands), content...), t.Paths, pathUnless
	}
	switch {
	case len(t.Tools) == 0:
		t = markdown.Triggers{}
	case len(edits.Tools) > 0 && hasCmd:
		// Bash only: its paths were for the edits, which have them.
		t.Paths, t.Unless = nil, cmdUnless
	}
	return t, edits
}

// llCommands adds the command patterns to t and returns their unless
// patterns; why says why they cannot be carried.
func llCommands(res []llRe, t *markdown.Triggers, editTools []string) (unless []string, why string) {
	for _, r := range res {
		pat, u, err := jsCommand(r.Source, r.Flags)
		if err != nil {
			return nil, fmt.Sprintf("command pattern %q: %v", r.Source, err)
		}
		t.Commands = append(t.Commands, pat)
		unless = appendNew(unless, u...)
	}
	if len(unless) > 0 && !sameUnless(res) {
		return nil, "its command patterns have different negative lookaheads (lore's unless vetoes the whole item)"
	}
	if len(unless) > 0 && len(editTools) > 0 {
		return nil, fmt.Sprintf("on %s its command patterns test the added text with a negative lookahead (lore's unless tests the path, not the text)", editTools[0])
	}
	return unless, ""
}

// llPaths adds the path patterns to t as globs and returns their unless
// patterns; why says why they cannot be carried.
func llPaths(res []llRe, t *markdown.Triggers) (unless []string, why string) {
	for _, r := range res {
		globs, u, err := jsPathGlob(r.Source, r.Flags)
		if err != nil {
			return nil, fmt.Sprintf("path pattern %q: %v", r.Source, err)
		}
		if len(u) > 0 && len(res) > 1 {
			return nil, fmt.Sprintf("path pattern %q: its lookahead would veto the other path patterns", r.Source)
		}
		t.Paths = appendNew(t.Paths, globs...)
		unless = appendNew(unless, u...)
	}
	return unless, ""
}

// modelImplied reports whether the lesson's modelRegexSources gate is
// implied by its command patterns: each is an alternation of literals
// (word boundaries aside), each containing a literal model pattern (case
// folded when that has the i flag). The hook tests the model patterns on
// the same text (the command, else the added text), so any text a command
// pattern matches passes the gate.
func modelImplied(l llLesson) bool {
	if len(l.CommandRegex) == 0 {
		return false
	}
	for _, c := range l.CommandRegex {
		if !impliesModel(c, l.ModelRegex) {
			return false
		}
	}
	return true
}

// impliesModel reports whether every alternative of the command pattern c
// is a literal that contains a model pattern.
func impliesModel(c llRe, models []llRe) bool {
	if c.Flags != "" || strings.ContainsAny(c.Source, "()") {
		return false
	}
	for _, alt := range strings.Split(c.Source, "|") {
		lit := strings.ReplaceAll(alt, `\b`, "")
		if lit == "" || regexp.QuoteMeta(lit) != lit || !containsModel(lit, models) {
			return false
		}
	}
	return true
}

func containsModel(lit string, models []llRe) bool {
	for _, m := range models {
		if literalIn(lit, m) {
			return true
		}
	}
	return false
}

// literalIn reports whether m is a literal pattern (with at most the i
// flag) found in lit.
func literalIn(lit string, m llRe) bool {
	if regexp.QuoteMeta(m.Source) != m.Source || strings.Trim(m.Flags, "i") != "" {
		return false
	}
	return strings.Contains(lit, m.Source) || m.Flags == "i" && strings.Contains(strings.ToLower(lit), strings.ToLower(m.Source))
}

// sameUnless reports whether every command pattern ends in the same
// negative lookahead (or none has one).
func sameUnless(res []llRe) bool {
	first := ""
	for i, r := range res {
		_, u, _ := jsCommand(r.Source, r.Flags)
		s := strings.Join(u, "\x00")
		if i == 0 {
			first = s
		} else if s != first {
			return false
		}
	}
	return true
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		dup := false
		for _, x := range list {
			dup = dup || x == a
		}
		if !dup {
			list = append(list, a)
		}
	}
	return list
}

var tagRe = lazyre.New(`^[a-z0-9]+:[^\s]+$`)

func llTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if tagRe().MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// llBody renders Mistake and Fix, and the injected message when it says
// more than they do. Headings inside it are demoted below H2, where they
// would start new sections.
func llBody(l llLesson) string {
	secs := [][2]string{{"Mistake", l.Problem}, {"Fix", l.Solution}}
	msg := strings.TrimSpace(l.Message)
	plain := "## Lesson: " + strings.TrimSpace(l.Summary) + "\n" + strings.TrimSpace(l.Problem) + "\n**Fix**: " + strings.TrimSpace(l.Solution)
	if msg != "" && msg != plain {
		secs = append(secs, [2]string{"Injection", demote(msg)})
	}
	return markdown.SectionsBody(secs, false)
}

// importedTriggers lists a lesson's original triggers for the reviewer.
func importedTriggers(l llLesson) string {
	var b strings.Builder
	b.WriteString("## Imported triggers\nlessons-learned's triggers, which lore cannot express as they are:\n\n")
	fmt.Fprintf(&b, "- toolNames: %s\n", codeList(l.ToolNames))
	for _, set := range []struct {
		name string
		res  []llRe
	}{{"command", l.CommandRegex}, {"path", l.PathRegex}, {"model", l.ModelRegex}} {
		for _, r := range set.res {
			fmt.Fprintf(&b, "- %s: `%s` %s\n", set.name, r.Source, r.Flags)
		}
	}
	return b.String()
}

func codeList(l []string) string {
	var q []string
	for _, s := range l {
		q = append(q, "`"+s+"`")
	}
	return strings.Join(q, ", ")
}

// demote makes the H1 and H2 headings of s H3s, so that they stay
// inside the section they are put under; lines in code fences (a shell
// comment, a template's "## Learnings") are text and stay as they are.
func demote(s string) string {
	return outsideFences(s, func(l string) string {
		if strings.HasPrefix(l, "# ") {
			return "##" + l
		}
		if strings.HasPrefix(l, "## ") {
			return "#" + l
		}
		return l
	})
}

// outsideFences returns s with f applied to each line outside code
// fences (``` or ~~~, as h2Sections reads them).
func outsideFences(s string, f func(string) string) string {
	lines := strings.Split(s, "\n")
	fence := ""
	for i, l := range lines {
		var code bool
		if fence, code = fenceAfter(fence, strings.TrimSpace(l)); !code {
			lines[i] = f(l)
		}
	}
	return strings.Join(lines, "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cutTitle shortens a title to MaxTitle characters at a word boundary.
func cutTitle(s string) string {
	r := []rune(s)
	if len(r) <= markdown.MaxTitle {
		return s
	}
	cut := string(r[:markdown.MaxTitle-1])
	if i := strings.LastIndexByte(cut, ' '); i > markdown.MaxTitle/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:-") + "…"
}

func clamp(n, lo, hi int) int {
	if n == 0 {
		return 5 // lessons-learned's default
	}
	return max(lo, min(hi, n))
}
