package observe

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"gopkg.in/yaml.v3"

	"github.com/lore-agents/lore/internal/knowledge/markdown"
	"github.com/lore-agents/lore/internal/lazyre"
	"github.com/lore-agents/lore/internal/store/gitstore"
	"github.com/lore-agents/lore/internal/textcut"
)

// Entry records one rendered artifact (the render manifest of docs/design.md,
// Observations and rendering).
type Entry struct {
	ObservationID string    `json:"observationId"`
	Type          string    `json:"type"`
	Path          string    `json:"path"` // repo-relative
	ContentHash   string    `json:"contentHash"`
	RenderedAt    time.Time `json:"renderedAt"`
}

// Manifest is the render manifest.
type Manifest struct {
	SchemaVersion int     `json:"schemaVersion"`
	Entries       []Entry `json:"entries"`
}

// Hash is the content hash recorded for an artifact.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// readManifest reads the render manifest (empty when there is none).
func (l *Log) readManifest() (*Manifest, error) {
	data, err := os.ReadFile(l.s.Path(l.ManifestRel()))
	if errors.Is(err, fs.ErrNotExist) {
		return &Manifest{SchemaVersion: 1}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("observe: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s:1: invalid render manifest: %w", l.ManifestRel(), err)
	}
	return &m, nil
}

func (l *Log) writeManifest(m *Manifest) error {
	sort.Slice(m.Entries, func(a, b int) bool { return m.Entries[a].Path < m.Entries[b].Path })
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("observe: %w", err)
	}
	return l.s.WriteLocked(l.ManifestRel(), append(data, '\n'))
}

// Rendered is one artifact lore render wrote.
type Rendered struct {
	Observation *Observation
	Path        string
}

// afterArtifact runs between writing an artifact and recording it; tests
// set it to simulate a crash in that window.
var afterArtifact = func(path string) error { return nil }

// Render turns every ready observation into its artifact. It reconciles
// first, so an artifact a crashed render left unrecorded is adopted rather
// than written twice. Each artifact is written atomically, then recorded in
// the manifest (atomically), then marked created in the log.
func (l *Log) Render(now time.Time) ([]Rendered, *Report, error) {
	unlock, err := l.s.Lock()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	rep, err := l.reconcileLocked(now)
	if err != nil {
		return nil, nil, err
	}
	recs, _, err := l.Read()
	if err != nil {
		return nil, rep, err
	}
	m, err := l.readManifest()
	if err != nil {
		return nil, rep, err
	}
	rejected, err := l.s.Rejected()
	if err != nil {
		return nil, rep, err
	}
	drafts := l.scanDrafts()
	var out []Rendered
	for _, o := range Fold(recs) {
		if o.Status != Ready || Rejected(o, rejected) {
			continue
		}
		if rel := Drafted(o, drafts); rel != "" {
			rep.Drafted = append(rep.Drafted, o.ID+" "+rel)
			continue
		}
		rel, data, err := l.writeArtifact(o, now)
		if err != nil {
			return out, rep, err
		}
		if err := afterArtifact(rel); err != nil {
			return out, rep, err
		}
		if err := l.record(m, o, rel, data, now); err != nil {
			return out, rep, err
		}
		out = append(out, Rendered{Observation: o, Path: rel})
	}
	return out, rep, nil
}

// record adds the manifest entry, then the log's created record: in that
// order a crash leaves either an unrecorded artifact (healed from the
// files) or a recorded one whose observation is still ready (healed from
// the manifest), never a created observation without its entry.
func (l *Log) record(m *Manifest, o *Observation, rel string, data []byte, now time.Time) error {
	h := Hash(data)
	m.Entries = append(m.Entries, Entry{ObservationID: o.ID, Type: o.Type, Path: rel, ContentHash: h, RenderedAt: now.UTC().Truncate(time.Second)})
	if err := l.writeManifest(m); err != nil {
		return err
	}
	return l.mark(o, Created, 0, rel+"@"+h, now)
}

