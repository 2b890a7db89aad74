// Package signals holds short-lived FEEDBACK and REDIRECT signals
// (docs/design.md, Phase learnings and signals): a line of guidance whose
// strength decays as strength * 0.5^(age/half-life) and which is pruned under
// 0.05. Signals live in a JSONL file written by the CLI and read by the agent
// hook at SessionStart, so this package links only the standard library and
// jsonparser (no encoding/json: the hook must stay lean).
package signals

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/buger/jsonparser"
)

// Signal types. REDIRECT says "stop doing that"; FEEDBACK says how things went.
const (
	Feedback = "FEEDBACK"
	Redirect = "REDIRECT"
)

// Limits of docs/design.md, Phase learnings and signals, and defaults of `lore
// signal emit`.
const (
	Floor           = 0.05 // a signal weaker than this is dead and pruned
	MinText         = 20   // characters; shorter text says too little to act on
	MaxText         = 500  // characters; a signal is one line of guidance, not a document
	DefaultStrength = 0.5
	DefaultHalfLife = 6 * time.Hour
)

// epsilon absorbs float rounding at the floor: 0.1 after exactly one
// half-life is alive.
const epsilon = 1e-12

// Signal is one emitted signal.
type Signal struct {
	ID       string
	Type     string // Feedback or Redirect
	Text     string
	Strength float64 // at Created, in (0, 1]
	HalfLife time.Duration
	Created  time.Time
	Source   string // who emitted it: "cli", "learn:<key>", ...
}

// Decay is strength * 0.5^(age/halfLife). A signal from the future (clock
// skew) has its full strength; a non-positive half-life has none.
func Decay(strength float64, age, halfLife time.Duration) float64 {
	if halfLife <= 0 {
		return 0
	}
	if age < 0 {
		age = 0
	}
	return strength * math.Pow(0.5, float64(age)/float64(halfLife))
}

// Alive reports whether a current strength is at or above the floor.
func Alive(current float64) bool { return current >= Floor-epsilon }

// At is s's strength at now.
func (s Signal) At(now time.Time) float64 { return Decay(s.Strength, now.Sub(s.Created), s.HalfLife) }

// Error is a signal the CLI refuses, with the reason a user can act on.
type Error struct{ Msg string }

func (e *Error) Error() string { return "signal: " + e.Msg }

// Validate checks what emit would record; text is measured in characters
// after trimming.
func Validate(s Signal) error {
	switch s.Type {
	case Feedback, Redirect:
	default:
		return &Error{fmt.Sprintf("type %q: want FEEDBACK or REDIRECT", s.Type)}
	}
	text := strings.TrimSpace(s.Text)
	switch n := utf8.RuneCountInString(text); {
	case n < MinText:
		return &Error{fmt.Sprintf("text is %d characters, at least %d are needed to say what to do (%q)", n, MinText, text)}
	case n > MaxText:
		return &Error{fmt.Sprintf("text is %d characters, at most %d: a signal is one line of guidance", n, MaxText)}
	}
	if !(s.Strength > 0 && s.Strength <= 1) {
		return &Error{fmt.Sprintf("strength %v: want a number in (0, 1]", s.Strength)}
	}
	if s.HalfLife <= 0 {
		return &Error{fmt.Sprintf("half-life %v: want a positive duration such as 6h", s.HalfLife)}
	}
	if !Alive(s.Strength) {
		return &Error{fmt.Sprintf("strength %v is under the %v floor: it would be pruned at once", s.Strength, Floor)}
	}
	return nil
}

// Normalize returns s with its type upper-cased and its text on one
// trimmed line of valid UTF-8.
func Normalize(s Signal) Signal {
	s.Type = strings.ToUpper(strings.TrimSpace(s.Type))
	s.Text = strings.Join(strings.Fields(strings.ToValidUTF8(s.Text, "\uFFFD")), " ")
	return s
}

// Parse reads a signal log. Broken lines are skipped and counted, never
// fatal: one bad line must not hide the others.
func Parse(data []byte) (sigs []Signal, bad int) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		s, ok := parseLine(line)
		if !ok {
			bad++
			continue
		}
		sigs = append(sigs, s)
	}
	return sigs, bad
}

var keys = [][]string{{"id"}, {"type"}, {"text"}, {"source"}, {"created"}, {"strength"}, {"halfLifeSeconds"}}

// parseLine reads one record in a single pass over the line.
func parseLine(line []byte) (Signal, bool) {
	var r record
	ok := true
	jsonparser.EachKey(line, func(i int, v []byte, typ jsonparser.ValueType, err error) {
		ok = ok && err == nil && r.set(i, v, typ)
	}, keys...)
	if !ok {
		return r.s, false
	}
	return r.signal()
}

// record is a line's fields as parseLine reads them.
type record struct {
	s       Signal
	created string
	hl      float64
	seen    int // bit i: keys[i] was read
}

