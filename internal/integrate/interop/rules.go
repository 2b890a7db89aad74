package interop

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

// fileTools are the tools a path-scoped rule is about: the calls that
// read or change a file (paths alone would be tried on nothing else, and
// an item with paths but no tools fires on every shell call).
var fileTools = []string{"Read", "Edit", "Write"}

// itemMarker names the lore item an exported rule or section came from, so
// that importing lore's own export adds nothing to the store it came from.
var itemMarkerRe = lazyre.New(`(?m)^<!-- lore:item (\S+) -->\n?`)

// ruleFile is a Markdown file with optional frontmatter, read leniently:
// Cursor's documented globs are an unquoted comma list, which YAML reads
// as an alias ("*" starts one), so a block YAML rejects is read as
// "key: value" lines.
type ruleFile struct {
	meta map[string]any
	body string
	line int // file line where the body starts
}

func readRuleFile(data []byte) ruleFile {
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\ufeff"), "\r\n", "\n")
	start := frontmatterStart(text)
	if start < 0 {
		return ruleFile{body: text, line: 1}
	}
	end := strings.Index(text[start+4:], "\n---")
	if end < 0 {
		return ruleFile{body: text, line: 1}
	}
	block := text[start+4 : start+4+end+1]
	rest := text[start+4+end+4:]
	rest = strings.TrimPrefix(strings.TrimLeft(rest, "-"), "\n")
	return ruleFile{meta: readMeta(block), body: rest, line: strings.Count(text[:len(text)-len(rest)], "\n") + 1}
}

// leadingComments are HTML comments and blank lines at the start of a
// file: a REUSE licence header (<!-- SPDX-License-Identifier: ... -->)
// stands above the frontmatter in repositories that follow REUSE, as in
// ethersync's decision records.
var leadingComments = lazyre.New(`^(?:\s*<!--[\s\S]*?-->[ \t]*\n)+\s*`)

// frontmatterStart is the offset of the frontmatter's opening "---"
// line, after any leading comments; -1 when there is none.
func frontmatterStart(text string) int {
	start := 0
	if m := leadingComments().FindStringIndex(text); m != nil {
		start = m[1]
	}
	if !strings.HasPrefix(text[start:], "---\n") {
		return -1
	}
	return start
}

// readMeta reads a frontmatter block as YAML or, when it is not, as
// "key: value" lines (a Cursor glob list such as *.ts is not YAML).
func readMeta(block string) map[string]any {
	meta := map[string]any{}
	if err := yaml.Unmarshal([]byte(block), &meta); err == nil {
		return meta
	}
	meta = map[string]any{}
	for _, l := range strings.Split(block, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return meta
}

// isText reports whether data can become an item (no NUL byte, valid
// UTF-8), noting the file when it cannot.
func (p *Plan) isText(rel string, data []byte) bool {
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		p.note(rel, "", "not a text file (NUL byte or invalid UTF-8): skipped")
		return false
	}
	return true
}

// globList reads a glob list given as a YAML list or a comma-separated
// string (Cursor's globs, Copilot's applyTo).
func globList(v any) []string {
	var out []string
	for _, g := range globStrings(v) {
		if g = strings.Trim(strings.TrimSpace(g), `"'`); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// globStrings splits a string, or each string of a list, at its commas
// outside braces (splitGlobs).
func globStrings(v any) []string {
	var raw []string
	switch x := v.(type) {
	case string:
		raw = splitGlobs(x)
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				raw = append(raw, splitGlobs(s)...)
			}
		}
	}
	return raw
}

func metaString(m map[string]any, key string) string {
	if s, ok := m[key].(string); ok {
		return strings.Trim(strings.TrimSpace(s), `"'`)
	}
	return ""
}

// everywhere reports whether globs cover every file ("**", "**/*").
func everywhere(globs []string) bool {
	for _, g := range globs {
		if g == "**" || g == "**/*" || g == "*" {
			return true
		}
	}
	return false
}

// ruleDraft makes one draft from a rule body: its H1 (else the fallback)
// is the title; lore's own sections stay sections, any other text becomes
// the explicit injection.
func (p *Plan) ruleDraft(key, from, fallback, body string, paths []string) (Draft, string) {
	id := ""
	if m := itemMarkerRe().FindStringSubmatch(body); m != nil {
		id, body = m[1], itemMarkerRe().ReplaceAllString(body, "")
	}
	title, rest := splitTitle(body)
	rest = strings.Replace(rest, neverLine+"\n", "", 1)
	if title == "" {
		title = fallback
	}
	spec := markdown.Spec{Kind: markdown.KindLesson, Title: cutTitle(oneLine(title)), Status: "draft", Body: itemBody(rest)}
	paths = anyDepth(p.validGlobs(from, spec.Title, paths))
	if len(paths) > 0 && !everywhere(paths) {
		spec.Triggers = markdown.Triggers{Tools: fileTools, Paths: paths}
	}
	return Draft{Key: key, From: from, Spec: spec}, id
}