func (l *Log) mark(o *Observation, status string, penalty float64, artifact string, now time.Time) error {
	conf := o.Confidence
	if penalty > 0 {
		conf = float64(int(conf*penalty*100+1e-9)) / 100
	}
	return l.appendLocked([]Record{{ID: o.ID, Type: o.Type, Pattern: o.Pattern, LastSeen: now.UTC().Truncate(time.Second),
		Status: status, Confidence: conf, Penalty: penalty, Artifact: artifact}})
}

// Marker says an artifact came from lore render (the orphan scan only
// considers files that carry it, never hand-written ones).
const (
	markerKey   = "generated-by"
	markerValue = "lore render"
	sourceType  = "observation"
)

// Folders Claude Code loads commands and skills from, repo-relative:
// lore promote moves a staged artifact there.
const (
	CommandsDir = ".claude/commands/lore"
	SkillsDir   = ".claude/skills"
)

// StagedDir is where lore render writes commands and skills: in the
// repository, reviewed in the pull request like a draft, but not where
// Claude Code loads them until lore promote moves them (docs/design.md,
// Rendered artifacts go through review).
const StagedDir = ".lore/staged"

// A render or a promote killed mid-write leaves its temp file in these
// folders.
var (
	_ = gitstore.WritesInto(CommandsDir, "*.md")
	_ = gitstore.WritesInto(SkillsDir+"/*", "SKILL.md")
	_ = gitstore.WritesInto(Staged(CommandsDir), "*.md")
	_ = gitstore.WritesInto(Staged(SkillsDir)+"/*", "SKILL.md")
)

// Staged is the staged path of a live command or skill path.
func Staged(live string) string {
	return path.Join(StagedDir, strings.TrimPrefix(live, ".claude/"))
}

// live is the path a staged artifact is activated at ("" when rel is not
// a staged command or skill).
func live(rel string) string {
	rest, ok := strings.CutPrefix(rel, StagedDir+"/")
	if !ok {
		return ""
	}
	return path.Join(".claude", rest)
}

// writeArtifact writes o's artifact: a command or a skill at a free path,
// or a pitfall or decision draft through the store's draft creator.
func (l *Log) writeArtifact(o *Observation, now time.Time) (string, []byte, error) {
	title := clip(o.Title, markdown.MaxTitle)
	sl := markdown.Slug(o.Title)
	seen := fmt.Sprintf("Observed %d times between %s and %s (confidence %.2f).",
		o.Count, o.FirstSeen.Format("2006-01-02"), o.LastSeen.Format("2006-01-02"), o.Confidence)
	details := o.Details
	if details == "" {
		details = o.Title
	}
	var rel string
	var data []byte
	var err error
	switch o.Type {
	case Workflow:
		rel = Staged(markdown.FreeName(CommandsDir, sl+".md", l.takenEither))
		data, err = markdown.Compose([]markdown.Field{{Key: "description", Value: title}, {Key: markerKey, Value: markerValue}},
			details+"\n\n"+seen+"\n")
	case Procedural:
		rel = Staged(path.Join(markdown.FreeName(SkillsDir, sl, l.skillTaken(path.Join(SkillsDir, sl))), "SKILL.md"))
		data, err = markdown.Compose([]markdown.Field{{Key: "name", Value: path.Base(path.Dir(rel))}, {Key: "description", Value: title}, {Key: markerKey, Value: markerValue}},
			"# "+title+"\n\n"+details+"\n\n"+seen+"\n")
	default:
		return l.s.CreateDraftLocked(itemKind(o), o.Title, func(ref string) ([]byte, error) {
			return itemDraft(o, ref, title, seen, details, now)
		})
	}
	if err != nil {
		return "", nil, err
	}
	return rel, data, l.s.WriteLocked(rel, data)
}

// itemKind is the kind of o's store draft: a decision, else a pitfall.
func itemKind(o *Observation) string {
	if o.Type == Decision {
		return markdown.KindDecision
	}
	return markdown.KindPitfall
}

