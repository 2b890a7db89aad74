package redact

import (
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
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
	if l, ok := lowerASCII(s); ok {
		return l
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

// lowerASCII is strings.ToLower of an ASCII text, or false when s holds
// a byte of a multi-byte character. It reads and writes eight bytes a
// step: every item a build reads is lowered once for the secret checks,
// and ToLower, which reads an ASCII text twice a byte at a time, was a
// tenth of their time (docs/design.md, Incremental build).
func lowerASCII(s string) (string, bool) {
	if s == "" {
		return "", true
	}
	b := make([]byte, len(s))
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&highBits != 0 {
			return "", false
		}
		// With every byte under 0x80 no sum carries into the next byte:
		// a byte's high bit is set by adding 0x3f when it is at least 'A',
		// by adding 0x25 when it is past 'Z'; 0x80>>2 is the case bit.
		upper := (w + 0x3f3f3f3f3f3f3f3f) &^ (w + 0x2525252525252525) & highBits
		binary.LittleEndian.PutUint64(b[i:], w|upper>>2)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return unsafe.String(&b[0], len(b)), true // b is not written again
}

const highBits = 0x8080808080808080
