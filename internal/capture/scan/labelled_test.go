package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

type label struct {
	File     string            `json:"file"`
	Line     int               `json:"line"`
	Signal   string            `json:"signal"`
	Title    string            `json:"title"`
	Tool     string            `json:"tool"`
	Trigger  string            `json:"trigger"`
	Mistake  string            `json:"mistake"`
	Fix      string            `json:"fix"`
	Tags     []string          `json:"tags"`
	Form     string            `json:"form"`
	Priority int               `json:"priority"`
	Extra    map[string]string `json:"extra"`
}

func loadLabelled(t *testing.T) (map[string][]label, []Candidate) {
	t.Helper()
	dir := filepath.Join("testdata", "labelled")
	data, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var labels map[string][]label
	if err := json.Unmarshal(data, &labels); err != nil {
		t.Fatal(err)
	}
	res, err := scanDir(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Candidates {
		rel, _ := filepath.Rel(dir, res.Candidates[i].File)
		res.Candidates[i].File = filepath.ToSlash(rel)
	}
	return labels, res.Candidates
}

// TestLabelledTier1 is the Tier 1 bar: every well-formed block is
// extracted with every field exact, and no decoy (the injected protocol,
// its template and example, blocks in user text, thinking, tool results,
// compaction summaries and compaction agents, prose mentions, unclosed
// blocks, Codex's duplicate agent_message, Gemini info messages, thoughts
// and rewound messages) is.
func TestLabelledTier1(t *testing.T) {
	labels, cands := loadLabelled(t)
	want := labels["tier1"]
	var got []Candidate
	for _, c := range cands {
		if c.Tier == 1 {
			got = append(got, c)
		}
	}
	for _, c := range got {
		for _, bad := range []string{"from a file", "thought only", "user pasted", "summarised", "never closed", "summary repeats", "info message", "rewound away", "<tool_name>", "rich output waits for a TTY"} {
			if strings.Contains(c.Mistake, bad) || strings.Contains(c.Fix, bad) || strings.Contains(c.Trigger, bad) {
				t.Errorf("decoy extracted: %s:%d %q", c.File, c.Line, c.Mistake)
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("extracted %d blocks, labelled %d", len(got), len(want))
	}
	for _, w := range want {
		var match *Candidate
		for i := range got {
			if got[i].File == w.File && got[i].Line == w.Line && got[i].Title == w.Title {
				match = &got[i]
			}
		}
		if match == nil {
			t.Errorf("missed %s:%d %q", w.File, w.Line, w.Title)
			continue
		}
		tags := w.Tags
		if tags == nil {
			tags = []string{}
		}
		for _, f := range []struct{ name, got, want string }{
			{"signal", match.Signal, w.Signal}, {"tool", match.Tool, w.Tool}, {"trigger", match.Trigger, w.Trigger},
			{"mistake", match.Mistake, w.Mistake}, {"fix", match.Fix, w.Fix}, {"form", match.Form, w.Form},
		} {
			if f.got != f.want {
				t.Errorf("%s:%d %s = %q, want %q", w.File, w.Line, f.name, f.got, f.want)
			}
		}
		if !reflect.DeepEqual(match.Tags, tags) {
			t.Errorf("%s:%d tags = %q, want %q", w.File, w.Line, match.Tags, tags)
		}
		if w.Priority != 0 && match.Priority != w.Priority {
			t.Errorf("%s:%d priority = %d, want %d", w.File, w.Line, match.Priority, w.Priority)
		}
		for k, v := range w.Extra {
			found := false
			for _, e := range match.Extra {
				found = found || (e.Key == k && e.Value == v)
			}
			if !found {
				t.Errorf("%s:%d extra %s=%q not kept: %+v", w.File, w.Line, k, v, match.Extra)
			}
		}
	}
}

// TestLabelledTier2 is the Tier 2 bar: precision and recall >= 0.8 on the
// labelled incidents and decoys (a hit is the same file, line and signal).
func TestLabelledTier2(t *testing.T) {
	labels, cands := loadLabelled(t)
	type key struct {
		file   string
		line   int
		signal string
	}
	want := map[key]bool{}
	for _, w := range labels["tier2"] {
		want[key{w.File, w.Line, w.Signal}] = true
	}
	tp, fp := 0, 0
	for _, c := range cands {
		if c.Tier != 2 {
			continue
		}
		if want[key{c.File, c.Line, c.Signal}] {
			tp++
		} else {
			fp++
			t.Logf("false positive: %s:%d %s %q", c.File, c.Line, c.Signal, c.Title)
		}
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(len(want))
	t.Logf("tier 2: %d labelled, %d found, %d true: precision %.2f, recall %.2f", len(want), tp+fp, tp, precision, recall)
	if precision < 0.8 || recall < 0.8 {
		for w := range want {
			t.Logf("labelled: %s:%d %s", w.file, w.line, w.signal)
		}
		t.Fatalf("precision %.2f, recall %.2f: both must be >= 0.8", precision, recall)
	}
}

// TestRealTier2 is the reviewer's bar on real sessions (docs/design.md,
// What fixed it): every Tier 2 draft is judged keep, keep-after-edit or
// drop with the reason a reviewer gives; at least 8 in 10 are kept as
// written, at least 0.8 of the incidents a reviewer wants are drafted,
// no evidence line points at the wrong file or at a line that is not the
// incident, and an incident seen in two sessions is one draft.
func TestRealTier2(t *testing.T) {
	dir := filepath.Join("testdata", "transcripts")
	labels := loadReal(t, dir)
	res, err := scanDir(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	verdict := map[at]string{}
	for _, l := range labels.Proposed {
		verdict[at{l.File, l.Line}] = l.Verdict
	}
	drafted := map[at]bool{}
	var drafts []Candidate
	count := map[string]int{}
	for _, c := range res.Candidates {
		if c.Tier != 2 {
			continue
		}
		rel, _ := filepath.Rel(dir, c.File)
		a := at{filepath.ToSlash(rel), c.Line}
		drafted[a] = true
		drafts = append(drafts, c)
		v := verdict[a]
		if v == "" {
			t.Errorf("unlabelled draft %s:%d %s %q: judge it keep, keep-after-edit or drop", a.file, a.line, c.Signal, c.Title)
		}
		count[v]++
		if v != "keep" {
			t.Logf("%s: %s:%d %q", firstOf(v, "unlabelled"), a.file, a.line, c.Title)
		}
		checkShape(t, a, c)
	}
	found := 0
	for _, w := range labels.Wanted {
		if wantedFound(t, w, drafted) {
			found++
		} else {
			t.Logf("missed: %s:%v %s", w.File, w.Lines, w.Reason)
		}
	}
	wrong := wrongEvidence(t, drafts)
	kept := float64(count["keep"]) / float64(max(len(drafts), 1))
	recall := float64(found) / float64(max(len(labels.Wanted), 1))
	t.Logf("real tier 2: %d drafts: %d keep, %d keep-after-edit, %d drop; kept as written %.2f; %d of %d wanted incidents (recall %.2f); %d wrong evidence lines",
		len(drafts), count["keep"], count["keep-after-edit"], count["drop"], kept, found, len(labels.Wanted), recall, len(wrong))
	if kept < 0.8 || recall < 0.8 || len(wrong) > 0 {
		t.Fatalf("kept as written %.2f (>= 0.8), recall %.2f (>= 0.8), wrong evidence %v (none)", kept, recall, wrong)
	}
}

// at is a draft's place: its file (relative to the labelled folder) and
// line.
type at struct {
	file string
	line int
}

// realLabels is testdata/transcripts/labels.json.
type realLabels struct {
	Proposed []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Verdict string `json:"verdict"` // keep, keep-after-edit or drop
		Reason  string `json:"reason"`
	} `json:"proposed"`
	Wanted []wanted `json:"wanted"`
}

// wanted is an incident a reviewer wants drafted: a draft at any of its
// lines finds it; one at an also place is the same incident drafted again.
type wanted struct {
	File   string   `json:"file"`
	Lines  []int    `json:"lines"`
	Also   []string `json:"also"`
	Reason string   `json:"reason"`
}

func loadReal(t *testing.T, dir string) realLabels {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var labels realLabels
	if err := json.Unmarshal(data, &labels); err != nil {
		t.Fatal(err)
	}
	for _, l := range labels.Proposed {
		if l.Verdict != "keep" && l.Verdict != "keep-after-edit" && l.Verdict != "drop" || l.Reason == "" {
			t.Fatalf("labels.json: %s:%d: verdict %q needs keep, keep-after-edit or drop, and a reason", l.File, l.Line, l.Verdict)
		}
	}
	return labels
}

// wantedFound says w is drafted, and fails the test when it is drafted
// again elsewhere.
func wantedFound(t *testing.T, w wanted, drafted map[at]bool) bool {
	t.Helper()
	hit := false
	for _, l := range w.Lines {
		hit = hit || drafted[at{w.File, l}]
	}
	for _, also := range w.Also {
		f, l, _ := strings.Cut(also, ":")
		n, _ := strconv.Atoi(l)
		if drafted[at{f, n}] {
			t.Errorf("%s drafted again: the same incident as %s:%v (%s)", also, w.File, w.Lines, w.Reason)
		}
	}
	return hit
}

// checkShape fails the test on a draft a reviewer could not read: a
// title not one line of at most 100 characters, a heredoc in its trigger
// or fix, a tag with a space.
func checkShape(t *testing.T, a at, c Candidate) {
	t.Helper()
	if strings.Contains(c.Title, "\n") || strings.Contains(c.Title, `\n`) || len([]rune(c.Title)) > maxTitle {
		t.Errorf("%s:%d title not one clean line <= %d: %q", a.file, a.line, maxTitle, c.Title)
	}
	if strings.Contains(c.Fix, "<<") || strings.Contains(c.Trigger, "<<") {
		t.Errorf("%s:%d heredoc kept in trigger/fix: %q / %q", a.file, a.line, c.Trigger, c.Fix)
	}
	for _, tag := range c.Tags {
		if strings.ContainsAny(tag, " \t") {
			t.Errorf("%s:%d tag with a space: %q", a.file, a.line, tag)
		}
	}
}
