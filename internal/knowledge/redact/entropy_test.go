package redact

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// entropySpans, which reads a candidate run from its far end and skips
// what cannot hold one, finds what reading every byte finds: the runs of
// 32 token bytes or more that highEntropy judges a secret, on texts whose
// runs are of every length around 32, with = signs inside and at their
// ends.
func TestEntropySpansReadsAsEveryByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const token, other = alphanumerics + "+/_-=.", " \n:,@'\""
	for range 5000 {
		var b strings.Builder
		for b.Len() < 300 {
			n := rng.IntN(45)
			for range n {
				b.WriteByte(token[rng.IntN(len(token))])
			}
			for range rng.IntN(3) {
				b.WriteByte(other[rng.IntN(len(other))])
			}
		}
		s := b.String()
		if got, want := entropySpans(s), entropySpansEveryByte(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("entropySpans(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"", strings.Repeat("Zq9", 10), strings.Repeat("Zq9", 11), "x " + strings.Repeat("aK3mQ9zP", 5)} {
		if got, want := entropySpans(s), entropySpansEveryByte(s); !reflect.DeepEqual(got, want) {
			t.Errorf("entropySpans(%q) = %v, want %v", s, got, want)
		}
	}
}

// entropySpansEveryByte is entropySpans reading every byte of s.
func entropySpansEveryByte(s string) []Span {
	var out []Span
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && inToken(s, i) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minEntropyToken && highEntropy(s[:start], s[start:i]) {
			out = append(out, Span{start, i, "high-entropy"})
		}
		start = -1
	}
	return out
}
