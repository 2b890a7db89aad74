package interop

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
)

var (
	adrFileRe   = lazyre.New(`^(\d{2,4})-.+\.md$`) // MADR's 0001-, shorter in some folders (ethersync's 05-)
	adrNumTitle = lazyre.New(`^\d+\.\s+`)
	adrStatusRe = lazyre.New(`(?m)^\s*[*-]\s*Status:\s*(.+)$`)                       // older MADR
	adrLinkRe   = lazyre.New(`(?i)^(Supersedes|Supercedes)\s+\[[^\]]*\]\(([^)]+)\)`) // adr-tools spells it both ways
	adrByRe     = lazyre.New(`(?i)^(Superseded|Superceded) by\s+\[[^\]]*\]\(([^)]+)\)`)
)

// IsADRFile reports whether a file name is an ADR's (NNNN-title.md, or
// two or three digits).
func IsADRFile(name string) bool { return adrFileRe().MatchString(name) }

// ReadADR plans one adr-tools or MADR decision record (rel: its path).
// Its number is kept as the ADR- ref when free; its status maps to lore's
// (an accepted record arrives proposed, for review); a "Supersedes" link
// to another record of the folder becomes supersedes.
func (p *Plan) ReadADR(rel string, data []byte) {
	if !p.isText(rel, data) {
		return
	}
	f := readRuleFile(data)
	title, rest := splitTitle(leadingComments().ReplaceAllString(f.body, ""))
	title = adrNumTitle().ReplaceAllString(title, "")
	if title == "" {
		title = strings.TrimSuffix(path.Base(rel), ".md")
	}
	keep, supersedes, status := adrSections(rel, rest, metaString(f.meta, "status"))
	if status == "" {
		if m := adrStatusRe().FindStringSubmatch(rest); m != nil {
			status = m[1]
		}
	}
	from := rel
	if ref := adrRef(rel); markdown.RefNumber(ref) == 0 {
		p.note(from, oneLine(title), "record number 0 is no lore ref (they start at 1): it takes the next free ADR- number")
	}
	spec := markdown.Spec{Kind: markdown.KindDecision, Title: cutTitle(oneLine(title)), Status: p.adrStatus(from, title, status),
		Body: markdown.SectionsBody(keep, false)}
	p.Drafts = append(p.Drafts, Draft{Key: rel, From: from, Ref: adrRef(rel), Supersedes: supersedes, Spec: spec})
}

// adrRef is the record's ADR- ref, from the number in its file name.
func adrRef(rel string) string {
	if m := adrFileRe().FindStringSubmatch(path.Base(rel)); m != nil {
		n, _ := strconv.Atoi(m[1])
		return fmt.Sprintf("ADR-%04d", n)
	}
	return ""
}

// adrSections reads the record's sections: the ones kept as the body
// (Context and Decision under lore's names), the records its Status
// section says it supersedes, and its status (the frontmatter's, else
// the Status section's).
func adrSections(rel, rest, status string) (keep [][2]string, supersedes []string, _ string) {
	for _, s := range h2Sections(rest) {
		content := s.content(rest)
		switch name := strings.ToLower(s.title); {
		case name == "status":
			var sup []string
			sup, status = adrStatusSection(rel, content, status)
			supersedes = append(supersedes, sup...)
		case strings.HasPrefix(name, "context"):
			keep = append(keep, [2]string{"Context", content})
		case name == "decision" || name == "decision outcome":
			keep = append(keep, [2]string{"Decision", content})
		default:
			keep = append(keep, [2]string{s.title, content})
		}
	}
	return keep, supersedes, status
}

// adrStatusSection reads a Status section's lines: links to the records
// it supersedes, "superseded by", or the status itself.
func adrStatusSection(rel, content, status string) (supersedes []string, _ string) {
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(l)
		if m := adrLinkRe().FindStringSubmatch(l); m != nil {
			supersedes = append(supersedes, path.Join(path.Dir(rel), m[2]))
		} else if adrByRe().MatchString(l) {
			status = "superseded"
		} else if status == "" && l != "" {
			status = l
		}
	}
	return supersedes, status
}

// adrStatus maps a record's status to lore's decision statuses. Nothing
// arrives accepted: that is the reviewer's call.
func (p *Plan) adrStatus(from, title, status string) string {
	s := strings.ToLower(strings.TrimSpace(status))
	switch {
	case s == "" || s == "proposed" || s == "draft":
		return "proposed"
	case s == "accepted":
		p.note(from, title, "accepted in its folder: imported proposed, for review")
		return "proposed"
	case strings.HasPrefix(s, "superseded") || strings.HasPrefix(s, "superceded"):
		return "superseded"
	case s == "deprecated":
		return "deprecated"
	}
	p.note(from, title, "status %q has no lore equivalent: imported proposed", status)
	return "proposed"
}
