package observe

import (
	"strings"
	"testing"
	"time"
)

var day0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// The confidence of docs/design.md, Observations and rendering:
// min(floor(count*100/required), 95)/100 with required 3/4/2/2.
func TestConfidence(t *testing.T) {
	for _, tc := range []struct {
		typ   string
		count int
		want  float64
	}{
		{Workflow, 0, 0}, {Workflow, 1, 0.33}, {Workflow, 2, 0.66}, {Workflow, 3, 0.95}, {Workflow, 100, 0.95},
		{Procedural, 1, 0.25}, {Procedural, 2, 0.50}, {Procedural, 3, 0.75}, {Procedural, 4, 0.95},
		{Decision, 1, 0.50}, {Decision, 2, 0.95},
		{Pitfall, 1, 0.50}, {Pitfall, 2, 0.95},
		{"habit", 5, 0},
	} {
		if got := Confidence(tc.typ, tc.count); got != tc.want {
			t.Errorf("Confidence(%s, %d) = %v, want %v", tc.typ, tc.count, got, tc.want)
		}
	}
}

// The promote rule at its boundaries, with worked examples:
// workflow promotes at count 2 (0.66 >= 0.60), procedural at 3 (0.75 >= 0.70).
func TestPromotable(t *testing.T) {
	const d = 24 * time.Hour
	for _, tc := range []struct {
		name    string
		typ     string
		count   int
		spread  time.Duration
		quality bool
		want    bool
	}{
		{"workflow seed example: count 2, 3 days", Workflow, 2, 3 * d, true, true},
		{"workflow count 1 is 0.33", Workflow, 1, 10 * d, true, false},
		{"workflow spread one second short of 3 days", Workflow, 2, 3*d - time.Second, true, false},
		{"workflow without quality", Workflow, 3, 9 * d, false, false},
		{"procedural seed example: count 3, 5 days", Procedural, 3, 5 * d, true, true},
		{"procedural count 2 is 0.50", Procedural, 2, 9 * d, true, false},
		{"procedural 4 days", Procedural, 4, 4 * d, true, false},
		{"decision count 1 is 0.50", Decision, 1, 0, true, false},
		{"decision count 2 the same minute", Decision, 2, 0, true, true},
		{"pitfall count 2 no spread", Pitfall, 2, 0, true, true},
		{"pitfall count 2 without quality", Pitfall, 2, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := []Record{mustSight(t, tc.typ, "the pattern", 1, day0, tc.quality)}
			if tc.count > 1 {
				recs = append(recs, mustSight(t, tc.typ, "The pattern!", tc.count-1, day0.Add(tc.spread), tc.quality))
			}
			obs := Fold(recs)
			if len(obs) != 1 {
				t.Fatalf("folded %d observations, want 1", len(obs))
			}
			if got := obs[0].Status == Ready; got != tc.want {
				t.Fatalf("count %d spread %v: status %s confidence %.2f, want ready=%v", tc.count, tc.spread, obs[0].Status, obs[0].Confidence, tc.want)
			}
		})
	}
}

func TestDaySpread(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int
	}{{0, 0}, {23 * time.Hour, 0}, {24 * time.Hour, 1}, {71*time.Hour + 59*time.Minute, 2}, {72 * time.Hour, 3}, {-time.Hour, 0}} {
		if got := DaySpread(day0, day0.Add(tc.d)); got != tc.want {
			t.Errorf("DaySpread(+%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Run `make lint` before committing!":   "run make lint before committing",
		"  run   make-lint\tbefore committing": "run make lint before committing",
		"Übersicht: Straße":                    "übersicht straße",
		"!!!":                                  "",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	if ID(Workflow, "Run make lint") != ID(Workflow, "run  make-lint.") || ID(Workflow, "x") == ID(Pitfall, "x") {
		t.Fatal("ID must follow the type and the normalized pattern")
	}
}

// Status changes: created, then deleted (x0.3, deprecated), applied once
// however often they are recorded, in time order whatever the line order.
func TestFoldStatusMachine(t *testing.T) {
	a := mustSight(t, Pitfall, "go test caches results", 2, day0, true)
	created := Record{ID: a.ID, Type: Pitfall, Pattern: a.Pattern, LastSeen: day0.Add(time.Hour), Status: Created, Artifact: "x.md@sha256:1"}
	deleted := Record{ID: a.ID, Type: Pitfall, Pattern: a.Pattern, LastSeen: day0.Add(2 * time.Hour), Status: Deprecated, Penalty: DeletePenalty, Artifact: "x.md@sha256:1"}
	for _, tc := range []struct {
		name   string
		recs   []Record
		status string
		conf   float64
	}{
		{"sighted", []Record{a}, Ready, 0.95},
		{"rendered", []Record{a, created}, Created, 0.95},
		{"deleted", []Record{a, created, deleted}, Deprecated, 0.28},
		{"deletion recorded twice", []Record{a, created, deleted, deleted}, Deprecated, 0.28},
		{"lines out of order", []Record{deleted, a, created}, Deprecated, 0.28},
		{"seen again after deletion", []Record{a, created, deleted, mustSight(t, Pitfall, "go test caches results", 5, day0.Add(48*time.Hour), true)}, Deprecated, 0.28},
	} {
		obs := Fold(tc.recs)
		if len(obs) != 1 || obs[0].Status != tc.status || obs[0].Confidence != tc.conf {
			t.Errorf("%s: got %+v, want status %s confidence %.2f", tc.name, obs[0], tc.status, tc.conf)
		}
	}
}

func TestReadRecordsSkipsBrokenLines(t *testing.T) {
	good := `{"type":"pitfall","pattern":"a b","count":1,"last_seen":"2026-03-01T09:00:00Z","status":"observing","quality_ok":true}`
	in := strings.Join([]string{
		good,
		`{"type":"pitfall","pattern":"a b","count":1`, // killed mid-write
		`not json`,
		`{"type":"habit","pattern":"x","count":1,"last_seen":"2026-03-01T09:00:00Z"}`,
		`{"type":"pitfall","pattern":"!!","count":1,"last_seen":"2026-03-01T09:00:00Z"}`,
		"\ufeff" + good, // a BOM is not a record
		"",
		`{"type":"pitfall","pattern":"` + strings.Repeat("x", maxLine) + `","count":1}`,
		good,
	}, "\n")
	recs, st, err := ReadRecords(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 2 || st.Broken != 6 || len(recs) != 2 {
		t.Fatalf("stats %+v, %d records; want 2 records and 6 broken", st, len(recs))
	}
	obs := Fold(recs)
	if len(obs) != 1 || obs[0].Count != 2 || obs[0].Status != Ready || obs[0].ID != ID(Pitfall, "a b") {
		t.Fatalf("folded %+v", obs[0])
	}
}

func mustSight(t testing.TB, typ, title string, count int, at time.Time, q bool) Record {
	t.Helper()
	r, err := Sighting(typ, title, count, at, q, "")
	if err != nil {
		t.Fatal(err)
	}
	return r
}