// anyDepth maps rule-file globs, read as gitignore reads them (Cursor's
// globs, Claude Code's and Cline's paths, Windsurf's and Copilot's), to
// globs that mean the same to lore's matcher, which matches a glob
// against the whole repo-relative path: a glob without a slash
// (*.spec.tsx) matches a name at any depth (**/*.spec.tsx), a leading
// slash anchors at the root (/x.md is x.md), a trailing slash is a
// folder and all under it (build/ is **/build/**).
func anyDepth(globs []string) []string {
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		dir := strings.HasSuffix(g, "/")
		g = strings.TrimSuffix(g, "/")
		switch {
		case strings.HasPrefix(g, "/"):
			g = strings.TrimPrefix(g, "/")
		case !strings.Contains(g, "/") && g != "**":
			g = "**/" + g
		}
		if dir {
			g += "/**"
		}
		out = appendNew(out, g)
	}
	return out
}

// validGlobs drops (and notes) the globs doublestar cannot read.
func (p *Plan) validGlobs(from, title string, globs []string) []string {
	var ok []string
	for _, g := range globs {
		if doublestar.ValidatePattern(g) {
			ok = append(ok, g)
		} else {
			p.note(from, title, "glob %q is not valid: left out of paths", g)
		}
	}
	return ok
}

// splitTitle takes a leading "# Title" line off a body.
func splitTitle(body string) (title, rest string) {
	t := strings.TrimLeft(body, "\n")
	if strings.HasPrefix(t, "# ") {
		line, rest, _ := strings.Cut(t, "\n")
		return strings.TrimSpace(line[2:]), rest
	}
	return "", body
}

// lessonSections are the H2 sections a lesson body may keep as they are.
var lessonSections = map[string]bool{"mistake": true, "fix": true, "checklist": true, "why": true, "injection": true,
	"issue": true, "impact": true, "avoid": true, "context": true, "decision": true, "consequences": true}

// itemBody keeps a body made of lore's sections, and puts any other text
// under "## Injection" (what the hook shows), its headings below H2.
func itemBody(body string) string {
	body = strings.TrimSpace(body)
	if body == "" {
		return ""
	}
	secs := h2Sections(body)
	known := len(secs) > 0 && strings.TrimSpace(body[:secs[0].start]) == ""
	for _, s := range secs {
		known = known && lessonSections[strings.ToLower(s.title)]
	}
	if known {
		return body + "\n"
	}
	return markdown.SectionsBody([][2]string{{"Injection", demote(body)}}, false)
}

type h2 struct {
	title      string
	start, end int // the heading line's offset, the next H2's
	line       int
}

// content is the section's text below its heading line, trimmed.
func (s h2) content(text string) string {
	_, body, _ := strings.Cut(text[s.start:s.end], "\n")
	return strings.TrimSpace(body)
}

// h2Sections finds the "## " headings of text outside code fences.
func h2Sections(text string) []h2 {
	var out []h2
	fence := ""
	off := 0
	for i, l := range strings.SplitAfter(text, "\n") {
		var code bool
		if fence, code = fenceAfter(fence, strings.TrimSpace(l)); !code && strings.HasPrefix(l, "## ") {
			out = append(out, h2{title: strings.TrimSpace(strings.TrimRight(l[3:], "#\n ")), start: off, line: i + 1})
		}
		off += len(l)
	}
	for i := range out {
		out[i].end = len(text)
		if i+1 < len(out) {
			out[i].end = out[i+1].start
		}
	}
	return out
}

// fenceAfter returns the code fence open after the trimmed line t, when
// fence was open before it; code when t opens, closes or is in a fence.
func fenceAfter(fence, t string) (string, bool) {
	switch {
	case fence != "" && strings.HasPrefix(t, fence):
		return "", true
	case fence != "":
		return fence, true
	case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
		return t[:3], true
	}
	return "", false
}

// ReadCursorRule plans a .cursor/rules/*.mdc file: globs become paths,
// alwaysApply the always-on mode (no triggers, whatever the globs say:
// Cursor includes such a rule everywhere); a rule Cursor attaches only
// when its agent asks for it by description has no lore equivalent.
func (p *Plan) ReadCursorRule(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	f := readRuleFile(data)
	globs := globList(f.meta["globs"])
	always := fmt.Sprint(f.meta["alwaysApply"]) == "true"
	fallback := metaString(f.meta, "description")
	if fallback == "" {
		fallback = strings.TrimSuffix(path.Base(rel), ".mdc")
	}
	paths := globs
	if always && len(globs) > 0 {
		// Cursor includes an always rule in every context, whatever its
		// globs: lore delivers it at session start.
		paths = nil
		p.note(rel, fallback, "alwaysApply: true, so Cursor applies it everywhere: imported without triggers (globs unused: %s)", strings.Join(globs, ", "))
	}
	d, id := p.ruleDraft(rel, rel, fallback, f.body, paths)
	if !always && len(globs) == 0 {
		p.note(rel, d.Spec.Title, "applied by Cursor only when its agent asks for it (description) or by @-mention: lore has no such mode; imported without triggers")
	}
	p.add(d, id)
}

