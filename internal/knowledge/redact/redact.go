// Package redact removes secrets from transcript text before lore writes or
// prints it, and finds them for lint. Detection is gitleaks' rule set
// (carried as data, see gitleaks.go), plus heuristics for the generic cases
// gitleaks leaves (passwords in flags and key: value pairs, Bearer headers,
// truncated private key blocks, URL credentials, .env lines, random-looking
// tokens). A secret becomes [REDACTED:<kind>]. Nothing is parsed or
// compiled until text is checked, so importing it costs a process nothing.
package redact

import (
	"fmt"
	"sort"
	"strings"
)

// Span is one secret found in a text: its byte range and kind.
type Span struct {
	Start, End int
	Kind       string
}

const placeholderPrefix = "[REDACTED:"

// Placeholder is what a secret of a kind is replaced by.
func Placeholder(kind string) string { return placeholderPrefix + kind + "]" }

// Find returns the secrets in s, in order and not overlapping. An error
// means the detector could not run: the caller must treat s as unsafe.
func Find(s string) (spans []Span, err error) {
	defer func() {
		if r := recover(); r != nil {
			spans, err = nil, fmt.Errorf("redact: %v", r)
		}
	}()
	lower := lowerAligned(s)   // once, at s's offsets: both detectors read it
	hits := keywordHits(lower) // and where their keywords occur
	defer releaseHits(hits)
	gl, err := gitleaksSpans(s, lower, hits)
	if err != nil {
		return nil, err
	}
	h, err := heuristicSpans(s, lower, hits[len(gitleaksRules):])
	if err != nil {
		return nil, err
	}
	found := append(gl, h...)
	found = append(found, entropySpans(s)...)
	return merge(s, found), nil
}

// String returns s with every secret replaced by its placeholder. An error
// means the detector could not run; the caller must then write nothing
// (fail closed) and the returned string is empty.
func String(s string) (string, error) {
	spans, err := Find(s)
	if err != nil {
		return "", err
	}
	return replaceAll(s, spans), nil
}

// Field is String for a field's value written as "key: value" (a #lesson
// block's line): the value is judged with its key in front, as on the line
// it came from, so a rule that needs the key's keyword (adafruit_token: ...)
// still fires; the value alone is returned.
func Field(key, value string) (string, error) {
	prefix := key + ": "
	spans, err := Find(prefix + value)
	if err != nil {
		return "", err
	}
	var in []Span
	for _, sp := range spans {
		sp.Start, sp.End = max(sp.Start-len(prefix), 0), sp.End-len(prefix)
		if sp.End > sp.Start {
			in = append(in, sp)
		}
	}
	return replaceAll(value, in), nil
}

// replaceAll replaces each span of s (in order, not overlapping) by its
// placeholder, and the same secret elsewhere in s (a token echoed twice,
// once where no rule's context matched) too.
func replaceAll(s string, spans []Span) string {
	if len(spans) == 0 {
		return s
	}
	out := replaceSpans(s, spans)
	for _, sp := range spans {
		if sec := s[sp.Start:sp.End]; len(sec) >= 8 {
			out = strings.ReplaceAll(out, sec, Placeholder(sp.Kind))
		}
	}
	return out
}

// replaceSpans replaces each span of s (in order, not overlapping) by its
// placeholder.
func replaceSpans(s string, spans []Span) string {
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.Start])
		b.WriteString(Placeholder(sp.Kind))
		last = sp.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// merge extends each span to the end of the token it cuts (a rule that
// matches a fixed-length prefix of a longer token must not leave the rest),
// drops spans inside placeholders already there, and joins overlaps; on
// equal starts the longer span names the kind, else the first found.
func merge(s string, spans []Span) []Span {
	if len(spans) == 0 {
		return nil
	}
	held := placeholders(s)
	var in []Span
	for _, sp := range spans {
		if sp.End = tokenEnd(s, sp.End); sp.End > sp.Start && !overlapsAny(sp, held) {
			in = append(in, sp)
		}
	}
	sort.SliceStable(in, func(i, j int) bool {
		if in[i].Start != in[j].Start {
			return in[i].Start < in[j].Start
		}
		return in[i].End > in[j].End
	})
	return joinOverlaps(in)
}

// tokenEnd is the end of the secret-like token that goes on at s[i].
func tokenEnd(s string, i int) int {
	for i < len(s) && secretBytes[s[i]] {
		i++
	}
	return i
}

// joinOverlaps joins each span that overlaps the one before it (sorted by
// start) into it.
func joinOverlaps(in []Span) []Span {
	var out []Span
	for _, sp := range in {
		if n := len(out); n > 0 && sp.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, sp.End)
			continue
		}
		out = append(out, sp)
	}
	return out
}

func placeholders(s string) []Span {
	var out []Span
	for off := 0; ; {
		i := strings.Index(s[off:], placeholderPrefix)
		if i < 0 {
			return out
		}
		start := off + i
		end := strings.IndexByte(s[start:], ']')
		if end < 0 {
			return out
		}
		out = append(out, Span{start, start + end + 1, ""})
		off = start + end + 1
	}
}

func overlapsAny(sp Span, held []Span) bool {
	for _, h := range held {
		if sp.Start < h.End && h.Start < sp.End {
			return true
		}
	}
	return false
}
