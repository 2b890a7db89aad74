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
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end, ok := skipString(b, i)
		if !ok {
			return false
		}
		key := b[i+1 : end-1]
		i = skipWS(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		if lazy != "" && string(key) == lazy {
			if !fn(key, b[i:]) {
				return true
			}
			lazy = "" // the value was handed over; skip it below
			vend, ok := skipValue(b, i)
			if !ok {
				return false
			}
			i = skipWS(b, vend)
			if i >= len(b) {
				return false
			}
			if b[i] == '}' {
				return true
			}
			if b[i] != ',' {
				return false
			}
			i = skipWS(b, i+1)
			continue
		}
		vend, ok := skipValue(b, i)
		if !ok {
			return false
		}
		if !fn(key, b[i:vend]) {
			return true
		}
		i = skipWS(b, vend)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// elements calls fn for each element of the array at the start of b.
func elements(b []byte, fn func(val []byte) bool) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for i < len(b) {
		end, ok := skipValue(b, i)
		if !ok {
			return false
		}
		if !fn(b[i:end]) {
			return true
		}
		i = skipWS(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
	return false
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
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
	default: // number, true, false, null
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' {
			j++
		}
		return j, j > i
	}
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
		if utf8.Valid(in) {
			return string(in)
		}
		return strings.ToValidUTF8(string(in), "\uFFFD")
	}
	out := make([]byte, 0, len(in))
	for {
		out = append(out, in[:i]...)
		in = in[i:]
		if len(in) < 2 {
			break
		}
		switch c := in[1]; c {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			if len(in) < 6 { // an escape cut by an excerpt
				in = nil
				goto next
			}
			r := hex4(in[2:6])
			in = in[6:]
			if utf16.IsSurrogate(r) && len(in) >= 6 && in[0] == '\\' && in[1] == 'u' {
				if r2 := utf16.DecodeRune(r, hex4(in[2:6])); r2 != utf8.RuneError {
					r = r2
					in = in[6:]
				}
			}
			out = utf8.AppendRune(out, r)
			goto next
		default: // \" \\ \/ and anything unknown: the character itself
			out = append(out, c)
		}
		in = in[2:]
	next:
		if len(in) == 0 {
			break
		}
		i = bytes.IndexByte(in, '\\')
		if i < 0 {
			out = append(out, in...)
			break
		}
	}
	if !utf8.Valid(out) {
		return strings.ToValidUTF8(string(out), "\uFFFD")
	}
	return string(out)
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