// ReadClaudeRule plans a .claude/rules/**/*.md file (paths frontmatter).
func (p *Plan) ReadClaudeRule(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	f := readRuleFile(data)
	d, id := p.ruleDraft(rel, rel, strings.TrimSuffix(path.Base(rel), path.Ext(rel)), f.body, globList(f.meta["paths"]))
	p.add(d, id)
}

// ReadCopilotInstructions plans a .github/instructions/*.instructions.md
// file (applyTo frontmatter).
func (p *Plan) ReadCopilotInstructions(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	f := readRuleFile(data)
	fallback := metaString(f.meta, "description")
	if fallback == "" {
		fallback = strings.TrimSuffix(path.Base(rel), ".instructions.md")
	}
	d, id := p.ruleDraft(rel, rel, fallback, f.body, globList(f.meta["applyTo"]))
	p.add(d, id)
}

// ReadSections plans a file of H2 sections (CLAUDE.md, AGENTS.md,
// GEMINI.md, .github/copilot-instructions.md, a legacy .cursorrules): one
// item per section, the text before the first H2 left out (it is the
// file's introduction). Inline code that reads like a command is
// suggested as a trigger in a note.
func (p *Plan) ReadSections(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	text := strings.ReplaceAll(string(bytes.TrimPrefix(data, []byte("\ufeff"))), "\r\n", "\n")
	secs := h2Sections(text)
	if len(secs) == 0 && strings.TrimSpace(text) != "" {
		p.note(rel, "", "no \"## \" sections: nothing imported (each H2 section becomes one item)")
	}
	for _, s := range secs {
		p.readSection(rel, s, s.content(text))
	}
}

// readSection plans one H2 section of a file of sections.
func (p *Plan) readSection(rel string, s h2, body string) {
	managed := itemMarkerRe().MatchString(body)
	content := strings.TrimSpace(blockLineRe().ReplaceAllString(body, ""))
	var paths []string
	if managed { // lore's own export: its sections are one level down
		content, paths = managedSection(content)
	}
	from := fmt.Sprintf("%s:%d", rel, s.line)
	if oneLine(s.title) == "" {
		p.note(from, "", "a heading without text: nothing imported")
		return
	}
	d, id := p.ruleDraft(rel+"#"+markdown.Slug(s.title), from, s.title, "# "+s.title+"\n"+content, paths)
	if d.Spec.Body == "" {
		p.note(from, s.title, "empty section: nothing imported")
		return
	}
	if cmds := commandSpans(content); len(cmds) > 0 && !managed {
		p.note(from, d.Spec.Title, "suggested triggers (not set): %s", strings.Join(cmds, " "))
	}
	p.add(d, id)
}

// managedSection reads a section of lore's own export: its "Applies to"
// paths, and its content with its headings one level up.
func managedSection(content string) (string, []string) {
	var paths []string
	if m := appliesRe().FindStringSubmatch(content); m != nil {
		paths = codeSpans(m[1])
		content = strings.TrimSpace(appliesRe().ReplaceAllString(content, ""))
	}
	return promote(content), paths
}

// blockLineRe matches the lines of the managed block's markers.
var blockLineRe = lazyre.New(`(?m)^<!-- lore:(begin|end)\b.*-->\n?`)

// appliesRe is the line that carries a managed section's paths.
var appliesRe = lazyre.New(`(?m)^` + appliesPrefix + `(.*)\n?`)

func codeSpans(s string) []string {
	var out []string
	for _, m := range codeSpanRe().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// promote makes the H3 headings of s H2s, outside code fences.
func promote(s string) string {
	return outsideFences(s, func(l string) string {
		if strings.HasPrefix(l, "### ") {
			return l[1:]
		}
		return l
	})
}

var (
	codeSpanRe = lazyre.New("`([^`\n]+)`")
	cmdWordRe  = lazyre.New(`^([a-z][a-z0-9_.-]*)\s+([a-z][a-z0-9_:.-]*)`)
)

// commandSpans suggests a --command regex for each inline code span that
// starts like a command line ("go test ./...", "npm run build").
func commandSpans(text string) []string {
	var out []string
	for _, m := range codeSpanRe().FindAllStringSubmatch(text, -1) {
		w := cmdWordRe().FindStringSubmatch(m[1])
		if w == nil || strings.ContainsAny(w[1], "./") {
			continue
		}
		out = appendNew(out, fmt.Sprintf("--command '\\b%s\\s+%s\\b'", regexp.QuoteMeta(w[1]), regexp.QuoteMeta(w[2])))
	}
	return out
}

// add appends a draft; a draft lore itself exported (it carries its item
// id) is recorded by that id, so the store it came from skips it.
func (p *Plan) add(d Draft, id string) {
	if id != "" {
		d.ItemID = id
	}
	p.Drafts = append(p.Drafts, d)
}