// itemDraft renders o's store draft with ref. Pitfalls and decisions
// enter the store through review, like scan drafts: a draft (proposed
// decision) that a reviewer promotes.
func itemDraft(o *Observation, ref, title, seen, details string, now time.Time) ([]byte, error) {
	var evidence string
	for _, e := range o.Evidence {
		evidence += "- " + textcut.OneLine(e) + "\n"
	}
	status, body := "draft", "## Issue\n"+o.Title+"\n\n## Avoid\n"+details+"\n\n## Evidence\n"+seen+"\n"+evidence
	if o.Type == Decision {
		status = "proposed"
		body = "## Context\n" + seen + "\n" + evidence + "\n## Decision\n" + details + "\n"
	}
	spec := markdown.Spec{Kind: itemKind(o), Title: title, Status: status, Confidence: o.Confidence,
		Source: &markdown.Source{Type: sourceType, Occurrences: o.Count, Hash: o.ID}, Body: body}
	return spec.Compose(ulid.Make().String(), ref, now)
}

var evidenceHashRe = lazyre.New(`\((\S+) ([0-9a-f]{16})\)$`)

// Rejected says a reviewer rejected o: its rendered draft (by o's id), or
// every scan draft its evidence came from (by their content hashes).
func Rejected(o *Observation, rejected map[string]bool) bool {
	if rejected[o.ID] {
		return true
	}
	seen := 0
	for _, e := range o.Evidence {
		if m := evidenceHashRe().FindStringSubmatch(e); m != nil {
			if !rejected[m[2]] {
				return false
			}
			seen++
		}
	}
	return seen > 0
}

// Renderable are the ready observations lore render would turn into
// artifacts: not rejected, and not an incident whose scan draft is
// already in the store (one draft per incident: a Tier 2 finding is both
// a scan draft and a sighting). lore status counts these.
func (l *Log) Renderable(obs []*Observation) ([]*Observation, error) {
	rejected, err := l.s.Rejected()
	if err != nil {
		return nil, err
	}
	drafts := l.scanDrafts()
	var out []*Observation
	for _, o := range obs {
		if o.Status == Ready && !Rejected(o, rejected) && Drafted(o, drafts) == "" {
			out = append(out, o)
		}
	}
	return out, nil
}

// scanDrafts maps the source hash of every item scan wrote to its path.
// Unparseable items are lint's business, not render's.
func (l *Log) scanDrafts() map[string]string {
	items, _ := l.s.Load()
	out := map[string]string{}
	for _, it := range items {
		if it.Source != nil && it.Source.Hash != "" {
			out[it.Source.Hash] = it.Path
		}
	}
	return out
}

// Drafted returns the path of the store item scan wrote from one of o's
// sightings (by the candidate hash its evidence records), or "".
func Drafted(o *Observation, drafts map[string]string) string {
	for _, e := range o.Evidence {
		if m := evidenceHashRe().FindStringSubmatch(e); m != nil && drafts[m[2]] != "" {
			return drafts[m[2]]
		}
	}
	return ""
}

// taken says a file or folder has the name rel.
func (l *Log) taken(rel string) bool {
	_, err := os.Lstat(l.s.Path(rel))
	return !errors.Is(err, fs.ErrNotExist)
}

// takenEither says a live path or its staged twin is taken: a staged
// artifact must be free to move to its live path on promote.
func (l *Log) takenEither(rel string) bool { return l.taken(rel) || l.taken(Staged(rel)) }

// skillTaken says a skill folder is taken, live or staged: its SKILL.md
// exists, or, for a name other than plain, the folder itself (a folder of
// the plain name without a SKILL.md is the skill's to fill).
func (l *Log) skillTaken(plain string) func(dir string) bool {
	return func(dir string) bool {
		return l.takenEither(path.Join(dir, "SKILL.md")) || dir != plain && l.takenEither(dir)
	}
}

// clip shortens s to n runes at a word boundary.
func clip(s string, n int) string {
	s = textcut.OneLine(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut)
}

// frontmatter decodes the YAML block at the top of a file (nil if none).
func frontmatter(data []byte) map[string]any {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil
	}
	end := bytes.Index(data[4:], []byte("\n---"))
	if end < 0 {
		return nil
	}
	var m map[string]any
	if yaml.Unmarshal(data[4:4+end+1], &m) != nil {
		return nil
	}
	return m
}
