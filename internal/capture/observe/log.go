package observe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lore-agents/lore/internal/knowledge/config"
	"github.com/lore-agents/lore/internal/lorepath"
	"github.com/lore-agents/lore/internal/store/gitstore"
)

// Record is one line of the log. A line is a change, never a snapshot, so
// that logs merged with merge=union add up:
//   - a sighting has status "observing" and count >= 1: counts add, first and
//     last seen widen, quality_ok is true once any sighting says so;
//   - a status change has count 0 and status "created" (rendered) or
//     "deprecated" (its artifact was deleted; penalty multiplies the
//     confidence). The same change (id, status, artifact) applies once.
//
// Status changes apply in time order; "ready" is never written: it is the
// readiness rule of docs/design.md, Observations and rendering, evaluated on
// the folded counts.
type Record struct {
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	Pattern    string    `json:"pattern"`
	Title      string    `json:"title,omitempty"`
	Details    string    `json:"details,omitempty"`
	Count      int       `json:"count"`
	FirstSeen  time.Time `json:"first_seen,omitzero"`
	LastSeen   time.Time `json:"last_seen"`
	QualityOK  bool      `json:"quality_ok"`
	Evidence   []string  `json:"evidence,omitempty"`
	Status     string    `json:"status"`
	Confidence float64   `json:"confidence"` // the folded confidence after this change, for readers of the raw log
	Penalty    float64   `json:"penalty,omitempty"`
	Artifact   string    `json:"artifact,omitempty"` // path@hash a status change is about
}

// At is when the record happened.
func (r Record) At() time.Time { return r.LastSeen }

func (r Record) first() time.Time {
	if r.FirstSeen.IsZero() {
		return r.LastSeen
	}
	return r.FirstSeen
}

// Sighting builds a record for one (or count) new sightings of a pattern.
func Sighting(typ, title string, count int, at time.Time, qualityOK bool, details string, evidence ...string) (Record, error) {
	if !ValidType(typ) {
		return Record{}, fmt.Errorf("observe: type %q is not one of %s", typ, strings.Join(Types, ", "))
	}
	p := Normalize(title)
	if p == "" {
		return Record{}, fmt.Errorf("observe: the pattern %q has no letters or digits", title)
	}
	if count < 1 {
		count = 1
	}
	at = at.UTC().Truncate(time.Second)
	return Record{ID: ID(typ, p), Type: typ, Pattern: p, Title: strings.TrimSpace(title), Details: strings.TrimSpace(details),
		Count: count, FirstSeen: at, LastSeen: at, QualityOK: qualityOK, Evidence: evidence, Status: Observing}, nil
}

// Log is the observation log of one store.
type Log struct {
	s     *gitstore.Store
	Share bool
}