// set stores the value of keys[i], false when it has the wrong type.
func (r *record) set(i int, v []byte, typ jsonparser.ValueType) bool {
	r.seen |= 1 << i
	if i >= 5 { // strength, half-life
		f, err := jsonparser.ParseFloat(v)
		if typ != jsonparser.Number || err != nil {
			return false
		}
		if i == 5 {
			r.s.Strength = f
		} else {
			r.hl = f
		}
		return true
	}
	if typ != jsonparser.String {
		return false
	}
	str, err := jsonparser.ParseString(v)
	if err != nil {
		return false
	}
	fields := [...]*string{&r.s.ID, &r.s.Type, &r.s.Text, &r.s.Source, &r.created} // keys[0:5]
	*fields[i] = str
	return true
}

// signal checks the fields read and makes the signal: every required key,
// a half-life of a nanosecond to 1e9 s, a valid time and type.
func (r *record) signal() (Signal, bool) {
	s := r.s
	const required = 1<<1 | 1<<2 | 1<<4 | 1<<5 | 1<<6 // type, text, created, strength, half-life
	if r.seen&required != required || r.hl <= 0 || r.hl > 1e9 || math.IsNaN(s.Strength) {
		return s, false
	}
	if s.HalfLife = time.Duration(r.hl * float64(time.Second)); s.HalfLife <= 0 {
		return s, false // under a nanosecond
	}
	var err error
	if s.Created, err = time.Parse(time.RFC3339Nano, r.created); err != nil {
		return s, false
	}
	return s, s.Type == Feedback || s.Type == Redirect
}

// Line is s as one JSON line (with its newline).
func (s Signal) Line() []byte {
	var b strings.Builder
	b.WriteString(`{"id":` + quote(s.ID))
	b.WriteString(`,"type":` + quote(s.Type))
	b.WriteString(`,"text":` + quote(s.Text))
	b.WriteString(`,"strength":` + strconv.FormatFloat(s.Strength, 'g', -1, 64))
	b.WriteString(`,"halfLifeSeconds":` + strconv.FormatFloat(s.HalfLife.Seconds(), 'g', -1, 64))
	b.WriteString(`,"created":` + quote(s.Created.UTC().Format(time.RFC3339Nano)))
	b.WriteString(`,"source":` + quote(s.Source))
	b.WriteString("}\n")
	return []byte(b.String())
}

// Marshal is the log holding sigs, one line each.
func Marshal(sigs []Signal) []byte {
	var out []byte
	for _, s := range sigs {
		out = append(out, s.Line()...)
	}
	return out
}

// quote is a JSON string literal (encoding/json's escaping of the
// characters that matter, without linking encoding/json).
func quote(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Prune splits sigs into those alive at now and those that decayed under
// the floor, each in log order.
func Prune(sigs []Signal, now time.Time) (kept, pruned []Signal) {
	for _, s := range sigs {
		if Alive(s.At(now)) {
			kept = append(kept, s)
		} else {
			pruned = append(pruned, s)
		}
	}
	return kept, pruned
}

// Live returns the signals alive at now, REDIRECT first, then strongest
// first, then newest first.
func Live(sigs []Signal, now time.Time) []Signal {
	type cur struct {
		s Signal
		v float64
	}
	var live []*cur // pointers: sorting moves 8 bytes, not a Signal
	for _, s := range sigs {
		if v := s.At(now); Alive(v) {
			live = append(live, &cur{s, v})
		}
	}
	sort.SliceStable(live, func(a, b int) bool {
		x, y := live[a], live[b]
		if (x.s.Type == Redirect) != (y.s.Type == Redirect) {
			return x.s.Type == Redirect
		}
		if x.v != y.v {
			return x.v > y.v
		}
		return x.s.Created.After(y.s.Created)
	})
	out := make([]Signal, len(live))
	for i, c := range live {
		out[i] = c.s
	}
	return out
}

// MaxShown caps the signals a SessionStart block lists.
const MaxShown = 10

// Render is the SessionStart block of the live signals, REDIRECT first; it
// says how many it left out. Empty when none is alive.
func Render(sigs []Signal, now time.Time) string {
	live := Live(sigs, now)
	if len(live) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Live signals (strength decays; `lore signal list`)\n\n")
	for i, s := range live {
		if i == MaxShown {
			fmt.Fprintf(&b, "- … %d weaker signal(s) left out (`lore signal list`)\n", len(live)-MaxShown)
			break
		}
		fmt.Fprintf(&b, "- %s %.2f: %s\n", s.Type, s.At(now), s.Text)
	}
	return b.String()
}

// Now is the current time, or LORE_NOW (RFC 3339) when set, so tests and
// demos can show decay without waiting.
func Now() time.Time {
	if v := os.Getenv("LORE_NOW"); v != "" {
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t
		}
	}
	return time.Now()
}
