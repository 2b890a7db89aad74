package consolidate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/oklog/ulid/v2"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lorepath"
)

// read returns a repo-relative file as this run would leave it; a missing
// file reads as empty.
func (r *run) read(rel string) ([]byte, error) {
	if d, ok := r.overlay[rel]; ok {
		return d, nil
	}
	d, err := r.s.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("consolidate: %w", err)
	}
	return d, nil
}

// exists reports whether rel is taken. The part of a split that a killed
// run wrote before it rewrote the document is not: the split is made again
// and writes over it.
func (r *run) exists(rel string) bool {
	if _, ok := r.overlay[rel]; ok {
		return true
	}
	_, err := os.Lstat(r.s.Path(rel))
	return err == nil && !r.orphanPart(rel)
}

// orphanPart reports whether rel is a part of a split document (it says
// "Part of [doc](doc)") that the document itself does not name.
func (r *run) orphanPart(rel string) bool {
	data, err := r.s.ReadFile(rel)
	if err != nil {
		return false
	}
	doc, ok := partOf(rel, data)
	if !ok {
		return false
	}
	main, err := r.read(path.Join(path.Dir(rel), doc))
	return err == nil && len(main) > 0 && !strings.Contains(string(main), "("+path.Base(rel)+")")
}

// partOf is the document that rel, by its text, is a part of: it says
// "Part of [doc](doc)", its title is doc's with "(part", and its name is
// doc's stem and a number.
func partOf(rel string, data []byte) (string, bool) {
	_, rest, ok := strings.Cut(string(data), "\n> Part of [")
	doc, _, _ := strings.Cut(rest, "]")
	stem := strings.TrimSuffix(doc, ".md")
	num := strings.TrimSuffix(strings.TrimPrefix(path.Base(rel), stem+"-"), ".md")
	if !ok || stem == "" || !strings.HasPrefix(string(data), "# "+stem+" (part ") || strings.Trim(num, "0123456789") != "" || num == "" {
		return "", false
	}
	return doc, true
}

// parts is a topic document and the existing parts it was split into.
func (r *run) parts(target string) []string {
	out := []string{target}
	// The parts are the names FreeName passes over on its way to a free one.
	markdown.FreeName(path.Dir(target), path.Base(target), func(rel string) bool {
		if rel == target {
			return true
		}
		if r.exists(rel) {
			out = append(out, rel)
			return true
		}
		return false
	})
	return out
}

// write records a pending write; finish applies them in order.
func (r *run) write(rel string, data []byte) {
	if _, ok := r.overlay[rel]; !ok {
		r.order = append(r.order, rel)
	}
	r.overlay[rel] = data
}

// entrySection renders an entry as a topic-document section.
func entrySection(c *candidate) string {
	return "## " + c.Title + "\n\n" + strings.TrimSpace(stripKind(c.Body)) + "\n"
}

// place routes one candidate: a new draft item, or a section appended to
// its topic document when that stays within the file limit (false when it
// would not).
func (r *run) place(c *candidate, retried bool) (bool, error) {
	if c.target == "" {
		rel, err := r.newItem(c)
		if err != nil {
			return false, err
		}
		r.res.Routed = append(r.res.Routed, Routed{Title: c.Title, Target: rel})
		r.remember(c, rel)
		return true, nil
	}
	data, err := r.read(c.target)
	if err != nil {
		return false, err
	}
	add := entrySection(c)
	if markdown.CountLines(data)+1+markdown.CountLines([]byte(add)) > r.cfg.Consolidate.FileLimit {
		return false, nil
	}
	r.write(c.target, appendSection(data, add, c.target))
	r.res.Routed = append(r.res.Routed, Routed{Title: c.Title, Target: c.target, Retried: retried})
	return true, nil
}

// remember notes the draft rel made from c: a later batch entry that says
// the same is redundant with it, as with any item already in the store.
func (r *run) remember(c *candidate, rel string) {
	r.made[c.kind] = append(r.made[c.kind], section{name: fmt.Sprintf("%s (made from %q in this batch)", rel, c.Title),
		text: c.text, body: c.body})
}

