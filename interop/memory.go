package interop

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/lore-agents/lore/markdown"
)

var (
	devflowHeadRe  = regexp.MustCompile(`^(ADR|PF)-(\d+):\s*(.+)$`)
	devflowFieldRe = regexp.MustCompile(`^- \*\*([A-Za-z ]+)\*\*:\s*(.*)$`)
)

// ReadDevflow plans Devflow's .memory/knowledge/decisions.md or
// pitfalls.md: each "## ADR-NNN: Title" or "## PF-NNN: Title" entry and
// its "- **Field**: value" lines become one decision or pitfall, its
// number kept when free. A pitfall's Area becomes paths when it names
// files or folders.
func (p *Plan) ReadDevflow(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	for _, s := range h2Sections(text) {
		p.devflowEntry(rel, s, s.content(text))
	}
}

// devflowEntry plans one "## ADR-NNN: Title" or "## PF-NNN: Title" entry.
func (p *Plan) devflowEntry(rel string, s h2, body string) {
	m := devflowHeadRe.FindStringSubmatch(s.title)
	from := fmt.Sprintf("%s:%d", rel, s.line)
	if m == nil {
		p.note(from, s.title, "not a Devflow entry (## ADR-NNN: or ## PF-NNN:): skipped")
		return
	}
	fields := devflowFields(body)
	title := cutTitle(oneLine(m[3]))
	if title == "" {
		title = m[1] + "-" + m[2]
	}
	spec := markdown.Spec{Kind: markdown.KindDecision, Title: title}
	ref := "ADR-" + fourDigits(m[2])
	var secs [][2]string
	if m[1] == "PF" {
		spec.Kind, ref = markdown.KindPitfall, "PF-"+fourDigits(m[2])
		secs = p.pitfall(from, fields, &spec)
	} else {
		secs = [][2]string{{"Context", fields["context"]}, {"Decision", fields["decision"]}, {"Consequences", fields["consequences"]}}
		spec.Status = p.adrStatus(from, title, fields["status"])
	}
	spec.Body = markdown.SectionsBody(secs, false)
	p.Drafts = append(p.Drafts, Draft{Key: rel + "#" + m[1] + "-" + m[2], From: from, Ref: ref, Spec: spec})
}

// pitfall returns a pitfall entry's sections and sets its status and,
// when its Area names files or folders, its paths.
func (p *Plan) pitfall(from string, fields map[string]string, spec *markdown.Spec) [][2]string {
	secs := [][2]string{{"Issue", fields["issue"]}, {"Impact", fields["impact"]}, {"Avoid", fields["resolution"]}}
	paths, rest := areaPaths(fields["area"])
	if paths = p.validGlobs(from, spec.Title, paths); len(paths) > 0 {
		spec.Triggers = markdown.Triggers{Tools: fileTools, Paths: paths}
		if rest != "" {
			p.note(from, spec.Title, "area %q is not a path: not a trigger", rest)
		}
	} else if fields["area"] != "" {
		secs = append([][2]string{{"Area", fields["area"]}}, secs...)
	}
	spec.Status = p.pitfallStatus(from, spec.Title, fields["status"])
	return secs
}

func fourDigits(n string) string { return fmt.Sprintf("%04s", strings.TrimLeft(n, "0")) }

// devflowFields reads "- **Key**: value" lines (a value may go on over
// the lines that follow) by lowercased key.
func devflowFields(body string) map[string]string {
	out := map[string]string{}
	key := ""
	for _, l := range strings.Split(body, "\n") {
		if m := devflowFieldRe.FindStringSubmatch(l); m != nil {
			key = strings.ToLower(m[1])
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
func (p *Plan) ReadClaudeMemory(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	if path.Base(rel) == "MEMORY.md" {
		p.ReadSections(rel, data)
		return
	}
	f := readRuleFile(data)
	fallback := metaString(f.meta, "description")
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
