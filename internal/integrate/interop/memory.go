package interop

import (
	"fmt"
	"path"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

var (
	devflowHeadRe  = lazyre.New(`^(ADR|PF)-(\d+):\s*(.+)$`)
	devflowFieldRe = lazyre.New(`^- \*\*([^*]+)\*\*:\s*(.*)$`)
)

// ReadDevflow plans Devflow's decisions.md or pitfalls.md: each
// "## ADR-NNN: Title" or "## PF-NNN: Title" entry and its
// "- **Field**: value" lines become one decision or pitfall, its number
// kept when free. A pitfall's Area becomes paths when it names files or
// folders.
func (p *Plan) ReadDevflow(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	for _, s := range h2Sections(text) {
		m := devflowHeadRe().FindStringSubmatch(s.title)
		from := fmt.Sprintf("%s:%d", rel, s.line)
		if m == nil {
			p.note(from, s.title, "not a Devflow entry (## ADR-NNN: or ## PF-NNN:): skipped")
			continue
		}
		d := p.devflowDraft(from, m[1], m[3], devflowFields(s.content(text)))
		d.Key, d.Ref = rel+"#"+m[1]+"-"+m[2], m[1]+"-"+fourDigits(m[2])
		p.Drafts = append(p.Drafts, d)
	}
}

// devflowDraft makes the decision (kind "ADR") or pitfall ("PF") of one
// Devflow entry from its fields, keyed by lowercased field name.
func (p *Plan) devflowDraft(from, kind, title string, fields map[string]string) Draft {
	title = cutTitle(oneLine(title))
	if title == "" {
		title = kind + " entry"
	}
	spec := markdown.Spec{Kind: markdown.KindDecision, Title: title}
	if kind == "PF" {
		spec.Kind = markdown.KindPitfall
		secs := [][2]string{{"Issue", fields["issue"]}, {"Impact", fields["impact"]}, {"Avoid", fields["resolution"]}}
		paths, rest := areaPaths(fields["area"])
		if paths = p.validGlobs(from, title, paths); len(paths) > 0 {
			spec.Triggers = markdown.Triggers{Tools: fileTools, Paths: paths}
		}
		if rest != "" || len(paths) == 0 && fields["area"] != "" {
			// What is not a path stays readable: the whole Area, as written.
			secs = append([][2]string{{"Area", fields["area"]}}, secs...)
		}
		spec.Status = p.pitfallStatus(from, title, devflowStatus(fields["status"]))
		spec.Body = markdown.SectionsBody(secs, false)
	} else {
		secs := [][2]string{{"Context", fields["context"]}, {"Decision", fields["decision"]}, {"Consequences", fields["consequences"]},
			{"Amendments", fields[devflowAmendments]}}
		spec.Status = p.adrStatus(from, title, devflowStatus(fields["status"]))
		spec.Body = markdown.SectionsBody(secs, false)
	}
	return Draft{From: from, Spec: spec}
}

// devflowStatus reads Devflow's "Retired" (an entry its retire-anchor
// step took out of use) as the deprecation it is in lore.
func devflowStatus(s string) string {
	if strings.EqualFold(strings.TrimSpace(s), "retired") {
		return "deprecated"
	}
	return s
}

func fourDigits(n string) string { return fmt.Sprintf("%04s", strings.TrimLeft(n, "0")) }

// devflowAmendments is the field that collects an ADR's
// "- **Amendment (date, PR)**: text" lines, each kept as written.
const devflowAmendments = "amendments"

// devflowFields reads "- **Key**: value" lines (a value may go on over
// the lines that follow) by lowercased key.
func devflowFields(body string) map[string]string {
	out := map[string]string{}
	key := ""
	for _, l := range strings.Split(body, "\n") {
		if m := devflowFieldRe().FindStringSubmatch(l); m != nil {
			key = strings.ToLower(strings.TrimSpace(m[1]))
			if strings.HasPrefix(key, "amendment") {
				key = devflowAmendments
				out[key] = strings.TrimSpace(out[key] + "\n\n" + strings.TrimPrefix(l, "- "))
				continue
			}
			out[key] = strings.TrimSpace(m[2])
		} else if key != "" && strings.TrimSpace(l) != "" {
			out[key] += "\n" + strings.TrimSpace(l)
		}
	}
	return out
}

// areaPaths turns an Area's comma-separated entries that are paths into
// globs ("src/hooks/" is everything under it); rest is what is not a path.
func areaPaths(area string) (globs []string, rest string) {
	var other []string
	for _, a := range strings.Split(area, ",") {
		a = strings.Trim(strings.TrimSpace(a), "`")
		if a == "" {
			continue
		}
		if g, ok := areaGlob(a); ok {
			globs = append(globs, g)
		} else {
			other = append(other, a)
		}
	}
	return globs, strings.Join(other, ", ")
}

// areaGlob turns an Area entry into a glob when it is a path.
func areaGlob(a string) (string, bool) {
	switch {
	case strings.ContainsAny(a, " \t"):
		return "", false
	case strings.HasSuffix(a, "/"):
		return a + "**", true
	case strings.Contains(a, "/") || strings.Contains(a, "."):
		return a, true
	}
	return "", false
}

func (p *Plan) pitfallStatus(from, title, status string) string {
	switch strings.ToLower(strings.TrimSpace(status)) {
	case "", "active":
		return "draft"
	case "deprecated", "superseded":
		return "deprecated"
	}
	p.note(from, title, "status %q has no lore equivalent: imported as a draft", status)
	return "draft"
}

// ReadClaudeMemory plans a file of Claude Code's auto memory: MEMORY.md,
// the index, one item per H2 section (its link lines point at topic
// files, imported on their own); a topic file is one item, titled by its
// frontmatter description (a sentence) or name, its H1 or its file name.
// The frontmatter type (user, feedback, project, reference) has no lore
// equivalent: every file arrives as a lesson draft.
func (p *Plan) ReadClaudeMemory(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	if path.Base(rel) == "MEMORY.md" {
		p.readMemoryIndex(rel, data)
		return
	}
	f := readRuleFile(data)
	fallback := memoryDescription(data, metaString(f.meta, "description"))
	if fallback == "" {
		fallback = metaString(f.meta, "name")
	}
	if fallback == "" {
		fallback = strings.TrimSuffix(path.Base(rel), ".md")
	}
	d, id := p.ruleDraft(rel, rel, fallback, f.body, nil)
	if d.Spec.Body == "" {
		p.note(rel, d.Spec.Title, "empty: nothing imported")
		return
	}
	p.add(d, id)
}

// memoryLinkRe is an index line of MEMORY.md that points at a topic file
// of the same folder ("- [Title](file.md) — hook").
var memoryLinkRe = lazyre.New(`(?m)^[ \t]*[-*+][ \t]+\[[^\]\n]*\]\((?:\./)?[^/()\s:]+\.md\).*$`)

// readMemoryIndex plans MEMORY.md as H2 sections without its lines that
// point at topic files: those are imported from the files themselves, so
// a section of links only adds nothing. Blanking the lines keeps the
// line numbers the report names.
func (p *Plan) readMemoryIndex(rel string, data []byte) {
	links := memoryLinkRe().FindAll(data, -1)
	p.ReadSections(rel, memoryLinkRe().ReplaceAll(data, nil))
	if len(links) > 0 {
		p.note(rel, "", "%d index line(s) point at topic files: each topic file is imported on its own", len(links))
	}
}

// plainDescRe is an unquoted description line of a frontmatter block.
var plainDescRe = lazyre.New(`(?m)^description:[ \t]+([^"'\n][^\n]*)$`)

// memoryDescription is a topic file's description as Claude Code wrote
// it: YAML ends an unquoted value at " #" (a comment), which would cut
// "Two cleanups (PR #44 review)" after "(PR".
func memoryDescription(data []byte, desc string) string {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	block, _, ok := strings.Cut(strings.TrimPrefix(text, "---\n"), "\n---")
	if !ok || !strings.HasPrefix(text, "---\n") || desc == "" {
		return desc
	}
	if m := plainDescRe().FindStringSubmatch(block); m != nil {
		raw := strings.TrimSpace(m[1])
		if raw != desc && strings.HasPrefix(raw, desc) && strings.Contains(raw[len(desc):], "#") {
			return raw
		}
	}
	return desc
}