// appendSection adds a section to a document (creating it with a title).
func appendSection(data []byte, sec, rel string) []byte {
	s := string(data)
	if strings.TrimSpace(s) == "" {
		s = "# " + titleOf(rel) + "\n"
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return []byte(s + "\n" + sec)
}

// retry splits each document that had no room and places its skipped
// entries once more, each in the part that fits it best and has room.
func (r *run) retry(skipped []*candidate, done map[int]bool) error {
	var targets []string
	byTarget := map[string][]*candidate{}
	for _, c := range skipped {
		if byTarget[c.target] == nil {
			targets = append(targets, c.target)
		}
		byTarget[c.target] = append(byTarget[c.target], c)
	}
	for _, t := range targets {
		if err := r.splitAndPlace(t, byTarget[t], done); err != nil {
			return err
		}
	}
	return nil
}

// splitAndPlace splits target into parts and places the entries that had
// no room in it (each reported when it still finds none).
func (r *run) splitAndPlace(t string, cands []*candidate, done map[int]bool) error {
	limit := r.cfg.Consolidate.FileLimit
	data, err := r.read(t)
	if err != nil {
		return err
	}
	parts := splitDoc(t, data, limit, r.exists)
	if parts == nil {
		for _, c := range cands {
			r.res.FileLimit = append(r.res.FileLimit, Finding{Title: c.Title, Against: t, Score: float64(markdown.CountLines(data)),
				Reason: fmt.Sprintf("%s is at the %d-line limit and has fewer than two H2 sections to split by", t, limit)})
		}
		return nil
	}
	sp := Split{Target: t, Lines: markdown.CountLines(data)}
	for _, p := range parts {
		r.write(p.rel, p.data)
		sp.Files = append(sp.Files, p.rel)
	}
	r.res.Splits = append(r.res.Splits, sp)
	for _, c := range cands {
		add := markdown.CountLines([]byte(entrySection(c))) + 1
		best := r.bestPart(c, sp.Files, add)
		if best == "" {
			r.res.FileLimit = append(r.res.FileLimit, Finding{Title: c.Title, Against: t, Score: float64(add),
				Reason: "no part of the split document has room for it"})
			continue
		}
		c.target = best
		if _, err := r.place(c, true); err != nil {
			return err
		}
		done[c.Line] = true
	}
	return nil
}

// bestPart is the part with room for add more lines whose words c covers
// best ("" when none has room).
func (r *run) bestPart(c *candidate, parts []string, add int) string {
	best, bestScore := "", -1.0
	for _, p := range parts {
		d, _ := r.read(p)
		if markdown.CountLines(d)+add > r.cfg.Consolidate.FileLimit {
			continue
		}
		if s := coverage(c.words, words(string(d))); s > bestScore {
			best, bestScore = p, s
		}
	}
	return best
}

// removeFromStaging drops the consolidated entries from learnings.md.
func (r *run) removeFromStaging(done map[int]bool) error {
	if len(done) == 0 {
		return nil
	}
	rel := r.cfg.Learnings
	data, err := r.s.ReadFile(rel)
	if err != nil {
		return fmt.Errorf("consolidate: %w", err)
	}
	var b strings.Builder
	at := 0
	for _, e := range r.res.ages.Entries {
		if !done[e.Line] {
			continue
		}
		b.Write(data[at:e.Start])
		at = e.End
		r.res.Removed = append(r.res.Removed, e.Title)
	}
	b.Write(data[at:])
	r.write(rel, []byte(b.String()))
	return nil
}

// finish applies the pending writes (the caller holds the store lock):
// new items and parts, rewritten documents or the agent's task, then the
// report, the staging file last, so a run killed in between leaves
// entries that a rerun finds already placed (placedEarlier) rather than
// lost, and a report of what was placed. The report goes to the store
// even on a dry run: it is all a dry run writes.
func (r *run) finish() error {
	staging, err := r.writeDocuments()
	if err != nil {
		return err
	}
	r.res.Report = r.cfg.Consolidate.Report
	if err := r.s.WriteLocked(r.res.Report, []byte(r.res.Markdown())); err != nil {
		return fmt.Errorf("consolidate: report: %w", err)
	}
	if staging != "" {
		return r.flush(staging)
	}
	return nil
}

// flush writes one pending file.
func (r *run) flush(rel string) error {
	if err := r.w.WriteLocked(rel, r.overlay[rel]); err != nil {
		return fmt.Errorf("consolidate: %w", err)
	}
	return nil
}

// writeDocuments writes the new items, parts and rewritten documents (or
// the agent's task, all an agent run plans), and returns the staging file
// when the run changed it (written last).
func (r *run) writeDocuments() (staging string, err error) {
	// New files before rewrites: a document split into parts is
	// shortened only once its parts are written.
	var fresh, rewrites []string
	for _, rel := range r.order {
		switch _, err := os.Lstat(r.s.Path(rel)); {
		case rel == r.cfg.Learnings:
			staging = rel
		case err != nil || r.orphanPart(rel):
			fresh = append(fresh, rel)
		default:
			rewrites = append(rewrites, rel)
		}
	}
	for _, rel := range append(fresh, rewrites...) {
		if err := r.flush(rel); err != nil {
			return "", err
		}
	}
	return staging, nil
}

// newItem composes a draft item of the candidate's kind.
func (r *run) newItem(c *candidate) (string, error) {
	ref, err := r.nextRef(c.kind)
	if err != nil {
		return "", err
	}
	status, section := "draft", map[string]string{
		markdown.KindLesson: "Fix", markdown.KindPitfall: "Issue", markdown.KindDecision: "Decision"}[c.kind]
	if c.kind == markdown.KindDecision {
		status = "proposed"
	}
	title := c.Title
	if rs := []rune(title); len(rs) > markdown.MaxTitle {
		title = string(rs[:markdown.MaxTitle])
	}
	spec := markdown.Spec{Kind: c.kind, Title: title, Status: status, Priority: "medium", Confidence: 0.8,
		Source: &markdown.Source{Type: "consolidation", Hash: c.hash},
		Body:   "## " + section + "\n" + strings.TrimSpace(stripKind(c.Body)) + "\n"}
	data, err := spec.Compose(ulid.Make().String(), ref, r.opt.Now)
	if err != nil {
		return "", fmt.Errorf("consolidate: %w", err)
	}
	rel := markdown.FreeName(lorepath.InDir(markdown.Folder(c.kind)), markdown.FileName(ref, c.Title), r.exists)
	r.write(rel, data)
	return rel, nil
}

// nextRef is one more than the highest PF-/ADR- number in use (by file name
// or ref key), counting numbers handed out in this run.
func (r *run) nextRef(kind string) (string, error) {
	prefix := markdown.RefPrefix(kind)
	if prefix == "" {
		return "", nil
	}
	n, ok := r.refs[kind]
	if !ok {
		var err error
		if n, err = r.s.HighestRef(kind); err != nil {
			return "", err
		}
	}
	n++
	r.refs[kind] = n
	return fmt.Sprintf("%s-%04d", prefix, n), nil
}
