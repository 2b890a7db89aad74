package scan

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A skimmer reads compact JSON without decoding it: it walks an object's
// keys and hands back each value's raw bytes, jumping over strings with
// IndexByte. Only the few values a detector needs are ever decoded, which
// keeps a full scan near the speed of grep on transcripts whose bulk is
// tool output.

// fields calls fn for each key of the object at the start of b (after
// whitespace) with the key's raw bytes (no quotes, still escaped) and the
// value's raw bytes. fn returns false to stop early. fields reports false
// when b is not a well-formed object up to where it stopped.
func fields(b []byte, fn func(key, val []byte) bool) bool { return fieldsLazy(b, "", fn) }

// fieldsLazy is fields, except that the value of the key named lazy is
// handed over unbounded (the rest of b from its first byte) before it is
// skipped: a caller that stops there never pays for walking a value of
// megabytes twice. Parsers of that value stop at its end by themselves.
func fieldsLazy(b []byte, lazy string, fn func(key, val []byte) bool) bool {
	i, done, ok := openValue(b, '{', '}')
	if done || !ok {
		return ok
	}
	var key []byte
	for i < len(b) {
		if key, i, ok = objectKey(b, i); !ok {
			return false
		}
		handOver := lazy != "" && string(key) == lazy
		if handOver {
			if !fn(key, b[i:]) {
				return true
			}
			lazy = "" // the value was handed over; skip it below
		}
		vend, ok := skipValue(b, i)
		if !ok {
			return false
		}
		if !handOver && !fn(key, b[i:vend]) {
			return true
		}
		if i, done, ok = nextValue(b, vend, '}'); done || !ok {
			return ok
		}
	}
	return false
}

// openValue finds the open byte that starts b (after white space): i is
// the first byte inside it, done says the object or array is empty.
func openValue(b []byte, open, close byte) (i int, done, ok bool) {
	i = skipWS(b, 0)
	if i >= len(b) || b[i] != open {
		return i, false, false
	}
	i = skipWS(b, i+1)
	return i, i < len(b) && b[i] == close, true
}

// objectKey reads the key that starts at b[i] and its colon; i is then the
// start of the value.
func objectKey(b []byte, i int) (key []byte, next int, ok bool) {
	if b[i] != '"' {
		return nil, i, false
	}
	end, ok := skipString(b, i)
	if !ok {
		return nil, i, false
	}
	key = b[i+1 : end-1]
	i = skipWS(b, end)
	if i >= len(b) || b[i] != ':' {
		return nil, i, false
	}
	return key, skipWS(b, i+1), true
}

// nextValue reads what follows the value ending at vend: a comma (i is
// then the next key or element) or close (done).
func nextValue(b []byte, vend int, close byte) (i int, done, ok bool) {
	i = skipWS(b, vend)
	switch {
	case i >= len(b):
		return i, false, false
	case b[i] == ',':
		return skipWS(b, i+1), false, true
	case b[i] == close:
		return i, true, true
	}
	return i, false, false
}

// elements calls fn for each element of the array at the start of b.
func elements(b []byte, fn func(val []byte) bool) bool {
	i, done, ok := openValue(b, '[', ']')
	if done || !ok {
		return ok
	}
	for i < len(b) {
		end, ok := skipValue(b, i)
		if !ok {
			return false
		}
		if !fn(b[i:end]) {
			return true
		}
		if i, done, ok = nextValue(b, end, ']'); done || !ok {
			return ok
		}
	}
	return false
}

func skipWS(b []byte, i int) int {
	for i < len(b) && spaceBytes[b[i]] {
		i++
	}
	return i
}

// skipString returns the index just after the string that opens at b[i].
func skipString(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b), false
		}
		j += k
		// An odd run of backslashes before the quote escapes it.
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j, true
		}
	}
}

// skipValue returns the index just after the value that starts at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		return skipNested(b, i)
	default: // number, true, false, null
		j := i
		for j < len(b) && !literalEnds[b[j]] {
			j++
		}
		return j, j > i
	}
}

// literalEnds end a number, true, false or null.
var literalEnds = setOf(",}] \n")

// skipNested returns the index just after the object or array that opens
// at b[i].
func skipNested(b []byte, i int) (int, bool) {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			end, ok := skipString(b, j)
			if !ok {
				return len(b), false
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		}
	}
	return len(b), false
}

// str decodes a raw JSON string value; anything else gives "". Invalid
// UTF-8 is replaced rather than rejected.
func str(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	return unescape(raw[1 : len(raw)-1])
}

// strPrefix decodes at most about n bytes of a raw JSON string value: the
// excerpt of a tool result without copying megabytes of output.
func strPrefix(raw []byte, n int) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if len(raw) <= n+2 {
		return str(raw)
	}
	return unescape(raw[1 : n+1])
}

// unescape decodes the inside of a JSON string by hand (encoding/json
// validated every byte again and dominated the profile). A cut escape at
// the end is dropped; invalid UTF-8 becomes U+FFFD.
func unescape(in []byte) string {
	i := bytes.IndexByte(in, '\\')
	if i < 0 {
		return validUTF8(in)
	}
	out := make([]byte, 0, len(in))
	for i >= 0 {
		out = append(out, in[:i]...)
		out, in = appendEscape(out, in[i:])
		i = bytes.IndexByte(in, '\\')
	}
	return validUTF8(append(out, in...))
}

func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// escapes are the one-letter escapes that stand for another byte; any
// other (\" \\ \/ and anything unknown) is the character itself.
var escapes = [256]byte{'n': '\n', 't': '\t', 'r': '\r', 'b': '\b', 'f': '\f'}

// appendEscape decodes the escape at the start of in onto out and returns
// the rest of in. An escape cut short (by an excerpt) ends the string.
func appendEscape(out, in []byte) ([]byte, []byte) {
	if len(in) < 2 {
		return out, nil
	}
	c := in[1]
	if c != 'u' {
		if e := escapes[c]; e != 0 {
			c = e
		}
		return append(out, c), in[2:]
	}
	return appendUnicode(out, in)
}

// appendUnicode decodes the \uXXXX escape (and the low half of a
// surrogate pair after it) at the start of in.
func appendUnicode(out, in []byte) ([]byte, []byte) {
	if len(in) < 6 {
		return out, nil
	}
	r := hex4(in[2:6])
	in = in[6:]
	if utf16.IsSurrogate(r) && len(in) >= 6 && in[0] == '\\' && in[1] == 'u' {
		if r2 := utf16.DecodeRune(r, hex4(in[2:6])); r2 != utf8.RuneError {
			r = r2
			in = in[6:]
		}
	}
	return utf8.AppendRune(out, r), in
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return utf8.RuneError
		}
	}
	return r
}

func isTrue(raw []byte) bool { return string(raw) == "true" }
