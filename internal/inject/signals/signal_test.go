package signals

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lore-agents/lore/internal/fuzzlimit"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestDecay(t *testing.T) {
	for _, tc := range []struct {
		name          string
		strength      float64
		age, halfLife time.Duration
		want          float64
		alive         bool
	}{
		{"fresh", 0.5, 0, 6 * time.Hour, 0.5, true},
		{"exactly one half-life", 0.5, 6 * time.Hour, 6 * time.Hour, 0.25, true},
		{"two half-lives", 0.8, 12 * time.Hour, 6 * time.Hour, 0.2, true},
		{"half a half-life", 1, 3 * time.Hour, 6 * time.Hour, math.Sqrt(0.5), true},
		{"seed REDIRECT after one day", 0.9, 24 * time.Hour, 24 * time.Hour, 0.45, true},
		{"lands exactly on the floor", 0.1, 6 * time.Hour, 6 * time.Hour, 0.05, true},
		{"a second past the floor", 0.1, 6*time.Hour + time.Second, 6 * time.Hour, 0.1 * math.Pow(0.5, 1+1.0/21600), false},
		{"seed FEEDBACK: 0.5 lives 3.32 half-lives", 0.5, 19 * time.Hour, 6 * time.Hour, 0.5 * math.Pow(0.5, 19.0/6), true},
		{"seed FEEDBACK dies by 20h", 0.5, 20 * time.Hour, 6 * time.Hour, 0.5 * math.Pow(0.5, 20.0/6), false},
		{"future signal keeps its strength", 0.5, -time.Hour, 6 * time.Hour, 0.5, true},
		{"no half-life is dead", 0.5, 0, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Decay(tc.strength, tc.age, tc.halfLife)
			if math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Decay = %v, want %v", got, tc.want)
			}
			if Alive(got) != tc.alive {
				t.Errorf("Alive(%v) = %v, want %v", got, !tc.alive, tc.alive)
			}
			s := Signal{Type: Feedback, Strength: tc.strength, HalfLife: tc.halfLife, Created: t0}
			if at := s.At(t0.Add(tc.age)); at != got {
				t.Errorf("At = %v, Decay = %v", at, got)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	ok := Signal{Type: Redirect, Text: strings.Repeat("x", 20), Strength: 0.5, HalfLife: time.Hour}
	for _, tc := range []struct {
		name string
		edit func(*Signal)
		want string // "" valid, else a substring of the error
	}{
		{"20 characters", func(*Signal) {}, ""},
		{"19 characters", func(s *Signal) { s.Text = strings.Repeat("x", 19) }, "19 characters, at least 20"},
		{"20 characters counted as runes", func(s *Signal) { s.Text = strings.Repeat("é", 20) }, ""},
		{"19 runes in 38 bytes", func(s *Signal) { s.Text = strings.Repeat("é", 19) }, "19 characters"},
		{"spaces do not count", func(s *Signal) { s.Text = "  " + strings.Repeat("x", 19) + "   " }, "19 characters"},
		{"empty", func(s *Signal) { s.Text = "" }, "0 characters"},
		{"500 characters", func(s *Signal) { s.Text = strings.Repeat("x", 500) }, ""},
		{"501 characters", func(s *Signal) { s.Text = strings.Repeat("x", 501) }, "at most 500"},
		{"type", func(s *Signal) { s.Type = "NOTE" }, `type "NOTE"`},
		{"strength 1", func(s *Signal) { s.Strength = 1 }, ""},
		{"strength over 1", func(s *Signal) { s.Strength = 1.01 }, "strength"},
		{"strength 0", func(s *Signal) { s.Strength = 0 }, "strength"},
		{"strength NaN", func(s *Signal) { s.Strength = math.NaN() }, "strength"},
		{"strength at the floor", func(s *Signal) { s.Strength = 0.05 }, ""},
		{"strength under the floor", func(s *Signal) { s.Strength = 0.049 }, "under the 0.05 floor"},
		{"half-life", func(s *Signal) { s.HalfLife = 0 }, "half-life"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ok
			tc.edit(&s)
			err := Validate(s)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	sigs := []Signal{
		{ID: "a", Type: Feedback, Text: "quotes \" and \\ and \t and \x01 and \u2028 and é", Strength: 0.5,
			HalfLife: 6 * time.Hour, Created: t0, Source: "cli"},
		{ID: "b", Type: Redirect, Text: "avoid force-pushing to main at all", Strength: 0.9,
			HalfLife: 1500 * time.Millisecond, Created: t0.Add(time.Nanosecond), Source: "learn:phase-3"},
	}
	data := Marshal(sigs)
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Fatalf("%d lines:\n%s", n, data)
	}
	got, bad := Parse(data)
	if bad != 0 || len(got) != 2 {
		t.Fatalf("Parse: %d signals, %d bad", len(got), bad)
	}
	for i := range sigs {
		if got[i] != sigs[i] && !(got[i].Created.Equal(sigs[i].Created) && got[i].Text == sigs[i].Text) {
			t.Errorf("signal %d: got %+v, want %+v", i, got[i], sigs[i])
		}
		if got[i].Text != sigs[i].Text || got[i].HalfLife != sigs[i].HalfLife || got[i].Strength != sigs[i].Strength {
			t.Errorf("signal %d: got %+v, want %+v", i, got[i], sigs[i])
		}
	}
}

func TestParseSkipsBadLines(t *testing.T) {
	good := Signal{ID: "a", Type: Feedback, Text: "tests pass when run with -race", Strength: 0.5, HalfLife: time.Hour, Created: t0}
	data := "not json\n" + string(good.Line()) + "\n" +
		`{"id":"x","type":"NOTE","text":"t","strength":0.5,"halfLifeSeconds":60,"created":"2026-03-01T12:00:00Z"}` + "\n" +
		`{"id":"y","type":"FEEDBACK","text":"t","strength":0.5,"halfLifeSeconds":-1,"created":"2026-03-01T12:00:00Z"}` + "\n" +
		`{"id":"z","type":"FEEDBACK","text":"t","strength":0.5,"halfLifeSeconds":60,"created":"yesterday"}` + "\n" +
		strings.TrimSuffix(string(good.Line()), "\n") // last line without a newline
	got, bad := Parse([]byte(data))
	if len(got) != 2 || bad != 4 {
		t.Fatalf("Parse: %d signals, %d bad; want 2 and 4", len(got), bad)
	}
}

func TestLiveAndRender(t *testing.T) {
	mk := func(id, typ string, strength float64, created time.Time) Signal {
		return Signal{ID: id, Type: typ, Text: "signal " + id + " says something useful", Strength: strength,
			HalfLife: 6 * time.Hour, Created: created}
	}
	now := t0.Add(6 * time.Hour)
	sigs := []Signal{
		mk("f-strong", Feedback, 1, t0),    // 0.5
		mk("r-weak", Redirect, 0.2, t0),    // 0.1
		mk("dead", Redirect, 0.09, t0),     // 0.045: pruned
		mk("f-weak", Feedback, 0.5, t0),    // 0.25
		mk("r-strong", Redirect, 0.9, now), // 0.9
		mk("floor", Feedback, 0.1, t0),     // 0.05 exactly: alive
	}
	var ids []string
	for _, s := range Live(sigs, now) {
		ids = append(ids, s.ID)
	}
	if got := strings.Join(ids, " "); got != "r-strong r-weak f-strong f-weak floor" {
		t.Errorf("Live order = %s", got)
	}
	kept, pruned := Prune(sigs, now)
	if len(kept) != 5 || len(pruned) != 1 || pruned[0].ID != "dead" {
		t.Errorf("Prune: kept %d, pruned %v", len(kept), pruned)
	}
	out := Render(sigs, now)
	if !strings.HasPrefix(out, "## Live signals") || !strings.Contains(out, "- REDIRECT 0.90: signal r-strong") ||
		strings.Contains(out, "dead") || strings.Index(out, "r-weak") > strings.Index(out, "f-strong") {
		t.Errorf("Render:\n%s", out)
	}
	if Render(sigs, t0.Add(100*time.Hour)) != "" {
		t.Error("Render of dead signals is not empty")
	}
	var many []Signal
	for i := 0; i < MaxShown+3; i++ {
		many = append(many, mk(string(rune('a'+i)), Feedback, 0.5, t0))
	}
	if out := Render(many, t0); !strings.Contains(out, "3 weaker signal(s) left out") || strings.Count(out, "\n- ") != MaxShown+1 {
		t.Errorf("Render of many:\n%s", out)
	}
}

func TestNow(t *testing.T) {
	t.Setenv("LORE_NOW", "2026-03-01T12:00:00Z")
	if !Now().Equal(t0) {
		t.Errorf("Now = %v", Now())
	}
	t.Setenv("LORE_NOW", "")
	if time.Since(Now()) > time.Minute {
		t.Errorf("Now = %v", Now())
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"id":"a","type":"FEEDBACK","text":"abc","strength":0.5,"halfLifeSeconds":60,"created":"2026-03-01T12:00:00Z"}` + "\n"))
	f.Add([]byte("{\n}\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sigs, again []Signal
		var bad int
		fuzzlimit.Run(t, func() {
			sigs, _ = Parse(data)
			again, bad = Parse(Marshal(sigs))
		})
		if bad != 0 || len(again) != len(sigs) {
			t.Fatalf("re-parse: %d of %d, %d bad", len(again), len(sigs), bad)
		}
	})
}
