package compile

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/inject/manifest"
	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/textcut"
)

// Per-tool aggregation (docs/design.md, Observations and rendering): five
// or more active lessons tagged with the same tool: become one skill document,
// .lore/skills/<tool>.md, written by `lore aggregate`. When a skill document
// exists, the build compiles the lessons it lists under the skill's single
// record, so a matching call injects the skill once instead of several lessons
// and the hook's work does not grow.
const (
	KindSkill    = "skill"
	MinAggregate = 5
)

// Skill is a parsed skill document: which lessons it stands for.
type Skill struct {
	Path    string
	ID      string
	Tool    string
	Lessons []string
}

// skillMeta is the skill document's frontmatter (SKILL.md's name and
// description, and lore's keys).
type skillMeta struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	ID          string   `yaml:"id"`
	Tool        string   `yaml:"tool"`
	Lessons     []string `yaml:"lessons"`
	Generated   string   `yaml:"generated"`
}

// ParseSkill reads a skill document's frontmatter.
func ParseSkill(path string, data []byte) (Skill, error) {
	rest, ok := bytes.CutPrefix(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("---\n"))
	end := bytes.Index(rest, []byte("\n---\n"))
	if !ok || end < 0 {
		return Skill{}, &markdown.Error{Path: path, Line: 1, Msg: "skill: no frontmatter block"}
	}
	var m skillMeta
	if err := yaml.Unmarshal(rest[:end+1], &m); err != nil {
		return Skill{}, &markdown.Error{Path: path, Line: 2, Msg: "skill: " + err.Error()}
	}
	if m.ID == "" || m.Tool == "" {
		return Skill{}, &markdown.Error{Path: path, Line: 2, Key: "id", Msg: "skill: id and tool are required"}
	}
	return Skill{Path: path, ID: m.ID, Tool: m.Tool, Lessons: m.Lessons}, nil
}

// SkillPath is the repo-relative path of a tool's skill document.
func SkillPath(tool string) string { return lorepath.Skills + "/" + slug(tool) + ".md" }

func slug(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
	if s = strings.Trim(s, "-."); s == "" {
		s = "tool"
	}
	return s
}

// foldable reports whether a lesson may be folded into a skill: an active,
// valid lesson the build compiles, with a tool or target to match on, and
// not a deny or a hold (each blocks per item).
func foldable(it *markdown.Item, minConf float64) bool {
	errs, _ := check(it)
	return foldShape(it) && confident(it.Confidence, minConf) && len(errs) == 0
}

// foldShape is foldable but for confidence and validity, which a build
// has apart (Known).
func foldShape(it *markdown.Item) bool {
	t := it.Triggers
	return it.Kind == markdown.KindLesson && it.Status == "active" && (it.Enforce == "" || it.Enforce == markdown.EnforceNone) &&
		len(t.Tools)+len(t.Commands)+len(t.Paths) > 0
}

// Groups returns, by tool (lowercased first tool: tag), the lessons a skill
// may aggregate, sorted by id; only tools with at least MinAggregate.
func Groups(items []*markdown.Item, minConf float64) map[string][]*markdown.Item {
	all := map[string][]*markdown.Item{}
	for _, it := range items {
		if tool := strings.ToLower(tagValue(it.Tags, "tool")); tool != "" && foldable(it, minConf) {
			all[tool] = append(all[tool], it)
		}
	}
	out := map[string][]*markdown.Item{}
	for tool, list := range all {
		if len(list) >= MinAggregate {
			sort.Slice(list, func(a, b int) bool { return list[a].ID < list[b].ID })
			out[tool] = list
		}
	}
	return out
}

// SkillDoc renders the skill document of a tool's lessons (sorted by id):
// the same lessons give the same bytes.
func SkillDoc(tool, id string, lessons []*markdown.Item) []byte {
	meta := skillMeta{
		Name:        "lore-" + slug(tool),
		Description: fmt.Sprintf("Known %s pitfalls in this repository (%d lessons)", tool, len(lessons)),
		ID:          id, Tool: tool,
		Generated: "lore aggregate; edit the lessons, not this file (it is rewritten)",
	}
	for _, it := range lessons {
		meta.Lessons = append(meta.Lessons, it.ID)
	}
	fm, err := yaml.Marshal(meta)
	if err != nil { // strings and a list of strings always marshal
		panic(err)
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(fm)
	fmt.Fprintf(&b, "---\n\n# %s: known pitfalls\n", tool)
	for _, it := range lessons {
		fmt.Fprintf(&b, "\n## %s\n\n", oneLine(it.Title))
		if s := first(it, "Mistake", "When", "Issue"); s != "" {
			b.WriteString(Sanitize(s) + "\n\n")
		}
		fmt.Fprintf(&b, "Fix: %s\n\n(%s)\n", Sanitize(FixText(it)), it.Path)
	}
	return b.Bytes()
}

func oneLine(s string) string { return textcut.OneLine(Sanitize(s)) }

// maxSkillLine caps one lesson's line in a skill's injection text.
const maxSkillLine = 300

// skillText is a skill's injection: one line per lesson (title and fix).
func skillText(s Skill, lessons []*markdown.Item, max int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### Skill: %s (%d lessons)\n", s.Tool, len(lessons))
	for _, it := range lessons {
		l := "- " + oneLine(it.Title) + ": " + oneLine(FixText(it))
		b.WriteString(strings.TrimRight(capText(l, maxSkillLine, ""), "\n") + "\n")
	}
	src := "Source: " + Sanitize(s.Path) + "\n"
	return capText(Sanitize(b.String()), max-len(src), s.Path) + src
}

// skillItem is the manifest record of a skill: the union of its lessons'
// tools, commands and paths (so it matches wherever one of them would), the
// vetoes all of them share, their highest priority and confidence. Keywords
// and topics are left out: a union of phrases would dilute their score.
func skillItem(s Skill, lessons []*markdown.Item, itemCap int) (manifest.Item, IndexEntry) {
	m := manifest.Item{ID: s.ID, Kind: KindSkill, File: s.Path, Status: "active",
		Title: fmt.Sprintf("%s: %d lessons", oneLine(s.Tool), len(lessons))}
	var tools, cmds, paths []string
	anyTool := false
	unless := map[string]int{}
	for i, it := range lessons {
		t := it.Triggers
		if len(t.Tools) == 0 {
			anyTool = true
		}
		tools = append(tools, t.Tools...)
		cmds = append(cmds, t.Commands...)
		paths = append(paths, t.Paths...)
		for _, u := range uniq(t.Unless) {
			if unless[u] == i {
				unless[u]++
			}
		}
		if p := int(it.Priority); p > m.Priority {
			m.Priority = p
		}
		m.Confidence = max(m.Confidence, it.Confidence)
	}
	if !anyTool {
		m.Triggers.Tools = uniq(tools)
	}
	m.Triggers.Commands, m.Triggers.Paths = uniq(cmds), uniq(paths)
	for u, n := range unless {
		if n == len(lessons) {
			m.Triggers.Unless = append(m.Triggers.Unless, u)
		}
	}
	sort.Strings(m.Triggers.Unless)
	m.Text = skillText(s, lessons, itemCap)
	return m, IndexEntry{ID: s.ID, Kind: KindSkill, Title: m.Title, Status: "active", Area: s.Tool,
		File: s.Path, Priority: m.Priority}
}

// uniq trims and deduplicates, keeping the first occurrence's order.
func uniq(l []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range l {
		if s = strings.TrimSpace(s); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
