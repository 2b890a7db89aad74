package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lowerAligned is strings.ToLower with every rune kept at its byte
// offset, so that where a keyword or literal is found in it is where it is
// in s. A few runes change their UTF-8 length when lower-cased: the Kelvin
// sign becomes k, İ becomes i, Ω becomes ω. One whose lower case is ASCII
// is written as that byte, padded in front with NULs to the rune's length
// (the Kelvin sign in a keyword still spells it: "\u212Aey" reads
// "\x00\x00key"); any other keeps its own bytes. Texts holding such a rune
// made the detectors cut the text at offsets it did not have, and an item
// mentioning İstanbul was left out of every build as one whose secret
// check could not run.
func lowerAligned(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		l := unicode.ToLower(r)
		switch {
		case r == utf8.RuneError && size <= 1: // a byte that is no UTF-8: kept
			b.WriteString(s[i : i+size])
		case utf8.RuneLen(l) == size:
			b.WriteRune(l)
		case l < utf8.RuneSelf:
			b.WriteString(strings.Repeat("\x00", size-1))
			b.WriteByte(byte(l))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isASCII says s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