// Open returns the store's log, shared or this machine's as config.yaml
// says. Turning share on or off carries the log and manifest over.
func Open(s *gitstore.Store) (*Log, error) {
	cfg, err := s.Config()
	if !config.Usable(err) || slices.ContainsFunc(config.Problems(err), func(ce *config.Error) bool { return ce.Key == "share" || ce.Key == "" }) {
		return nil, err // where the log lives is not known: nothing is carried over
	}
	l := &Log{s: s, Share: cfg.Share}
	for _, name := range []string{lorepath.Observations, lorepath.RenderManifest} {
		if err := l.carryOver(name); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// carryOver moves a file to where the share setting wants it: .lore/local
// (from the cache, where an older lore kept it, or a copy of the shared
// one when share was turned off: the committed file is the team's) or
// .lore/ (from .lore/local when share was turned on; a log already shared
// by a teammate gets this machine's lines appended, since its lines merge
// by union anyway).
func (l *Log) carryOver(name string) error {
	local, err := l.s.Local(name)
	if err != nil {
		return err
	}
	shared := lorepath.InDir(name)
	from, to := shared, local
	if l.Share {
		from, to = local, shared
	}
	data, err := os.ReadFile(l.s.Path(from))
	if err != nil {
		return nil // nothing to carry over
	}
	old, err := os.ReadFile(l.s.Path(to))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("observe: %w", err)
	case !l.Share || name != lorepath.Observations:
		return nil // both exist: the one in place wins
	default:
		if len(old) > 0 && old[len(old)-1] != '\n' {
			old = append(old, '\n')
		}
		data = append(old, data...)
	}
	if err := l.s.WriteLocked(to, data); err != nil {
		return err
	}
	if !l.Share {
		return nil
	}
	if err := l.s.RemoveLocked(from); err != nil {
		return fmt.Errorf("observe: %w", err)
	}
	if name == lorepath.Observations {
		return l.s.EnsureUnion(to)
	}
	return nil
}

func (l *Log) rel(name string) string {
	if l.Share {
		return lorepath.InDir(name)
	}
	return lorepath.InLocal(name)
}

// Rel is the repo-relative path of the log.
func (l *Log) Rel() string { return l.rel(lorepath.Observations) }

// ManifestRel is the repo-relative path of the render manifest.
func (l *Log) ManifestRel() string { return l.rel(lorepath.RenderManifest) }

// appendLocked writes records at the end of the log; the caller holds the
// store lock. Each record is one line; a kill mid-write leaves at most one
// broken last line, which readers skip and the next append starts after.
func (l *Log) appendLocked(recs []Record) error {
	if len(recs) == 0 {
		return nil
	}
	if l.Share {
		if err := l.s.EnsureUnion(l.Rel()); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("observe: %w", err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return l.s.AppendLocked(l.Rel(), buf.Bytes())
}

// maxLine bounds one record; longer lines are skipped as broken.
const maxLine = 1 << 20

// Stats says what reading the log skipped.
type Stats struct {
	Records int
	Broken  int // lines that are not a valid record
}

// Read returns every valid record of the log (none when it does not exist).
func (l *Log) Read() ([]Record, Stats, error) {
	f, err := os.Open(l.s.Path(l.Rel()))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Stats{}, nil
	}
	if err != nil {
		return nil, Stats{}, fmt.Errorf("observe: %w", err)
	}
	defer f.Close()
	return ReadRecords(f)
}

// ReadRecords parses JSONL records, skipping and counting broken lines
// (bad JSON, unknown type, no pattern, over maxLine) without losing the rest.
func ReadRecords(r io.Reader) ([]Record, Stats, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var recs []Record
	var st Stats
	for {
		line, tooLong, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			var rec Record
			if tooLong || json.Unmarshal(line, &rec) != nil || !ValidType(rec.Type) || Normalize(rec.Pattern) == "" || rec.Count < 0 {
				st.Broken++
			} else {
				if rec.ID == "" {
					rec.ID = ID(rec.Type, rec.Pattern)
				}
				recs = append(recs, rec)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return recs, st, fmt.Errorf("observe: read: %w", err)
		}
	}
	st.Records = len(recs)
	return recs, st, nil
}

// readLine reads one line, discarding (and flagging) anything past maxLine.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, e := br.ReadLine()
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine {
				tooLong, line = true, nil
			}
		}
		if e != nil || !isPrefix {
			return line, tooLong, e
		}
	}
}

// Load reads and folds the log.
func (l *Log) Load() ([]*Observation, Stats, error) {
	recs, st, err := l.Read()
	if err != nil {
		return nil, st, err
	}
	return Fold(recs), st, nil
}

// Observe records sightings and returns the folded observations they touch.
func (l *Log) Observe(recs ...Record) ([]*Observation, error) { return l.observe(recs, false) }

// ObserveOnce is Observe for sightings named by their evidence (a
// transcript line): one the log already has for the same observation is not
// counted again, so a scan run again after a crash counts nothing twice.
func (l *Log) ObserveOnce(recs ...Record) ([]*Observation, error) { return l.observe(recs, true) }

func (l *Log) observe(recs []Record, once bool) ([]*Observation, error) {
	unlock, err := l.s.Lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	old, _, err := l.Read()
	if err != nil {
		return nil, err
	}
	if once {
		seen := map[string]bool{}
		for _, r := range old {
			for _, e := range r.Evidence {
				seen[r.ID+"\x00"+e] = true
			}
		}
		recs = slices.DeleteFunc(slices.Clone(recs), func(r Record) bool {
			return len(r.Evidence) > 0 && seen[r.ID+"\x00"+r.Evidence[0]]
		})
	}
	all := Fold(append(old, recs...))
	var touched []*Observation
	for _, o := range all {
		for i := range recs {
			if recs[i].ID == o.ID {
				recs[i].Confidence = o.Confidence
				if !contains(idsOf(touched), o.ID) {
					touched = append(touched, o)
				}
			}
		}
	}
	return touched, l.appendLocked(recs)
}

func idsOf(obs []*Observation) []string {
	ids := make([]string, len(obs))
	for i, o := range obs {
		ids[i] = o.ID
	}
	return ids
}
